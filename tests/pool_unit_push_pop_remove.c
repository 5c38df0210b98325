/* pool_unit_push_pop_remove: the ABT_unit-level pool API on a basic pool:
 * ABT_pool_pop returns units in FIFO order, ABT_unit_get_thread maps each
 * unit to the ULT created into the pool, ABT_pool_push re-queues a unit at the
 * tail, ABT_pool_remove takes a queued unit out of the middle of the queue,
 * and ABT_xstream_run_unit runs a popped unit to completion on the calling
 * ULT's stream. */
#include "test.h"
#include <stdatomic.h>

enum { N = 4 };
static atomic_int ran_mask;

static void work(void *arg) { atomic_fetch_or(&ran_mask, 1 << (int)(intptr_t)arg); }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_pool_kind kinds[] = { ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT };
    for (int k = 0; k < 2; k++) {
        atomic_store(&ran_mask, 0);
        ABT_pool pool;
        CHECK_ABT(ABT_pool_create_basic(kinds[k], ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
        ABT_thread ts[N];
        for (int i = 0; i < N; i++)
            CHECK_ABT(
                ABT_thread_create(pool, work, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &ts[i]));

        /* Pop all, map to threads, push back in the same order. */
        ABT_unit units[N];
        for (int i = 0; i < N; i++) {
            units[i] = ABT_UNIT_NULL;
            CHECK_ABT(ABT_pool_pop(pool, &units[i]));
            CHECK(units[i] != ABT_UNIT_NULL);
            ABT_thread th = ABT_THREAD_NULL;
            CHECK_ABT(ABT_unit_get_thread(units[i], &th));
            CHECK(th == ts[i]);
        }
        ABT_unit u = (ABT_unit)&u;
        CHECK_ABT(ABT_pool_pop(pool, &u));
        CHECK(u == ABT_UNIT_NULL);
        for (int i = 0; i < N; i++)
            CHECK_ABT(ABT_pool_push(pool, units[i]));
        size_t sz = 0;
        CHECK_ABT(ABT_pool_get_size(pool, &sz));
        CHECK_EQ_INT(sz, N);

        /* Remove unit 1 (from the middle) and unit 3 (the tail). */
        CHECK_ABT(ABT_pool_remove(pool, units[1]));
        CHECK_ABT(ABT_pool_remove(pool, units[3]));
        CHECK_ABT(ABT_pool_get_size(pool, &sz));
        CHECK_EQ_INT(sz, N - 2);
        ABT_unit a = ABT_UNIT_NULL, b = ABT_UNIT_NULL;
        CHECK_ABT(ABT_pool_pop(pool, &a));
        CHECK_ABT(ABT_pool_pop(pool, &b));
        ABT_thread ta, tb;
        CHECK_ABT(ABT_unit_get_thread(a, &ta));
        CHECK_ABT(ABT_unit_get_thread(b, &tb));
        CHECK(ta == ts[0] && tb == ts[2]);
        ABT_bool empty = ABT_FALSE;
        CHECK_ABT(ABT_pool_is_empty(pool, &empty));
        CHECK_EQ_INT(empty, ABT_TRUE);

        /* Run unit 0 directly; re-push the others and run them via pops. */
        CHECK_ABT(ABT_xstream_run_unit(a, pool));
        CHECK_EQ_INT(atomic_load(&ran_mask), 1);
        ABT_thread_state st;
        CHECK_ABT(ABT_thread_get_state(ts[0], &st));
        CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);

        CHECK_ABT(ABT_pool_push(pool, b));
        CHECK_ABT(ABT_pool_push(pool, units[1]));
        CHECK_ABT(ABT_pool_push(pool, units[3]));
        for (int i = 0; i < 3; i++) {
            CHECK_ABT(ABT_pool_pop(pool, &u));
            CHECK(u != ABT_UNIT_NULL);
            CHECK_ABT(ABT_xstream_run_unit(u, pool));
        }
        CHECK_EQ_INT(atomic_load(&ran_mask), (1 << N) - 1);
        for (int i = 0; i < N; i++)
            CHECK_ABT(ABT_thread_free(&ts[i]));
        CHECK_ABT(ABT_pool_free(&pool));
    }

    CHECK_ABT(ABT_finalize());
    return 0;
}
