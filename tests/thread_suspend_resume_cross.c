/* thread_suspend_resume_cross: a ULT that suspends itself (ABT_self_suspend) is BLOCKED
 * until somebody calls ABT_thread_resume on it, and then runs on in its own pool.
 *  1. a ULT on the secondary stream suspends; a ULT on the primary stream resumes it;
 *  2. the same, resumed by an external pthread (no stream);
 *  3. the primary ULT suspends itself and a ULT of the secondary stream resumes it;
 *  4. 1,000 suspend/resume rounds between the two streams (scaled down in slow builds):
 *     the resumer waits for each suspension and then for the matching wake-up, so a lost
 *     wake-up is reported (after 60 s) instead of being hidden by the next resume.
 * While suspended the state is BLOCKED and stays so (no spurious wake-up); before and
 * after, RUNNING for the ULT itself and TERMINATED after the join.  ABT_thread_resume on
 * a ULT that is not suspended (ready and never run, running, terminated) returns
 * ABT_ERR_THREAD; on a tasklet or ABT_THREAD_NULL, ABT_ERR_INV_THREAD. */
#include "test.h"
#include <stdatomic.h>
#include <sched.h>
#include <pthread.h>

/* A wait longer than this is a lost wake-up (or a hang). */
#define WAIT_LIMIT 60.0

static ABT_xstream xs1, xs2;
static ABT_pool pool1, pool2;
static ABT_thread target, primary;
static atomic_int suspended_cnt, woken_cnt;

static void wait_state(ABT_thread t, ABT_thread_state want, int yield)
{
    double t0 = ABT_get_wtime();
    for (;;) {
        ABT_thread_state st;
        CHECK_ABT(ABT_thread_get_state(t, &st));
        if (st == want)
            return;
        if (ABT_get_wtime() - t0 > WAIT_LIMIT)
            TEST_FAIL("state %d, waited %g s for %d", (int)st, WAIT_LIMIT, (int)want);
        if (yield)
            CHECK_ABT(ABT_thread_yield());
        sched_yield(); /* spin politely (valgrind/TSan) */
    }
}

static void wait_count(atomic_int *c, int want, int yield, const char *what)
{
    double t0 = ABT_get_wtime();
    while (atomic_load(c) < want) {
        if (ABT_get_wtime() - t0 > WAIT_LIMIT)
            TEST_FAIL("%s: count %d, waited %g s for %d", what, atomic_load(c), WAIT_LIMIT, want);
        if (yield)
            CHECK_ABT(ABT_thread_yield());
        sched_yield(); /* spin politely (valgrind/TSan) */
    }
}

