/* pool_fifo_access_modes: for ABT_POOL_FIFO and ABT_POOL_FIFO_WAIT in every
 * access mode, ULTs created into the pool are popped by ABT_pool_pop_thread in
 * creation (FIFO) order; size/is_empty track pushes and pops; a popped ULT
 * pushed back with ABT_pool_push_thread goes to the tail; pushing
 * ABT_THREAD_NULL is a successful no-op.  Finally the ULTs are moved to the
 * primary pool and run. */
#include "test.h"
#include <stdatomic.h>

enum { N = 4 };
static atomic_int ran;

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream primary;
    ABT_pool ppool;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));

    ABT_pool_kind kinds[] = { ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT };
    for (int k = 0; k < 2; k++) {
        for (int a = ABT_POOL_ACCESS_PRIV; a <= ABT_POOL_ACCESS_MPMC; a++) {
            ABT_pool pool;
            CHECK_ABT(ABT_pool_create_basic(kinds[k], (ABT_pool_access)a, ABT_FALSE, &pool));
            ABT_thread ts[N];
            for (int i = 0; i < N; i++) {
                CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
                size_t sz = 0;
                CHECK_ABT(ABT_pool_get_size(pool, &sz));
                CHECK_EQ_INT(sz, i + 1);
            }
            ABT_bool empty = ABT_TRUE;
            CHECK_ABT(ABT_pool_is_empty(pool, &empty));
            CHECK_EQ_INT(empty, ABT_FALSE);

            /* Pop the head and push it back: it moves to the tail. */
            ABT_thread t = ABT_THREAD_NULL;
            CHECK_ABT(ABT_pool_pop_thread(pool, &t));
            CHECK(t == ts[0]);
            size_t sz = 0;
            CHECK_ABT(ABT_pool_get_size(pool, &sz));
            CHECK_EQ_INT(sz, N - 1);
            CHECK_ABT(ABT_pool_push_thread(pool, t));
            CHECK_ABT(ABT_pool_push_thread(pool, ABT_THREAD_NULL));
            CHECK_ABT(ABT_pool_get_size(pool, &sz));
            CHECK_EQ_INT(sz, N);

            ABT_thread popped[N];
            for (int i = 0; i < N; i++) {
                CHECK_ABT(ABT_pool_pop_thread(pool, &popped[i]));
                CHECK(popped[i] != ABT_THREAD_NULL);
            }
            for (int i = 0; i < N - 1; i++)
                CHECK(popped[i] == ts[i + 1]);
            CHECK(popped[N - 1] == ts[0]);
            CHECK_ABT(ABT_pool_pop_thread(pool, &t));
            CHECK(t == ABT_THREAD_NULL);
            CHECK_ABT(ABT_pool_is_empty(pool, &empty));
            CHECK_EQ_INT(empty, ABT_TRUE);

            atomic_store(&ran, 0);
            for (int i = 0; i < N; i++)
                CHECK_ABT(ABT_pool_push_thread(ppool, popped[i]));
            for (int i = 0; i < N; i++)
                CHECK_ABT(ABT_thread_free(&ts[i]));
            CHECK_EQ_INT(atomic_load(&ran), N);
            CHECK_ABT(ABT_pool_free(&pool));
        }
    }

    CHECK_ABT(ABT_finalize());
    return 0;
}
