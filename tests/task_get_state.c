/* task_get_state: a tasklet is ABT_TASK_STATE_READY before it runs, RUNNING while it
 * runs (asked by itself, and from the main ULT while it spins on a second xstream),
 * TERMINATED after it finished (before free); ABT_thread_get_state on a tasklet
 * reports the thread equivalents (READY / RUNNING / TERMINATED).  NULL handle:
 * ABT_ERR_INV_TASK. */
#include "test.h"
#include <stdatomic.h>

static ABT_task target;
static atomic_int started, go;
static int self_task_state = -1, self_thread_state = -1;

static void func(void *arg)
{
    (void)arg;
    ABT_task_state ts;
    ABT_thread_state th;
    CHECK_ABT(ABT_task_get_state(target, &ts));
    CHECK_ABT(ABT_thread_get_state(target, &th));
    self_task_state = (int)ts;
    self_thread_state = (int)th;
    atomic_store(&started, 1);
    while (!atomic_load(&go))
        ;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pool, pool2;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_task_state ts;
    ABT_thread_state th;

    /* In the primary pool it cannot run before we yield. */
    ABT_task k;
    atomic_store(&go, 1);
    CHECK_ABT(ABT_task_create(pool, func, NULL, &k));
    target = k;
    CHECK_ABT(ABT_task_get_state(k, &ts));
    CHECK_EQ_INT(ts, ABT_TASK_STATE_READY);
    CHECK_ABT(ABT_thread_get_state(k, &th));
    CHECK_EQ_INT(th, ABT_THREAD_STATE_READY);
    CHECK_ABT(ABT_task_join(k));
    CHECK_ABT(ABT_task_get_state(k, &ts));
    CHECK_EQ_INT(ts, ABT_TASK_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_get_state(k, &th));
    CHECK_EQ_INT(th, ABT_THREAD_STATE_TERMINATED);
    CHECK_EQ_INT(self_task_state, ABT_TASK_STATE_RUNNING);
    CHECK_EQ_INT(self_thread_state, ABT_THREAD_STATE_RUNNING);
    CHECK_ABT(ABT_task_free(&k));

    /* Observed RUNNING from outside. */
    atomic_store(&go, 0);
    atomic_store(&started, 0);
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));
    CHECK_ABT(ABT_task_create(pool2, func, NULL, &target));
    while (!atomic_load(&started))
        ;
    CHECK_ABT(ABT_task_get_state(target, &ts));
    CHECK_EQ_INT(ts, ABT_TASK_STATE_RUNNING);
    atomic_store(&go, 1);
    CHECK_ABT(ABT_task_join(target));
    CHECK_ABT(ABT_task_get_state(target, &ts));
    CHECK_EQ_INT(ts, ABT_TASK_STATE_TERMINATED);
    CHECK_ABT(ABT_task_free(&target));

    CHECK_ERR(ABT_task_get_state(ABT_TASK_NULL, &ts), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_state(ABT_THREAD_NULL, &ts), ABT_ERR_INV_TASK);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
