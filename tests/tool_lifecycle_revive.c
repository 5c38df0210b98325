/* tool_lifecycle_revive: a revived unit starts a fresh life cycle, so every join after
 * the revive reports JOIN again: join + revive + join + free reports CREATE RUN FINISH
 * JOIN REVIVE RUN FINISH JOIN JOIN FREE (Argobots reports JOIN for every join, and
 * ABT_thread_free joins), for ULTs and tasklets, revived on the same and on another
 * stream; a unit revived right after it finished (never joined) reports JOIN at its
 * free.  The life-cycle checker of tests/lifecycle.h is on whatever the environment. */
#define TEST_LIFECYCLE_ALWAYS 1
#include "test.h"

static void work(void *arg) { (void)arg; }

static void wait_terminated(ABT_thread t)
{
    ABT_thread_state st;
    for (;;) {
        CHECK_ABT(ABT_thread_get_state(t, &st));
        if (st == ABT_THREAD_STATE_TERMINATED)
            return;
        ABT_thread_yield();
    }
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    if (!lc_active()) {
        ABT_finalize();
        TEST_SKIP("the tool interface is off (WEFT_ENABLE_TOOL unset or 0, or -DWEFT_TOOL=OFF)");
    }
    ABT_xstream xs2;
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_self(&xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pools[0]));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pools[1]));

    for (int kind = 0; kind < 2; kind++) {
        for (int where = 0; where < 2; where++) {
            ABT_thread t;
            if (kind == 0)
                CHECK_ABT(ABT_thread_create(pools[0], work, NULL, ABT_THREAD_ATTR_NULL, &t));
            else
                CHECK_ABT(ABT_task_create(pools[0], work, NULL, &t));
            CHECK_ABT(ABT_thread_join(t));
            LC_CHECK_TAIL(t, "CREATE RUN FINISH JOIN");
            if (kind == 0)
                CHECK_ABT(ABT_thread_revive(pools[where], work, NULL, &t));
            else
                CHECK_ABT(ABT_task_revive(pools[where], work, NULL, &t));
            CHECK_ABT(ABT_thread_join(t));
            LC_CHECK_TAIL(t, "CREATE RUN FINISH JOIN REVIVE RUN FINISH JOIN");
            CHECK_ABT(ABT_thread_join(t));
            LC_CHECK_TAIL(t, "REVIVE RUN FINISH JOIN JOIN");

            /* revived straight after it finished, then freed without a join */
            if (kind == 0)
                CHECK_ABT(ABT_thread_revive(pools[where], work, NULL, &t));
            else
                CHECK_ABT(ABT_task_revive(pools[where], work, NULL, &t));
            wait_terminated(t);
            if (kind == 0)
                CHECK_ABT(ABT_thread_revive(pools[where], work, NULL, &t));
            else
                CHECK_ABT(ABT_task_revive(pools[where], work, NULL, &t));
            wait_terminated(t);
            LC_CHECK_TAIL(t, "JOIN REVIVE RUN FINISH REVIVE RUN FINISH");
            CHECK_ABT(ABT_thread_free(&t));
        }
    }
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_EQ_INT(lc_violations(), 0);
    CHECK_ABT(ABT_finalize());
    return 0;
}
