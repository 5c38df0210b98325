/* tool_lifecycle_join_bypass: a ULT that joins a ULT which has not run yet and waits in
 * one of its own scheduler's pools runs it itself (weft's join bypass), and the finishing
 * target hands the CPU straight back to its joiner.  Tool events must still follow the
 * life cycle: the joiner reports SUSPEND when it leaves for the target and RESUME before
 * its next RUN; the target reports CREATE RUN FINISH JOIN.  Checked for a target that
 * runs straight through (hand-off), one that yields first (woken through its pool), and a
 * tasklet joined inline, from the primary ULT and from a ULT on a second stream.  The
 * life-cycle checker of tests/lifecycle.h is on for this test whatever the environment. */
#define TEST_LIFECYCLE_ALWAYS 1
#include "test.h"

static void work(void *arg) { (void)arg; }
static void yielder(void *arg)
{
    (void)arg;
    ABT_thread_yield();
}

/* The caller (a ULT) joins fresh units of its own pool. */
static void scenario(void *arg)
{
    (void)arg;
    ABT_thread me, t;
    ABT_pool pool;
    CHECK_ABT(ABT_thread_self(&me));
    CHECK_ABT(ABT_self_get_last_pool(&pool));

    CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_join(t));
    LC_CHECK_TAIL(me, "SUSPEND RESUME RUN");
    LC_CHECK_TAIL(t, "CREATE RUN FINISH JOIN");
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_thread_create(pool, yielder, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t)); /* free joins too */
    LC_CHECK_TAIL(me, "SUSPEND RESUME RUN");

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, work, NULL, &k));
    CHECK_ABT(ABT_task_join(k));
    LC_CHECK_TAIL(k, "CREATE RUN FINISH JOIN");
    CHECK_ABT(ABT_task_free(&k));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    if (!lc_active()) {
        ABT_finalize();
        TEST_SKIP("the tool interface is off (WEFT_ENABLE_TOOL unset or 0, or -DWEFT_TOOL=OFF)");
    }
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
    CHECK_ABT(ABT_finalize());
    return 0;
}
