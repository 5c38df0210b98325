/* unit_get_thread: ABT_unit_get_thread maps a unit popped from a basic pool
 * (FIFO, FIFO_WAIT, RANDWS) back to the ULT that was created into the pool;
 * ABT_UNIT_NULL gives ABT_ERR_INV_UNIT and leaves the output untouched. */
#include "test.h"

static void work(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream primary;
    ABT_pool ppool;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));

    ABT_pool_kind kinds[] = { ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT, ABT_POOL_RANDWS };
    for (int k = 0; k < 3; k++) {
        ABT_pool pool;
        CHECK_ABT(ABT_pool_create_basic(kinds[k], ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
        ABT_thread t, got = ABT_THREAD_NULL;
        CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
        ABT_unit u = ABT_UNIT_NULL;
        CHECK_ABT(ABT_pool_pop(pool, &u));
        CHECK(u != ABT_UNIT_NULL);
        CHECK_ABT(ABT_unit_get_thread(u, &got));
        CHECK(got == t);
        CHECK_ABT(ABT_pool_push_thread(ppool, got));
        CHECK_ABT(ABT_thread_free(&t));
        CHECK_ABT(ABT_pool_free(&pool));
    }

    ABT_thread sentinel = (ABT_thread)&sentinel, out = sentinel;
    CHECK_ERR(ABT_unit_get_thread(ABT_UNIT_NULL, &out), ABT_ERR_INV_UNIT);
    CHECK(out == sentinel);

    CHECK_ABT(ABT_finalize());
    return 0;
}
