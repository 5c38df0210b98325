/* self_schedule_order: ABT_self_schedule(t, pool) called by a ULT runs the work unit t
 * (taken out of its pool beforehand) as a child of the caller: the caller is resumed as
 * soon as t finishes or yields, before anything else in the caller's pool.  With pool
 * != ABT_POOL_NULL, t is associated with that pool first (its yields go there);
 * with ABT_POOL_NULL it keeps its pool.  Each scenario runs on a fresh secondary stream
 * whose pool P = [D, W] is filled before the stream starts; the child waits in a pool Q
 * that no scheduler serves.  D records 'D', pops the child, schedules it, records 'd';
 * W records 'W'.
 *   child ULT C, pool P, yields once ('C' ... 'c'):            "DCdWc"
 *   child ULT C, ABT_POOL_NULL, no yield:                      "DCdW"
 *   child tasklet T (runs inline):                             "DTdW"
 * The child runs on the caller's stream and reports the associated pool. */
#include "test.h"
#include <stdatomic.h>
#include <sched.h>

static char trace[32];
static atomic_int tlen;
static ABT_pool P, Q;
static ABT_xstream cur_xs;
static ABT_thread child;
static int scenario_no;

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

static void where(ABT_pool expected_pool)
{
    ABT_xstream me;
    ABT_pool last;
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK_EQ_PTR(me, cur_xs);
    CHECK_ABT(ABT_self_get_last_pool(&last));
    CHECK_EQ_PTR(last, expected_pool);
}

static void fC(void *arg)
{
    (void)arg;
    rec('C');
    if (scenario_no == 0) {
        where(P);
        CHECK_ABT(ABT_thread_yield());
        where(P);
        rec('c');
    } else {
        where(Q);
    }
}

static void fT(void *arg)
{
    (void)arg;
    rec('T');
    ABT_unit_type type;
    CHECK_ABT(ABT_self_get_type(&type));
    CHECK_EQ_INT(type, ABT_UNIT_TYPE_TASK);
    ABT_xstream me;
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK_EQ_PTR(me, cur_xs);
}

static void fD(void *arg)
{
    (void)arg;
    rec('D');
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_ABT(ABT_pool_pop_thread(Q, &t));
    CHECK_EQ_PTR(t, child);
    CHECK_ABT(ABT_self_schedule(t, scenario_no == 0 ? P : ABT_POOL_NULL));
    rec('d');
    where(P);
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

static void scenario(int no, const char *name, const char *expected)
{
    scenario_no = no;
    ABT_thread g, d, w;
    CHECK_ABT(ABT_thread_create(P, gate_f, NULL, ABT_THREAD_ATTR_NULL, &g));
    CHECK_ABT(ABT_thread_create(P, fD, NULL, ABT_THREAD_ATTR_NULL, &d));
    CHECK_ABT(ABT_thread_create(P, fW, NULL, ABT_THREAD_ATTR_NULL, &w));
    if (no == 2)
        CHECK_ABT(ABT_task_create(Q, fT, NULL, &child));
    else
        CHECK_ABT(ABT_thread_create(Q, fC, NULL, ABT_THREAD_ATTR_NULL, &child));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &xs));
    cur_xs = xs;
    atomic_store(&gate, 1);
    CHECK_ABT(ABT_thread_free(&g));
    CHECK_ABT(ABT_thread_free(&d));
    CHECK_ABT(ABT_thread_free(&w));
    CHECK_ABT(ABT_thread_free(&child));
    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    atomic_store(&gate, 0);
    check_trace(name, expected);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &Q));
    scenario(0, "child ULT that yields, new pool", "DCdWc");
    scenario(1, "child ULT, ABT_POOL_NULL", "DCdW");
    scenario(2, "child tasklet", "DTdW");
    CHECK_ABT(ABT_pool_free(&P));
    CHECK_ABT(ABT_pool_free(&Q));
    CHECK_ABT(ABT_finalize());
    return 0;
}
