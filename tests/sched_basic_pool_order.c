/* sched_basic_pool_order: the BASIC and BASIC_WAIT schedulers always pop from
 * the first pool that has work (pools of the same access type are tried in
 * index order): with ULTs queued in pool 1 first and pool 0 second before the
 * stream starts, all pool-0 ULTs run (FIFO) before any pool-1 ULT. */
#include "test.h"
#include <stdatomic.h>

enum { N = 4 };
static atomic_int pos;
static int order[2 * N];

static void record(void *arg)
{
    int p = atomic_fetch_add(&pos, 1);
    if (p < 2 * N)
        order[p] = (int)(intptr_t)arg;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_sched_predef predefs[] = { ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT };
    ABT_pool_kind kinds[] = { ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT };
    for (int k = 0; k < 2; k++) {
        atomic_store(&pos, 0);
        ABT_pool pools[2];
        for (int i = 0; i < 2; i++)
            CHECK_ABT(ABT_pool_create_basic(kinds[k], ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
        ABT_thread ts[2 * N];
        /* Pool 1 gets ids 100.., pool 0 gets ids 0.. ; pool 1 filled first. */
        for (int i = 0; i < N; i++)
            CHECK_ABT(ABT_thread_create(pools[1], record, (void *)(intptr_t)(100 + i),
                                        ABT_THREAD_ATTR_NULL, &ts[i]));
        for (int i = 0; i < N; i++)
            CHECK_ABT(ABT_thread_create(pools[0], record, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL,
                                        &ts[N + i]));
        ABT_xstream xs;
        CHECK_ABT(ABT_xstream_create_basic(predefs[k], 2, pools, ABT_SCHED_CONFIG_NULL, &xs));
        for (int i = 0; i < 2 * N; i++)
            CHECK_ABT(ABT_thread_free(&ts[i]));
        CHECK_EQ_INT(atomic_load(&pos), 2 * N);
        for (int i = 0; i < N; i++) {
            CHECK_EQ_INT(order[i], i);
            CHECK_EQ_INT(order[N + i], 100 + i);
        }
        CHECK_ABT(ABT_xstream_free(&xs));
    }

    CHECK_ABT(ABT_finalize());
    return 0;
}
