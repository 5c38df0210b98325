/* unit_set_associated_pool: ABT_unit_set_associated_pool is a documented
 * no-op that returns ABT_SUCCESS for valid arguments (the unit stays where it
 * is and the pools' sizes do not change), ABT_ERR_INV_UNIT for ABT_UNIT_NULL
 * and ABT_ERR_INV_POOL for ABT_POOL_NULL. */
#include "test.h"
#include <stdatomic.h>

static atomic_int ran;
static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_pool a, b;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &a));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &b));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(a, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_unit u = ABT_UNIT_NULL;
    CHECK_ABT(ABT_pool_pop(a, &u));
    CHECK_ABT(ABT_pool_push(a, u));

    CHECK_ABT(ABT_unit_set_associated_pool(u, b));
    size_t sa = 0, sb = 9;
    CHECK_ABT(ABT_pool_get_size(a, &sa));
    CHECK_ABT(ABT_pool_get_size(b, &sb));
    CHECK_EQ_INT(sa, 1);
    CHECK_EQ_INT(sb, 0);

    CHECK_ERR(ABT_unit_set_associated_pool(ABT_UNIT_NULL, b), ABT_ERR_INV_UNIT);
    CHECK_ERR(ABT_unit_set_associated_pool(u, ABT_POOL_NULL), ABT_ERR_INV_POOL);

    /* The ULT is still runnable from pool a. */
    ABT_unit again = ABT_UNIT_NULL;
    CHECK_ABT(ABT_pool_pop(a, &again));
    CHECK(again != ABT_UNIT_NULL);
    CHECK_ABT(ABT_xstream_run_unit(again, a));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&ran), 1);

    CHECK_ABT(ABT_pool_free(&a));
    CHECK_ABT(ABT_pool_free(&b));
    CHECK_ABT(ABT_finalize());
    return 0;
}
