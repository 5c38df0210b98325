/* pool_randws_deque: ABT_pool_create_basic accepts ABT_POOL_RANDWS with every access mode.
 * A RANDWS pool is a deque: ULTs pushed while being created (ABT_thread_create, or a push
 * with ABT_POOL_CONTEXT_OP_THREAD_CREATE) go to the head, other pushes to the tail; a pop
 * by the owner (ABT_POOL_CONTEXT_OWNER_PRIMARY) takes the head, a pop with
 * ABT_POOL_CONTEXT_OWNER_SECONDARY (a thief) takes the tail.  Size and emptiness follow. */
#include "test.h"

#define NT 4
static int ran[NT];
static void ult(void *arg) { ran[(intptr_t)arg]++; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream self;
    ABT_pool main_pool;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &main_pool));

    ABT_pool_access accs[] = { ABT_POOL_ACCESS_PRIV, ABT_POOL_ACCESS_SPSC, ABT_POOL_ACCESS_MPSC,
                               ABT_POOL_ACCESS_SPMC, ABT_POOL_ACCESS_MPMC };
    for (int a = 0; a < 5; a++) {
        ABT_pool pool;
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_RANDWS, accs[a], ABT_FALSE, &pool));
        ABT_pool_access got;
        CHECK_ABT(ABT_pool_get_access(pool, &got));
        CHECK_EQ_INT(got, accs[a]);

        /* created 0 1 2 3, each at the head: deque = 3 2 1 0 */
        ABT_thread ts[NT], t;
        for (int i = 0; i < NT; i++)
            CHECK_ABT(
                ABT_thread_create(pool, ult, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &ts[i]));
        size_t size;
        CHECK_ABT(ABT_pool_get_size(pool, &size));
        CHECK_EQ_INT(size, NT);
        CHECK_ABT(ABT_pool_pop_thread_ex(pool, &t, ABT_POOL_CONTEXT_OWNER_PRIMARY));
        CHECK(t == ts[3]);
        CHECK_ABT(ABT_pool_pop_thread_ex(pool, &t, ABT_POOL_CONTEXT_OWNER_SECONDARY));
        CHECK(t == ts[0]);
        /* deque = 2 1; a yield-like push goes to the tail, a create-like one to the head */
        CHECK_ABT(ABT_pool_push_thread_ex(pool, ts[3], ABT_POOL_CONTEXT_OP_THREAD_YIELD));
        CHECK_ABT(ABT_pool_push_thread_ex(pool, ts[0], ABT_POOL_CONTEXT_OP_THREAD_CREATE));
        /* deque = 0 2 1 3 */
        ABT_thread want_head[] = { ts[0], ts[2] }, want_tail[] = { ts[3], ts[1] };
        for (int i = 0; i < 2; i++) {
            CHECK_ABT(ABT_pool_pop_thread_ex(pool, &t, ABT_POOL_CONTEXT_OWNER_SECONDARY));
            CHECK(t == want_tail[i]);
            CHECK_ABT(ABT_pool_push_thread(main_pool, t));
            CHECK_ABT(ABT_pool_pop_thread_ex(pool, &t, ABT_POOL_CONTEXT_OWNER_PRIMARY));
            CHECK(t == want_head[i]);
            CHECK_ABT(ABT_pool_push_thread(main_pool, t));
        }
        ABT_bool empty;
        CHECK_ABT(ABT_pool_is_empty(pool, &empty));
        CHECK(empty == ABT_TRUE);
        CHECK_ABT(ABT_pool_pop_thread(pool, &t));
        CHECK(t == ABT_THREAD_NULL);
        for (int i = 0; i < NT; i++)
            CHECK_ABT(ABT_thread_free(&ts[i]));
        for (int i = 0; i < NT; i++) {
            CHECK_EQ_INT(ran[i], 1);
            ran[i] = 0;
        }
        CHECK_ABT(ABT_pool_free(&pool));
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
