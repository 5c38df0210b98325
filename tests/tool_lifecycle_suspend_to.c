/* tool_lifecycle_suspend_to: the *_to calls that suspend, resume or end the caller
 * report every life-cycle step of both ULTs: ABT_self_suspend_to reports the caller's
 * SUSPEND (a later ABT_thread_resume then reports RESUME before its next RUN);
 * ABT_self_resume_yield_to and ABT_self_resume_suspend_to report the target's RESUME
 * before its RUN and the caller's YIELD or SUSPEND; ABT_self_exit_to and
 * ABT_self_resume_exit_to report the caller's FINISH.  All on one secondary stream whose
 * scheduler serves pool P; targets wait in a pool Q that no scheduler serves, or are
 * suspended.  The life-cycle checker of tests/lifecycle.h is on whatever the
 * environment. */
#define TEST_LIFECYCLE_ALWAYS 1
#include "test.h"

static ABT_pool P, Q;
static ABT_thread tA, tB;

static ABT_thread pop_q(void)
{
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_ABT(ABT_pool_pop_thread(Q, &t));
    CHECK(t != ABT_THREAD_NULL);
    return t;
}

static void wait_blocked(ABT_thread t)
{
    ABT_thread_state st;
    for (;;) {
        CHECK_ABT(ABT_thread_get_state(t, &st));
        if (st == ABT_THREAD_STATE_BLOCKED)
            return;
        ABT_thread_yield();
    }
}

/* B: resumes A (suspended by suspend_to) */
static void b_resume(void *arg)
{
    (void)arg;
    wait_blocked(tA);
    CHECK_ABT(ABT_thread_resume(tA));
}

/* A: suspends to B */
static void a_suspend_to(void *arg)
{
    (void)arg;
    ABT_thread b = pop_q();
    CHECK_ABT(ABT_self_suspend_to(b));
    LC_CHECK_TAIL(tA, "SUSPEND RESUME RUN");
}

/* A: suspends; B resume_yield_to / resume_suspend_to / resume_exit_to it */
static void a_suspend(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_self_suspend());
}

static void b_resume_yield_to(void *arg)
{
    (void)arg;
    wait_blocked(tA);
    CHECK_ABT(ABT_self_resume_yield_to(tA));
    LC_CHECK_TAIL(tB, "YIELD RUN");
}

static void b_resume_suspend_to(void *arg)
{
    (void)arg;
    wait_blocked(tA);
    CHECK_ABT(ABT_self_resume_suspend_to(tA));
    LC_CHECK_TAIL(tB, "SUSPEND RESUME RUN");
}

/* A, resumed by b_resume_suspend_to: resumes B in turn */
static void a_suspend_then_resume_b(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_self_suspend());
    wait_blocked(tB);
    CHECK_ABT(ABT_thread_resume(tB));
}

static void b_resume_exit_to(void *arg)
{
    (void)arg;
    wait_blocked(tA);
    ABT_self_resume_exit_to(tA);
    TEST_FAIL("ABT_self_resume_exit_to returned");
}

static void work(void *arg) { (void)arg; }

static void e_exit_to(void *arg)
{
    (void)arg;
    ABT_thread g = pop_q();
    ABT_self_exit_to(g);
    TEST_FAIL("ABT_self_exit_to returned");
}

/* Run A and B in P (or B in Q when A pops it) and check both histories. */
static void round_(void (*fa)(void *), void (*fb)(void *), int b_in_q, const char *ha,
                   const char *hb)
{
    /* B in Q first: A runs on the other stream at once and pops it */
    if (b_in_q)
        CHECK_ABT(ABT_thread_create(Q, fb, NULL, ABT_THREAD_ATTR_NULL, &tB));
    CHECK_ABT(ABT_thread_create(P, fa, NULL, ABT_THREAD_ATTR_NULL, &tA));
    if (!b_in_q)
        CHECK_ABT(ABT_thread_create(P, fb, NULL, ABT_THREAD_ATTR_NULL, &tB));
    CHECK_ABT(ABT_thread_join(tA));
    CHECK_ABT(ABT_thread_join(tB));
    LC_CHECK_TAIL(tA, ha);
    LC_CHECK_TAIL(tB, hb);
    CHECK_ABT(ABT_thread_free(&tA));
    CHECK_ABT(ABT_thread_free(&tB));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    if (!lc_active()) {
        ABT_finalize();
        TEST_SKIP("the tool interface is off (WEFT_ENABLE_TOOL unset or 0, or -DWEFT_TOOL=OFF)");
    }
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &Q));
    ABT_sched sched;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(sched, &xs));

    round_(a_suspend_to, b_resume, 1, "CREATE RUN SUSPEND RESUME RUN FINISH JOIN",
           "CREATE RUN FINISH JOIN");
    round_(a_suspend, b_resume_yield_to, 0, "CREATE RUN SUSPEND RESUME RUN FINISH JOIN",
           "CREATE RUN YIELD RUN FINISH JOIN");
    round_(a_suspend_then_resume_b, b_resume_suspend_to, 0,
           "CREATE RUN SUSPEND RESUME RUN FINISH JOIN",
           "CREATE RUN SUSPEND RESUME RUN FINISH JOIN");
    round_(a_suspend, b_resume_exit_to, 0, "CREATE RUN SUSPEND RESUME RUN FINISH JOIN",
           "CREATE RUN FINISH JOIN");

    /* ABT_self_exit_to */
    ABT_thread e, g;
    CHECK_ABT(ABT_thread_create(Q, work, NULL, ABT_THREAD_ATTR_NULL, &g));
    CHECK_ABT(ABT_thread_create(P, e_exit_to, NULL, ABT_THREAD_ATTR_NULL, &e));
    CHECK_ABT(ABT_thread_join(e));
    CHECK_ABT(ABT_thread_join(g));
    LC_CHECK_TAIL(e, "CREATE RUN FINISH JOIN");
    LC_CHECK_TAIL(g, "CREATE RUN FINISH JOIN");
    CHECK_ABT(ABT_thread_free(&e));
    CHECK_ABT(ABT_thread_free(&g));

    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_EQ_INT(lc_violations(), 0);
    CHECK_ABT(ABT_pool_free(&Q));
    CHECK_ABT(ABT_pool_free(&P));
    CHECK_ABT(ABT_finalize());
    return 0;
}
