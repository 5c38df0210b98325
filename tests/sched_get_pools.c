/* sched_get_pools: ABT_sched_get_pools(sched, max, idx, out) copies pools
 * idx..idx+max-1 without padding; idx + max larger than the number of pools
 * fails with ABT_ERR_SCHED (1.x); negative max or idx fail with
 * ABT_ERR_INV_ARG; max == 0 is a no-op; ABT_SCHED_NULL gives
 * ABT_ERR_INV_SCHED for get_pools and get_num_pools. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_pool pools[4];
    for (int i = 0; i < 4; i++)
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
    ABT_sched sched;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 4, pools, ABT_SCHED_CONFIG_NULL, &sched));

    ABT_pool sentinel = (ABT_pool)&sentinel;
    ABT_pool out[4];
    for (int i = 0; i < 4; i++)
        out[i] = sentinel;
    CHECK_ABT(ABT_sched_get_pools(sched, 2, 1, out));
    CHECK(out[0] == pools[1] && out[1] == pools[2]);
    CHECK(out[2] == sentinel && out[3] == sentinel);

    for (int i = 0; i < 4; i++)
        out[i] = sentinel;
    CHECK_ABT(ABT_sched_get_pools(sched, 1, 3, out));
    CHECK(out[0] == pools[3] && out[1] == sentinel);

    CHECK_ABT(ABT_sched_get_pools(sched, 0, 4, out));
    CHECK_ABT(ABT_sched_get_pools(sched, 0, 0, out));
    CHECK(out[1] == sentinel);

    CHECK_ERR(ABT_sched_get_pools(sched, 2, 3, out), ABT_ERR_SCHED);
    CHECK_ERR(ABT_sched_get_pools(sched, 5, 0, out), ABT_ERR_SCHED);
    CHECK_ERR(ABT_sched_get_pools(sched, -1, 0, out), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_get_pools(sched, 1, -1, out), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_get_pools(ABT_SCHED_NULL, 1, 0, out), ABT_ERR_INV_SCHED);
    int n = -3;
    CHECK_ERR(ABT_sched_get_num_pools(ABT_SCHED_NULL, &n), ABT_ERR_INV_SCHED);

    CHECK_ABT(ABT_sched_free(&sched));
    CHECK_ABT(ABT_finalize());
    return 0;
}
