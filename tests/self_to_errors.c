/* self_to_errors: error codes of ABT_self_yield_to, _resume_yield_to, _suspend_to,
 * _resume_suspend_to, _exit_to, _resume_exit_to, ABT_self_suspend and ABT_self_schedule
 * (values of Argobots 1.2):
 *   - from a ULT: target ABT_THREAD_NULL or a tasklet -> ABT_ERR_INV_THREAD (all six _to
 *     routines); the caller itself as target -> ABT_ERR_INV_THREAD (yield_to, suspend_to,
 *     exit_to); ABT_self_schedule(ABT_THREAD_NULL) -> ABT_ERR_INV_THREAD;
 *   - the primary ULT calling resume_exit_to -> ABT_ERR_INV_THREAD (exit_to: see
 *     self_exit_to_primary.c); a ULT calling exit_to with the primary ULT as target ->
 *     ABT_ERR_INV_THREAD;
 *   - from a tasklet (valid ULT target) -> ABT_ERR_INV_THREAD for all eight;
 *   - from an external thread (valid ULT target) -> ABT_ERR_INV_XSTREAM for all eight.
 * A failing call has no effect: the target ULT (waiting in a pool no scheduler serves)
 * is still there, still READY and associated with the same pool, even when
 * ABT_self_schedule was given another pool; it runs normally afterwards. */
#include "test.h"
#include <stdatomic.h>
#include <pthread.h>

static ABT_pool Q, other;
static ABT_thread ult_t, primary;
static ABT_task task_t;
static atomic_int ran, from_ult_done;

enum { N_CALLS = 8 };
static const char *names[N_CALLS] = {
    "ABT_self_yield_to",          "ABT_self_resume_yield_to", "ABT_self_suspend_to",
    "ABT_self_resume_suspend_to", "ABT_self_exit_to",         "ABT_self_resume_exit_to",
    "ABT_self_suspend",           "ABT_self_schedule",
};

static int call(int i, ABT_thread t)
{
    switch (i) {
    case 0: return ABT_self_yield_to(t);
    case 1: return ABT_self_resume_yield_to(t);
    case 2: return ABT_self_suspend_to(t);
    case 3: return ABT_self_resume_suspend_to(t);
    case 4: return ABT_self_exit_to(t);
    case 5: return ABT_self_resume_exit_to(t);
    case 6: return ABT_self_suspend();
    default: return ABT_self_schedule(t, other);
    }
}

static void expect_all(const int *rcs, int want, const char *from)
{
    for (int i = 0; i < N_CALLS; i++)
        if (rcs[i] != want)
            TEST_FAIL("%s from %s returned %d (%s), expected %d", names[i], from, rcs[i],
                      test_errname(rcs[i]), want);
}

static void target_f(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

static void check_target_untouched(void)
{
    size_t size = 0;
    CHECK_ABT(ABT_pool_get_size(Q, &size));
    CHECK_EQ_INT(size, 2); /* the ULT and the tasklet */
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(ult_t, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_READY);
    ABT_pool last;
    CHECK_ABT(ABT_thread_get_last_pool(ult_t, &last));
    CHECK_EQ_PTR(last, Q);
    CHECK_EQ_INT(atomic_load(&ran), 0);
}

/* ---- from a ULT ---- */
static void from_ult(void *arg)
{
    (void)arg;
    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    for (int i = 0; i < 6; i++) {
        int rc = call(i, ABT_THREAD_NULL);
        if (rc != ABT_ERR_INV_THREAD)
            TEST_FAIL("%s(ABT_THREAD_NULL) returned %d (%s)", names[i], rc, test_errname(rc));
        rc = call(i, task_t);
        if (rc != ABT_ERR_INV_THREAD)
            TEST_FAIL("%s(tasklet) returned %d (%s)", names[i], rc, test_errname(rc));
    }
    CHECK_ERR(ABT_self_yield_to(self), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_self_suspend_to(self), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_self_exit_to(self), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_self_schedule(ABT_THREAD_NULL, ABT_POOL_NULL), ABT_ERR_INV_THREAD);
    /* The primary ULT (ready in its pool: it yields until this ULT is done) as exit_to
     * target. */
    CHECK_ERR(ABT_self_exit_to(primary), ABT_ERR_INV_THREAD);
    atomic_store(&from_ult_done, 1);
}

/* ---- from a tasklet ---- */
static int task_rcs[N_CALLS];
static void from_task(void *arg)
{
    (void)arg;
    for (int i = 0; i < N_CALLS; i++)
        task_rcs[i] = call(i, ult_t);
}

/* ---- from an external thread ---- */
static int ext_rcs[N_CALLS];
static void *from_ext(void *arg)
{
    (void)arg;
    for (int i = 0; i < N_CALLS; i++)
        ext_rcs[i] = call(i, ult_t);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool mp;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &mp));
    CHECK_ABT(ABT_thread_self(&primary));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &Q));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &other));
    /* Targets that nobody runs until the end. */
    CHECK_ABT(ABT_thread_create(Q, target_f, NULL, ABT_THREAD_ATTR_NULL, &ult_t));
    CHECK_ABT(ABT_task_create(Q, target_f, NULL, &task_t));

    ABT_thread u;
    CHECK_ABT(ABT_thread_create(mp, from_ult, NULL, ABT_THREAD_ATTR_NULL, &u));
    ABT_thread_state ust = ABT_THREAD_STATE_READY;
    for (int i = 0; i < 100000 && ust != ABT_THREAD_STATE_TERMINATED; i++) {
        CHECK_ABT(ABT_thread_yield());
        CHECK_ABT(ABT_thread_get_state(u, &ust));
    }
    CHECK_ABT(ABT_thread_free(&u));
    CHECK_EQ_INT(atomic_load(&from_ult_done), 1);
    check_target_untouched();

    /* The primary ULT may not exit. */
    CHECK_ERR(ABT_self_resume_exit_to(ult_t), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_self_exit_to(ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    check_target_untouched();

    ABT_task t;
    CHECK_ABT(ABT_task_create(mp, from_task, NULL, &t));
    CHECK_ABT(ABT_task_free(&t));
    expect_all(task_rcs, ABT_ERR_INV_THREAD, "a tasklet");
    check_target_untouched();

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, from_ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    expect_all(ext_rcs, ABT_ERR_INV_XSTREAM, "an external thread");
    check_target_untouched();

    /* The targets still run normally. */
    ABT_xstream xs2;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &Q, ABT_SCHED_CONFIG_NULL, &xs2));
    CHECK_ABT(ABT_thread_free(&ult_t));
    CHECK_ABT(ABT_task_free(&task_t));
    CHECK_EQ_INT(atomic_load(&ran), 2);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_pool_free(&Q));
    CHECK_ABT(ABT_pool_free(&other));
    CHECK_ABT(ABT_finalize());
    return 0;
}
