/* xstream_run_unit_from_ult: ABT_xstream_run_unit called by a ULT that is not a scheduler
 * runs the unit as a child of the caller, exactly as ABT_self_schedule does (Argobots):
 * the caller continues as soon as the child yields or finishes, before anything else
 * queued in its pool, and the child is associated with the given pool.  On a fresh
 * secondary stream whose pool P = [D, W] is filled before it starts; the child C waits
 * in a pool Q that no scheduler serves.  D records 'D', pops C's unit from Q with
 * ABT_pool_pop, runs it with ABT_xstream_run_unit(unit, P), records 'd'; C records 'C',
 * yields, records 'c'; W records 'W'.  Expected: "DCdWc".  A tasklet calling
 * ABT_xstream_run_unit gets ABT_ERR_INV_THREAD. */
#include "test.h"
#include <sched.h>
#include <stdatomic.h>

static char trace[16];
static atomic_int tlen;
static ABT_pool P, Q;
static atomic_int gate;
static int tasklet_ret = -1;

static void rec(char c)
{
    int at = atomic_fetch_add(&tlen, 1);
    if (at >= (int)sizeof(trace) - 1)
        TEST_FAIL("trace overflow");
    trace[at] = c;
}

static void fC(void *arg)
{
    (void)arg;
    rec('C');
    ABT_pool last;
    CHECK_ABT(ABT_self_get_last_pool(&last));
    CHECK_EQ_PTR(last, P);
    CHECK_ABT(ABT_thread_yield());
    rec('c');
}

static void fD(void *arg)
{
    (void)arg;
    rec('D');
    ABT_unit u;
    CHECK_ABT(ABT_pool_pop(Q, &u));
    CHECK(u != ABT_UNIT_NULL);
    CHECK_ABT(ABT_xstream_run_unit(u, P));
    rec('d');
}

static void fW(void *arg)
{
    (void)arg;
    rec('W');
}

static void gate_f(void *arg)
{
    (void)arg;
    while (!atomic_load(&gate))
        sched_yield();
}

static void fT(void *arg)
{
    (void)arg;
    ABT_unit u;
    CHECK_ABT(ABT_pool_pop(Q, &u));
    CHECK(u != ABT_UNIT_NULL);
    tasklet_ret = ABT_xstream_run_unit(u, P);
    if (tasklet_ret != ABT_SUCCESS)
        CHECK_ABT(ABT_pool_push(Q, u)); /* give it back */
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &Q));
    ABT_thread g, d, w, c;
    CHECK_ABT(ABT_thread_create(P, gate_f, NULL, ABT_THREAD_ATTR_NULL, &g));
    CHECK_ABT(ABT_thread_create(P, fD, NULL, ABT_THREAD_ATTR_NULL, &d));
    CHECK_ABT(ABT_thread_create(P, fW, NULL, ABT_THREAD_ATTR_NULL, &w));
    CHECK_ABT(ABT_thread_create(Q, fC, NULL, ABT_THREAD_ATTR_NULL, &c));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &xs));
    atomic_store(&gate, 1);
    CHECK_ABT(ABT_thread_free(&g));
    CHECK_ABT(ABT_thread_free(&d));
    CHECK_ABT(ABT_thread_free(&w));
    CHECK_ABT(ABT_thread_free(&c));
    trace[atomic_load(&tlen)] = 0;
    if (strcmp(trace, "DCdWc") != 0)
        TEST_FAIL("trace \"%s\", expected \"DCdWc\"", trace);

    /* from a tasklet */
    CHECK_ABT(ABT_thread_create(Q, fW, NULL, ABT_THREAD_ATTR_NULL, &c));
    ABT_task k;
    CHECK_ABT(ABT_task_create(P, fT, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(tasklet_ret, ABT_ERR_INV_THREAD);
    ABT_thread popped;
    CHECK_ABT(ABT_pool_pop_thread(Q, &popped));
    CHECK_EQ_PTR(popped, c);
    CHECK_ABT(ABT_pool_push_thread(P, popped));
    CHECK_ABT(ABT_thread_free(&c));

    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_pool_free(&P));
    CHECK_ABT(ABT_pool_free(&Q));
    CHECK_ABT(ABT_finalize());
    return 0;
}
