/* self_resume_to_order: ABT_self_resume_yield_to, ABT_self_resume_suspend_to and
 * ABT_self_resume_exit_to resume a ULT suspended by ABT_self_suspend and give it the CPU
 * at once; the caller yields (back of its pool), suspends (BLOCKED until
 * ABT_thread_resume) or terminates.  Each scenario runs on a fresh secondary stream
 * whose pool P = [S, R, W] is filled before the stream starts.  S records 'S' and
 * suspends; R records 'R' and calls the routine on S; S records 's'; W records 'W'.
 *   resume_yield_to:   S sees R READY (in the pool behind W):             "SRsWr"
 *   resume_suspend_to: S sees R BLOCKED and resumes it (back of P):       "SRsWr"
 *   resume_exit_to:    S sees R TERMINATED; the call does not return:     "SRsW"
 * A second resume_yield_to round runs on the primary stream with the primary ULT as R.
 * The resumed ULT keeps its pool and runs on the caller's stream. */
#include "test.h"
#include <stdatomic.h>
#include <sched.h>

static char trace[32];
static atomic_int tlen;
static ABT_pool P;
static ABT_thread tS, tR, tW;
static ABT_xstream cur_xs;
static int mode; /* 0 yield, 1 suspend, 2 exit */

static void rec(char c)
{
    int at = atomic_fetch_add(&tlen, 1);
    if (at >= (int)sizeof(trace) - 1)
        TEST_FAIL("trace overflow");
    trace[at] = c;
}

static void check_trace(const char *what, const char *expected)
{
    trace[atomic_load(&tlen)] = 0;
    if (strcmp(trace, expected) != 0)
        TEST_FAIL("%s: trace \"%s\", expected \"%s\"", what, trace, expected);
    atomic_store(&tlen, 0);
}

static void fS(void *arg)
{
    ABT_pool home = (ABT_pool)arg;
    rec('S');
    CHECK_ABT(ABT_self_suspend());
    rec('s');
    ABT_xstream me;
    ABT_pool last;
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK_EQ_PTR(me, cur_xs);
    CHECK_ABT(ABT_self_get_last_pool(&last));
    CHECK_EQ_PTR(last, home);
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(tR, &st));
    switch (mode) {
    case 0: CHECK_EQ_INT(st, ABT_THREAD_STATE_READY); break;
    case 1:
        CHECK_EQ_INT(st, ABT_THREAD_STATE_BLOCKED);
        CHECK_ABT(ABT_thread_resume(tR));
        break;
    default: CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED); break;
    }
}

static void fR(void *arg)
{
    (void)arg;
    rec('R');
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(tS, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_BLOCKED);
    switch (mode) {
    case 0: CHECK_ABT(ABT_self_resume_yield_to(tS)); break;
    case 1: CHECK_ABT(ABT_self_resume_suspend_to(tS)); break;
    default: CHECK_ABT(ABT_self_resume_exit_to(tS)); TEST_FAIL("ABT_self_resume_exit_to returned");
    }
    rec('r');
}

static void fW(void *arg)
{
    (void)arg;
    rec('W');
}

static atomic_int gate;
static void gate_f(void *arg)
{
    (void)arg;
    while (!atomic_load(&gate))
        sched_yield(); /* spin politely (valgrind/TSan) */
}

static void scenario(int m, const char *name, const char *expected)
{
    mode = m;
    ABT_thread g;
    CHECK_ABT(ABT_thread_create(P, gate_f, NULL, ABT_THREAD_ATTR_NULL, &g));
    CHECK_ABT(ABT_thread_create(P, fS, P, ABT_THREAD_ATTR_NULL, &tS));
    CHECK_ABT(ABT_thread_create(P, fR, NULL, ABT_THREAD_ATTR_NULL, &tR));
    CHECK_ABT(ABT_thread_create(P, fW, NULL, ABT_THREAD_ATTR_NULL, &tW));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &xs));
    cur_xs = xs;
    atomic_store(&gate, 1);
    CHECK_ABT(ABT_thread_free(&g));
    /* Join R first: for exit, its termination must wake a joiner.  S reads tR, so R is
     * freed only after S. */
    CHECK_ABT(ABT_thread_join(tR));
    CHECK_ABT(ABT_thread_free(&tS));
    CHECK_ABT(ABT_thread_free(&tR));
    CHECK_ABT(ABT_thread_free(&tW));
    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    atomic_store(&gate, 0);
    check_trace(name, expected);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P));

    scenario(0, "resume_yield_to", "SRsWr");
    scenario(1, "resume_suspend_to", "SRsWr");
    scenario(2, "resume_exit_to", "SRsW");

    /* The primary ULT as the caller of ABT_self_resume_yield_to: S (in the primary
     * stream's pool) suspends while the primary ULT yields; the primary ULT resumes it
     * and goes back to its pool behind W. */
    mode = 0;
    ABT_pool mp;
    CHECK_ABT(ABT_xstream_self(&cur_xs));
    CHECK_ABT(ABT_xstream_get_main_pools(cur_xs, 1, &mp));
    CHECK_ABT(ABT_thread_self(&tR));
    CHECK_ABT(ABT_thread_create(mp, fS, mp, ABT_THREAD_ATTR_NULL, &tS));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    for (int i = 0; i < 1000 && st != ABT_THREAD_STATE_BLOCKED; i++) {
        CHECK_ABT(ABT_thread_yield());
        CHECK_ABT(ABT_thread_get_state(tS, &st));
    }
    CHECK_EQ_INT(st, ABT_THREAD_STATE_BLOCKED);
    CHECK_ABT(ABT_thread_create(mp, fW, NULL, ABT_THREAD_ATTR_NULL, &tW));
    rec('R');
    CHECK_ABT(ABT_self_resume_yield_to(tS));
    rec('r');
    CHECK_ABT(ABT_thread_free(&tS));
    CHECK_ABT(ABT_thread_free(&tW));
    check_trace("resume_yield_to from the primary ULT", "SRsWr");

    CHECK_ABT(ABT_pool_free(&P));
    CHECK_ABT(ABT_finalize());
    return 0;
}
