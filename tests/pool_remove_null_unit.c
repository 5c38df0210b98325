/* pool_remove_null_unit: ABT_pool_remove(pool, ABT_UNIT_NULL) on a valid,
 * non-empty basic pool returns ABT_ERR_INV_UNIT (documented) and leaves the
 * queued ULT in place.
 * NOTE: Argobots 1.2 does not check this: on a non-empty pool it dereferences
 * the NULL unit and crashes (on an empty pool it returns ABT_ERR_POOL), so
 * this test fails against the reference build. */
#include "test.h"

static void work(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool pool, ppool;
    ABT_xstream primary;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_thread t, got;
    CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));

    CHECK_ERR(ABT_pool_remove(pool, ABT_UNIT_NULL), ABT_ERR_INV_UNIT);
    size_t sz = 9;
    CHECK_ABT(ABT_pool_get_size(pool, &sz));
    CHECK_EQ_INT(sz, 1);

    CHECK_ABT(ABT_pool_pop_thread(pool, &got));
    CHECK(got == t);
    CHECK_ABT(ABT_pool_push_thread(ppool, got));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