/* ---- rounds 1 and 2: one suspension, checked in detail ---- */
static void sleeper(void *arg)
{
    (void)arg;
    ABT_xstream me;
    ABT_thread self;
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_get_state(self, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_RUNNING);
    /* Not suspended: running. */
    CHECK_ERR(ABT_thread_resume(self), ABT_ERR_THREAD);
    atomic_fetch_add(&suspended_cnt, 1);
    CHECK_ABT(ABT_self_suspend());
    atomic_fetch_add(&woken_cnt, 1);
    CHECK_ABT(ABT_thread_get_state(self, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_RUNNING);
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK_EQ_PTR(me, xs2); /* back in its own pool, on its own stream */
    ABT_pool last;
    CHECK_ABT(ABT_self_get_last_pool(&last));
    CHECK_EQ_PTR(last, pool2);
}

/* Round 1's resumer, a ULT of the primary stream. */
static void resumer(void *arg)
{
    (void)arg;
    wait_count(&suspended_cnt, 1, 1, "round 1 suspension");
    wait_state(target, ABT_THREAD_STATE_BLOCKED, 1);
    for (int i = 0; i < 20; i++) {
        ABT_thread_state st;
        CHECK_ABT(ABT_thread_yield());
        CHECK_ABT(ABT_thread_get_state(target, &st));
        CHECK_EQ_INT(st, ABT_THREAD_STATE_BLOCKED);
        CHECK_EQ_INT(atomic_load(&woken_cnt), 0);
    }
    CHECK_ABT(ABT_thread_resume(target));
    wait_count(&woken_cnt, 1, 1, "round 1 wake-up");
}

static void *ext_resumer(void *arg)
{
    (void)arg;
    wait_count(&suspended_cnt, 1, 0, "round 2 suspension");
    wait_state(target, ABT_THREAD_STATE_BLOCKED, 0);
    for (int i = 0; i < 1000; i++) {
        ABT_thread_state st;
        CHECK_ABT(ABT_thread_get_state(target, &st));
        CHECK_EQ_INT(st, ABT_THREAD_STATE_BLOCKED);
    }
    CHECK_EQ_INT(atomic_load(&woken_cnt), 0);
    CHECK_ABT(ABT_thread_resume(target));
    wait_count(&woken_cnt, 1, 0, "round 2 wake-up");
    return NULL;
}

/* ---- round 3: the primary ULT is suspended, a ULT of the other stream resumes it ---- */
static atomic_int primary_suspending;
static void primary_resumer(void *arg)
{
    (void)arg;
    wait_count(&primary_suspending, 1, 1, "round 3 suspension");
    wait_state(primary, ABT_THREAD_STATE_BLOCKED, 1);
    CHECK_ABT(ABT_thread_resume(primary));
}

/* ---- round 4: many rounds ---- */
static int rounds;
static void looper(void *arg)
{
    (void)arg;
    for (int i = 0; i < rounds; i++) {
        atomic_store(&suspended_cnt, i + 1);
        CHECK_ABT(ABT_self_suspend());
        atomic_store(&woken_cnt, i + 1);
    }
}

static void loop_resumer(void *arg)
{
    (void)arg;
    for (int i = 0; i < rounds; i++) {
        wait_count(&suspended_cnt, i + 1, 0, "suspension");
        wait_state(target, ABT_THREAD_STATE_BLOCKED, 0);
        CHECK_ABT(ABT_thread_resume(target));
        wait_count(&woken_cnt, i + 1, 0, "wake-up (lost?)");
    }
}

static void nop(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_xstream_self(&xs1));
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &pool1));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));
    CHECK_ABT(ABT_thread_self(&primary));
    ABT_thread_state st;

    /* Not suspended: ready and never run (its pool is not scheduled), then terminated. */
    ABT_pool idle;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));
    ABT_thread ready;
    CHECK_ABT(ABT_thread_create(idle, nop, NULL, ABT_THREAD_ATTR_NULL, &ready));
    CHECK_ABT(ABT_thread_get_state(ready, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_READY);
    CHECK_ERR(ABT_thread_resume(ready), ABT_ERR_THREAD);
    ABT_task task;
    CHECK_ABT(ABT_task_create(idle, nop, NULL, &task));
    CHECK_ERR(ABT_thread_resume(task), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_resume(ABT_THREAD_NULL), ABT_ERR_INV_THREAD);

    /* Round 1: resumed by a ULT of the primary stream. */
    atomic_store(&suspended_cnt, 0);
    atomic_store(&woken_cnt, 0);
    CHECK_ABT(ABT_thread_create(pool2, sleeper, NULL, ABT_THREAD_ATTR_NULL, &target));
    ABT_thread r;
    CHECK_ABT(ABT_thread_create(pool1, resumer, NULL, ABT_THREAD_ATTR_NULL, &r));
    CHECK_ABT(ABT_thread_free(&r));
    CHECK_ABT(ABT_thread_join(target));
    CHECK_ABT(ABT_thread_get_state(target, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_ERR(ABT_thread_resume(target), ABT_ERR_THREAD);
    CHECK_ABT(ABT_thread_free(&target));

    /* Round 2: resumed by an external thread. */
    atomic_store(&suspended_cnt, 0);
    atomic_store(&woken_cnt, 0);
    CHECK_ABT(ABT_thread_create(pool2, sleeper, NULL, ABT_THREAD_ATTR_NULL, &target));
    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext_resumer, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_ABT(ABT_thread_free(&target));
    CHECK_EQ_INT(atomic_load(&woken_cnt), 1);

    /* Round 3: the primary ULT suspends itself. */
    CHECK_ABT(ABT_thread_create(pool2, primary_resumer, NULL, ABT_THREAD_ATTR_NULL, &r));
    atomic_store(&primary_suspending, 1);
    CHECK_ABT(ABT_self_suspend());
    ABT_xstream me;
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK_EQ_PTR(me, xs1);
    CHECK_ABT(ABT_thread_free(&r));

    /* Round 4: many rounds, the sleeper on the secondary stream, the resumer a ULT of
     * the primary stream. */
    rounds = 1000 / test_scale_div();
    atomic_store(&suspended_cnt, 0);
    atomic_store(&woken_cnt, 0);
    CHECK_ABT(ABT_thread_create(pool2, looper, NULL, ABT_THREAD_ATTR_NULL, &target));
    CHECK_ABT(ABT_thread_create(pool1, loop_resumer, NULL, ABT_THREAD_ATTR_NULL, &r));
    CHECK_ABT(ABT_thread_free(&r));
    CHECK_ABT(ABT_thread_free(&target));
    CHECK_EQ_INT(atomic_load(&woken_cnt), rounds);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    /* Run what was left in the idle pool, then free it. */
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &idle, ABT_SCHED_CONFIG_NULL, &xs2));
    CHECK_ABT(ABT_thread_free(&ready));
    CHECK_ABT(ABT_task_free(&task));
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_pool_free(&idle));
    CHECK_ABT(ABT_finalize());
    return 0;
}
