/* self_yield_to_order: ABT_self_yield_to, ABT_self_suspend_to and ABT_self_exit_to give
 * the CPU straight to a ULT that the caller has taken out of its pool beforehand (the
 * Argobots contract: "the user's responsibility to pop thread from its associated
 * pool").  Each scenario runs on a fresh secondary stream whose only pool P is filled
 * before the stream starts; the target waits in a pool Q that no scheduler serves and is
 * popped with ABT_pool_pop_thread.  Traces (upper case = start, lower case = after the
 * call returned):
 *   yield_to:   P=[X,Y], Z in Q.  X pops Z, yields to it: Z runs at once, X goes to the
 *               back of P:                                             "XZYx"
 *   suspend_to: P=[A,B], C in Q.  A suspends to C: C runs at once and sees A BLOCKED,
 *               resumes it (A goes to the back of P):                  "ACcBa"
 *   exit_to:    P=[E,F], G in Q.  E exits to G: G runs at once and sees E TERMINATED;
 *               the call does not return:                              "EGF"
 * The target keeps its own associated pool (Q) and runs on the caller's stream.  A
 * second yield_to round uses the primary ULT as the caller. */
#include "test.h"
#include <stdatomic.h>
#include <sched.h>

static char trace[32];
static atomic_int tlen;
static ABT_pool P, Q;
static ABT_thread tX, tY, tZ, tA, tB, tC, tE, tF, tG;
static ABT_xstream cur_xs;

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

static void pop_target(ABT_thread want)
{
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_ABT(ABT_pool_pop_thread(Q, &t));
    CHECK_EQ_PTR(t, want);
}

static void on_cur_xs_in(ABT_pool pool)
{
    ABT_xstream me;
    ABT_pool last;
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK_EQ_PTR(me, cur_xs);
    CHECK_ABT(ABT_self_get_last_pool(&last));
    CHECK_EQ_PTR(last, pool);
}

static void fX(void *arg)
{
    (void)arg;
    rec('X');
    pop_target(tZ);
    CHECK_ABT(ABT_self_yield_to(tZ));
    rec('x');
}
static void fZ(void *arg)
{
    (void)arg;
    on_cur_xs_in(Q);
    rec('Z');
}
static void fY(void *arg)
{
    (void)arg;
    rec('Y');
}

static void fA(void *arg)
{
    (void)arg;
    rec('A');
    pop_target(tC);
    CHECK_ABT(ABT_self_suspend_to(tC));
    rec('a');
}
static void fC(void *arg)
{
    (void)arg;
    on_cur_xs_in(Q);
    rec('C');
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(tA, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_BLOCKED);
    CHECK_ABT(ABT_thread_resume(tA));
    rec('c');
}
static void fB(void *arg)
{
    (void)arg;
    rec('B');
}

static void fE(void *arg)
{
    (void)arg;
    rec('E');
    pop_target(tG);
    CHECK_ABT(ABT_self_exit_to(tG));
    TEST_FAIL("ABT_self_exit_to returned");
}
static void fG(void *arg)
{
    (void)arg;
    on_cur_xs_in(Q);
    rec('G');
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(tE, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
}
static void fF(void *arg)
{
    (void)arg;
    rec('F');
}

static void mk(ABT_pool pool, void (*f)(void *), ABT_thread *t)
{
    CHECK_ABT(ABT_thread_create(pool, f, NULL, ABT_THREAD_ATTR_NULL, t));
}

/* cur_xs is written by the primary ULT right after ABT_xstream_create_basic returns,
 * which may be after the stream started; so each scenario holds the stream with a gate
 * ULT at the head of P until cur_xs is published. */
static atomic_int gate;
static void gate_f(void *arg)
{
    (void)arg;
    while (!atomic_load(&gate))
        sched_yield(); /* spin politely (valgrind/TSan) */
}

/* all[0] is the gate.  Start a stream on P, join all[join_first] (if >= 0), free the
 * ULTs in order, stop the stream. */
static void run_on_new_stream(ABT_thread *all, int n, int join_first)
{
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &xs));
    cur_xs = xs;
    atomic_store(&gate, 1);
    if (join_first >= 0)
        CHECK_ABT(ABT_thread_join(all[join_first]));
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_free(&all[i]));
    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    atomic_store(&gate, 0);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &Q));
    ABT_thread g;

    /* yield_to */
    mk(P, gate_f, &g);
    mk(P, fX, &tX);
    mk(P, fY, &tY);
    mk(Q, fZ, &tZ);
    ABT_thread s1[] = { g, tX, tY, tZ };
    run_on_new_stream(s1, 4, -1);
    check_trace("yield_to", "XZYx");

    /* suspend_to */
    mk(P, gate_f, &g);
    mk(P, fA, &tA);
    mk(P, fB, &tB);
    mk(Q, fC, &tC);
    ABT_thread s2[] = { g, tA, tB, tC };
    run_on_new_stream(s2, 4, -1);
    check_trace("suspend_to", "ACcBa");

    /* exit_to; the primary ULT waits in ABT_thread_join(E) while E exits, so exit_to
     * must wake a joiner; G reads tE, so E is freed after G. */
    mk(P, gate_f, &g);
    mk(P, fE, &tE);
    mk(P, fF, &tF);
    mk(Q, fG, &tG);
    ABT_thread s3[] = { g, tG, tE, tF };
    run_on_new_stream(s3, 4, 2);
    check_trace("exit_to", "EGF");

    /* yield_to from the primary ULT: Z runs on the primary stream, the primary ULT goes
     * back to its pool (behind Y, which was queued first). */
    ABT_pool mp;
    CHECK_ABT(ABT_xstream_self(&cur_xs));
    CHECK_ABT(ABT_xstream_get_main_pools(cur_xs, 1, &mp));
    mk(mp, fY, &tY);
    mk(Q, fZ, &tZ);
    pop_target(tZ);
    CHECK_ABT(ABT_self_yield_to(tZ));
    rec('m');
    CHECK_ABT(ABT_thread_free(&tZ));
    CHECK_ABT(ABT_thread_free(&tY));
    check_trace("yield_to from the primary ULT", "ZYm");

    CHECK_ABT(ABT_pool_free(&P));
    CHECK_ABT(ABT_pool_free(&Q));
    CHECK_ABT(ABT_finalize());
    return 0;
}
