/* pool_get_id: ABT_pool_get_id gives every pool a non-negative id that is
 * stable across calls and distinct from the ids of all other live pools
 * (including the primary stream's pool). */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    enum { N = 6 };
    ABT_pool pools[N + 1];
    int ids[N + 1];
    ABT_xstream primary;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &pools[N]));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_pool_create_basic(i % 2 ? ABT_POOL_FIFO : ABT_POOL_FIFO_WAIT,
                                        ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pools[i]));
    for (int i = 0; i <= N; i++) {
        ids[i] = -1;
        CHECK_ABT(ABT_pool_get_id(pools[i], &ids[i]));
        CHECK(ids[i] >= 0);
        int again = -1;
        CHECK_ABT(ABT_pool_get_id(pools[i], &again));
        CHECK_EQ_INT(again, ids[i]);
    }
    for (int i = 0; i <= N; i++)
        for (int j = i + 1; j <= N; j++)
            if (ids[i] == ids[j])
                TEST_FAIL("pools %d and %d share id %d", i, j, ids[i]);

    int id = -5;
    CHECK_ERR(ABT_pool_get_id(ABT_POOL_NULL, &id), ABT_ERR_INV_POOL);
    CHECK_EQ_INT(id, -5);

    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_pool_free(&pools[i]));
    CHECK_ABT(ABT_finalize());
    return 0;
}
