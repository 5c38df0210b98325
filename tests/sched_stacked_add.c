/* sched_stacked_add: ABT_pool_add_sched pushes a scheduler into a pool; the scheduler
 * that pops it runs it like a ULT, and the stacked scheduler runs the units of its own
 * pools (here 100 ULTs, each yielding once, which comes back to the stacked scheduler)
 * until they are empty.  A scheduler already in use cannot be added (ABT_ERR_INV_SCHED);
 * ABT_POOL_NULL / ABT_SCHED_NULL give ABT_ERR_INV_POOL / ABT_ERR_INV_SCHED.  The stacked
 * scheduler is automatic (ABT_sched_create_basic) and goes away by itself. */
#include "test.h"

#define NT 100
static int ran;
static ABT_pool inner;

static void ult(void *arg)
{
    ABT_pool last;
    CHECK_ABT(ABT_self_get_last_pool(&last));
    CHECK(last == inner);
    CHECK_ABT(ABT_thread_yield());
    ran++;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream self;
    ABT_pool main_pool;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &main_pool));

    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &inner));
    ABT_sched s;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &inner, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_ERR(ABT_pool_add_sched(ABT_POOL_NULL, s), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_add_sched(main_pool, ABT_SCHED_NULL), ABT_ERR_INV_SCHED);

    ABT_thread ts[NT];
    for (int i = 0; i < NT; i++)
        CHECK_ABT(ABT_thread_create(inner, ult, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    CHECK_ABT(ABT_pool_add_sched(main_pool, s));
    CHECK_ERR(ABT_pool_add_sched(main_pool, s), ABT_ERR_INV_SCHED);
    for (int i = 0; i < NT; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
    CHECK_EQ_INT(ran, NT);
    CHECK_ABT(ABT_finalize());
    return 0;
}
