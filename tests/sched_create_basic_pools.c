/* sched_create_basic_pools: ABT_sched_create_basic associates the given pools
 * in order (ABT_sched_get_num_pools / ABT_sched_get_pools); ABT_POOL_NULL
 * entries are replaced by newly created pools (distinct, non-null, MPMC) and
 * written back nowhere (the caller's array is only read); pools == NULL makes
 * the scheduler create its own (>= 1) pools.  Unused schedulers are freed with
 * ABT_sched_free, which sets the handle to ABT_SCHED_NULL. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_sched_predef predefs[] = { ABT_SCHED_DEFAULT, ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT };
    for (int k = 0; k < 3; k++) {
        /* Explicit pools, not automatic: user frees them after the scheduler. */
        ABT_pool pools[2];
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pools[0]));
        CHECK_ABT(
            ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPSC, ABT_FALSE, &pools[1]));
        ABT_sched sched = ABT_SCHED_NULL;
        CHECK_ABT(ABT_sched_create_basic(predefs[k], 2, pools, ABT_SCHED_CONFIG_NULL, &sched));
        CHECK(sched != ABT_SCHED_NULL);
        int n = 0;
        CHECK_ABT(ABT_sched_get_num_pools(sched, &n));
        CHECK_EQ_INT(n, 2);
        ABT_pool got[2] = { ABT_POOL_NULL, ABT_POOL_NULL };
        CHECK_ABT(ABT_sched_get_pools(sched, 2, 0, got));
        CHECK(got[0] == pools[0] && got[1] == pools[1]);
        CHECK_ABT(ABT_sched_free(&sched));
        CHECK(sched == ABT_SCHED_NULL);
        CHECK_ABT(ABT_pool_free(&pools[0]));
        CHECK_ABT(ABT_pool_free(&pools[1]));

        /* ABT_POOL_NULL entries get fresh pools. */
        ABT_pool mixed[3] = { ABT_POOL_NULL, ABT_POOL_NULL, ABT_POOL_NULL };
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &mixed[1]));
        ABT_pool user_pool = mixed[1];
        CHECK_ABT(ABT_sched_create_basic(predefs[k], 3, mixed, ABT_SCHED_CONFIG_NULL, &sched));
        CHECK(mixed[0] == ABT_POOL_NULL && mixed[1] == user_pool && mixed[2] == ABT_POOL_NULL);
        CHECK_ABT(ABT_sched_get_num_pools(sched, &n));
        CHECK_EQ_INT(n, 3);
        ABT_pool got3[3];
        CHECK_ABT(ABT_sched_get_pools(sched, 3, 0, got3));
        CHECK(got3[1] == user_pool);
        CHECK(got3[0] != ABT_POOL_NULL && got3[2] != ABT_POOL_NULL);
        CHECK(got3[0] != got3[2] && got3[0] != user_pool && got3[2] != user_pool);
        for (int i = 0; i < 3; i++) {
            ABT_pool_access acc;
            size_t sz = 1;
            CHECK_ABT(ABT_pool_get_access(got3[i], &acc));
            CHECK_EQ_INT(acc, ABT_POOL_ACCESS_MPMC);
            CHECK_ABT(ABT_pool_get_size(got3[i], &sz));
            CHECK_EQ_INT(sz, 0);
        }
        /* All three pools are automatic: freed with the scheduler. */
        CHECK_ABT(ABT_sched_free(&sched));

        /* pools == NULL. */
        CHECK_ABT(ABT_sched_create_basic(predefs[k], 0, NULL, ABT_SCHED_CONFIG_NULL, &sched));
        CHECK_ABT(ABT_sched_get_num_pools(sched, &n));
        CHECK(n >= 1);
        ABT_pool p0 = ABT_POOL_NULL;
        CHECK_ABT(ABT_sched_get_pools(sched, 1, 0, &p0));
        CHECK(p0 != ABT_POOL_NULL);
        CHECK_ABT(ABT_sched_free(&sched));
    }

    CHECK_ABT(ABT_finalize());
    return 0;
}
