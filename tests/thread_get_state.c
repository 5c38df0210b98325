/* thread_get_state: state transitions of a ULT observed from outside and inside:
 * READY after creation, RUNNING while it runs (seen by itself and by the main ULT
 * while it spins on a second xstream), READY again while it is yielded and waiting
 * in the pool, BLOCKED while it waits in ABT_thread_join, TERMINATED after it
 * returns (before it is freed); revive puts it back to READY.  The primary ULT is
 * RUNNING when it asks about itself. */
#include "test.h"
#include <stdatomic.h>

static ABT_thread target, helper;
static atomic_int step, release;
static int self_state = -1;

static void func_helper(void *arg)
{
    (void)arg;
    while (!atomic_load(&release))
        CHECK_ABT(ABT_thread_yield());
}

static void func_target(void *arg)
{
    (void)arg;
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(target, &st));
    self_state = (int)st;
    atomic_store(&step, 1);
    while (atomic_load(&step) != 2)
        ;                          /* spin: RUNNING */
    CHECK_ABT(ABT_thread_yield()); /* READY while yielded */
    while (atomic_load(&step) != 3)
        CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_thread_join(helper)); /* BLOCKED */
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs2;
    ABT_pool pool2;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    ABT_thread self;
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_get_state(self, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_RUNNING);

    /* The helper keeps xstream 2 busy-yielding so that the target stays visible. */
    CHECK_ABT(ABT_thread_create(pool2, func_helper, NULL, ABT_THREAD_ATTR_NULL, &helper));
    CHECK_ABT(ABT_thread_create(pool2, func_target, NULL, ABT_THREAD_ATTR_NULL, &target));
    while (!atomic_load(&step))
        ;
    CHECK_EQ_INT(self_state, ABT_THREAD_STATE_RUNNING);
    CHECK_ABT(ABT_thread_get_state(target, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_RUNNING);
    atomic_store(&step, 2);
    /* After its yield the target alternates between READY (in the pool) and RUNNING;
     * it must be seen READY at some point. */
    int seen_ready = 0;
    double t0 = ABT_get_wtime();
    while (!seen_ready) {
        CHECK_ABT(ABT_thread_get_state(target, &st));
        CHECK(st == ABT_THREAD_STATE_READY || st == ABT_THREAD_STATE_RUNNING);
        if (st == ABT_THREAD_STATE_READY)
            seen_ready = 1;
        else if (ABT_get_wtime() - t0 > TEST_PATIENCE_S)
            TEST_FAIL("the yielding target was never seen READY in %.0f s", TEST_PATIENCE_S);
    }
    atomic_store(&step, 3);
    /* Now it joins the helper, which keeps yielding: BLOCKED. */
    do {
        CHECK_ABT(ABT_thread_get_state(target, &st));
        CHECK(st != ABT_THREAD_STATE_TERMINATED);
    } while (st != ABT_THREAD_STATE_BLOCKED);
    atomic_store(&release, 1);
    do {
        CHECK_ABT(ABT_thread_get_state(target, &st));
    } while (st != ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_join(target));
    CHECK_ABT(ABT_thread_get_state(target, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_free(&helper));

    /* Revive: READY again until it runs.  Use the primary pool: it cannot run
     * before the main ULT yields. */
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_revive(pool, func_helper, NULL, &target));
    CHECK_ABT(ABT_thread_get_state(target, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_READY);
    CHECK_ABT(ABT_thread_free(&target));

    /* A fresh ULT in the primary pool stays READY while the main ULT runs. */
    CHECK_ABT(ABT_thread_create(pool, func_helper, NULL, ABT_THREAD_ATTR_NULL, &target));
    CHECK_ABT(ABT_thread_get_state(target, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_READY);
    CHECK_ABT(ABT_thread_free(&target));

    CHECK_ERR(ABT_thread_get_state(ABT_THREAD_NULL, &st), ABT_ERR_INV_THREAD);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
