/* xstream_create_basic: ABT_xstream_create_basic with a predefined scheduler
 * and user pools associates exactly those pools (in order) with the new
 * stream's main scheduler, and work pushed to any of them runs on that
 * stream.  Also checks pools == NULL (scheduler creates its own pools) for
 * ABT_SCHED_DEFAULT, BASIC and BASIC_WAIT. */
#include "test.h"
#include <stdatomic.h>

static ABT_xstream target;
static atomic_int ran_on_target;

static void work(void *arg)
{
    (void)arg;
    ABT_xstream self;
    if (ABT_xstream_self(&self) == ABT_SUCCESS && self == target)
        atomic_fetch_add(&ran_on_target, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_sched_predef predefs[] = { ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT };
    for (int k = 0; k < 2; k++) {
        ABT_pool pools[2];
        CHECK_ABT(
            ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pools[0]));
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pools[1]));
        ABT_xstream xs = ABT_XSTREAM_NULL;
        CHECK_ABT(ABT_xstream_create_basic(predefs[k], 2, pools, ABT_SCHED_CONFIG_NULL, &xs));
        CHECK(xs != ABT_XSTREAM_NULL);
        target = xs;

        ABT_pool got[3] = { ABT_POOL_NULL, ABT_POOL_NULL, ABT_POOL_NULL };
        CHECK_ABT(ABT_xstream_get_main_pools(xs, 3, got));
        CHECK(got[0] == pools[0]);
        CHECK(got[1] == pools[1]);
        CHECK(got[2] == ABT_POOL_NULL); /* not padded */

        ABT_sched sched;
        int num_pools = 0;
        CHECK_ABT(ABT_xstream_get_main_sched(xs, &sched));
        CHECK_ABT(ABT_sched_get_num_pools(sched, &num_pools));
        CHECK_EQ_INT(num_pools, 2);

        atomic_store(&ran_on_target, 0);
        ABT_thread ts[6];
        for (int i = 0; i < 6; i++)
            CHECK_ABT(ABT_thread_create(pools[i % 2], work, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
        for (int i = 0; i < 6; i++)
            CHECK_ABT(ABT_thread_free(&ts[i]));
        CHECK_EQ_INT(atomic_load(&ran_on_target), 6);

        CHECK_ABT(ABT_xstream_free(&xs));
        /* Not automatic: the user frees them after the stream is gone. */
        CHECK_ABT(ABT_pool_free(&pools[0]));
        CHECK_ABT(ABT_pool_free(&pools[1]));
    }

    ABT_sched_predef auto_predefs[] = { ABT_SCHED_DEFAULT, ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT };
    for (int k = 0; k < 3; k++) {
        ABT_xstream xs;
        CHECK_ABT(ABT_xstream_create_basic(auto_predefs[k], 0, NULL, ABT_SCHED_CONFIG_NULL, &xs));
        target = xs;
        ABT_sched sched;
        int num_pools = 0;
        CHECK_ABT(ABT_xstream_get_main_sched(xs, &sched));
        CHECK_ABT(ABT_sched_get_num_pools(sched, &num_pools));
        CHECK(num_pools >= 1);
        ABT_pool pool = ABT_POOL_NULL;
        CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
        CHECK(pool != ABT_POOL_NULL);
        atomic_store(&ran_on_target, 0);
        ABT_thread t;
        CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_ABT(ABT_thread_free(&t));
        CHECK_EQ_INT(atomic_load(&ran_on_target), 1);
        CHECK_ABT(ABT_xstream_free(&xs));
    }

    CHECK_ABT(ABT_finalize());
    return 0;
}
