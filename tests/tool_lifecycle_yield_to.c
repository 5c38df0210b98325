/* tool_lifecycle_yield_to: the calls that give the CPU straight to another ULT and put
 * the caller back into its pool (ABT_thread_yield_to, ABT_self_yield_to,
 * ABT_thread_create_to, ABT_thread_revive_to) report the caller's YIELD before the
 * target's RUN, so the caller's next RUN follows a YIELD; the target reports RUN from
 * the ready state.  Run from the primary ULT and from a ULT on a second stream, with the
 * life-cycle checker of tests/lifecycle.h on whatever the environment. */
#define TEST_LIFECYCLE_ALWAYS 1
#include "test.h"

static ABT_pool Q; /* a pool no scheduler serves */

static void work(void *arg) { (void)arg; }

static void scenario(void *arg)
{
    (void)arg;
    ABT_thread me, t;
    ABT_pool pool;
    CHECK_ABT(ABT_thread_self(&me));
    CHECK_ABT(ABT_self_get_last_pool(&pool));

    /* ABT_thread_yield_to: the target waits in the caller's pool */
    CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_yield_to(t));
    LC_CHECK_TAIL(me, "YIELD RUN");
    CHECK_ABT(ABT_thread_join(t));
    LC_CHECK_TAIL(t, "CREATE RUN FINISH JOIN");

    /* ABT_thread_revive_to */
    CHECK_ABT(ABT_thread_revive_to(pool, work, NULL, &t));
    LC_CHECK_TAIL(me, "YIELD RUN");
    CHECK_ABT(ABT_thread_join(t));
    LC_CHECK_TAIL(t, "JOIN REVIVE RUN FINISH JOIN");
    CHECK_ABT(ABT_thread_free(&t));

    /* ABT_self_yield_to: the caller popped the target from its pool beforehand */
    ABT_thread popped = ABT_THREAD_NULL;
    CHECK_ABT(ABT_thread_create(Q, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_pool_pop_thread(Q, &popped));
    CHECK_EQ_PTR(popped, t);
    CHECK_ABT(ABT_self_yield_to(t));
    LC_CHECK_TAIL(me, "YIELD RUN");
    CHECK_ABT(ABT_thread_free(&t));

    /* ABT_thread_create_to, named and unnamed */
    CHECK_ABT(ABT_thread_create_to(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    LC_CHECK_TAIL(me, "YIELD RUN");
    CHECK_ABT(ABT_thread_join(t));
    LC_CHECK_TAIL(t, "CREATE RUN FINISH JOIN");
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_thread_create_to(pool, work, NULL, ABT_THREAD_ATTR_NULL, NULL));
    LC_CHECK_TAIL(me, "YIELD RUN");
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    if (!lc_active()) {
        ABT_finalize();
        TEST_SKIP("the tool interface is off (WEFT_ENABLE_TOOL unset or 0, or -DWEFT_TOOL=OFF)");
    }
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &Q));
    scenario(NULL);

    ABT_xstream xs2;
    ABT_pool pool2;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));
    CHECK_ABT(ABT_thread_create(pool2, scenario, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_xstream_free(&xs2));

    CHECK_EQ_INT(lc_violations(), 0);
    CHECK_ABT(ABT_pool_free(&Q));
    CHECK_ABT(ABT_finalize());
    return 0;
}
