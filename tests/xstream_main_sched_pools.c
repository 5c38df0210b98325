/* xstream_main_sched_pools: ABT_xstream_get_main_sched returns the scheduler
 * passed to ABT_xstream_create; ABT_xstream_get_main_pools copies at most
 * max_pools of its pools, in order, equal to ABT_sched_get_pools, without
 * padding the rest of the array; max_pools == 0 is allowed.  Also checks the
 * primary stream's main scheduler has at least one pool. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_pool pools[3];
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
    ABT_sched sched, got_sched = ABT_SCHED_NULL;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 3, pools, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(sched, &xs));
    CHECK_ABT(ABT_xstream_get_main_sched(xs, &got_sched));
    CHECK(got_sched == sched);

    ABT_pool sentinel = (ABT_pool)&sentinel;
    ABT_pool got[5];
    for (int i = 0; i < 5; i++)
        got[i] = sentinel;
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 5, got));
    for (int i = 0; i < 3; i++)
        CHECK(got[i] == pools[i]);
    CHECK(got[3] == sentinel && got[4] == sentinel);

    for (int i = 0; i < 5; i++)
        got[i] = sentinel;
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 2, got));
    CHECK(got[0] == pools[0] && got[1] == pools[1]);
    CHECK(got[2] == sentinel);

    CHECK_ABT(ABT_xstream_get_main_pools(xs, 0, got));
    CHECK(got[2] == sentinel);

    ABT_pool via_sched[3];
    CHECK_ABT(ABT_sched_get_pools(sched, 3, 0, via_sched));
    for (int i = 0; i < 3; i++)
        CHECK(via_sched[i] == pools[i]);

    /* Primary stream. */
    ABT_xstream primary;
    ABT_sched psched = ABT_SCHED_NULL;
    ABT_pool ppool = ABT_POOL_NULL;
    int n = 0;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_sched(primary, &psched));
    CHECK(psched != ABT_SCHED_NULL);
    CHECK_ABT(ABT_sched_get_num_pools(psched, &n));
    CHECK(n >= 1);
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));
    CHECK(ppool != ABT_POOL_NULL);

    /* Freed together with the stream (sched and pools are automatic). */
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    return 0;
}
