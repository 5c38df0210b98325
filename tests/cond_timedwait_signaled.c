/* cond_timedwait_signaled: a timed waiter signalled before its deadline returns
 * ABT_SUCCESS at the signal, not at the deadline - a ULT on the primary stream, a ULT on
 * a secondary stream, a tasklet and an external thread.  The signal comes 50 ms after the
 * wait began, the deadline TEST_PATIENCE_S after it: however late a loaded machine runs
 * the signaller, the signal comes first, and only a lost one reaches the deadline. */
#include "sync_test.h"

static ABT_mutex mtx;
static ABT_cond cond;
static int started; /* waits begun; protected by mtx */

#define SIGNAL_AT  0.05
#define DEADLINE_S TEST_PATIENCE_S

static void timed(void)
{
    CHECK_ABT(ABT_mutex_lock(mtx));
    struct timespec ts = sync_abstime(DEADLINE_S);
    double t0 = sync_now();
    started++;
    int r = ABT_cond_timedwait(cond, mtx, &ts);
    double dt = sync_now() - t0;
    CHECK_ABT(ABT_mutex_unlock(mtx));
    if (r != ABT_SUCCESS || dt >= DEADLINE_S - 0.01)
        TEST_FAIL("timedwait returned %d after %.4f s, signalled after %.2f s", r, dt, SIGNAL_AT);
}

static void body(void *arg)
{
    (void)arg;
    timed();
}

static void *ext(void *arg)
{
    (void)arg;
    timed();
    return NULL;
}

/* the signaller: an external thread, so that it does not hold any stream */
static void *signaller(void *arg)
{
    int n = (int)(intptr_t)arg;
    for (int i = 0; i < n; i++) {
        for (;;) { /* waiter i is on the cond once it counted itself (under mtx) */
            CHECK_ABT(ABT_mutex_lock(mtx));
            int w = started;
            CHECK_ABT(ABT_mutex_unlock(mtx));
            if (w > i)
                break;
            sync_sleep(0.0005);
        }
        sync_sleep(SIGNAL_AT);
        CHECK_ABT(ABT_mutex_lock(mtx));
        CHECK_ABT(ABT_cond_signal(cond));
        CHECK_ABT(ABT_mutex_unlock(mtx));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC_WAIT);
    CHECK_ABT(ABT_mutex_create(&mtx));
    CHECK_ABT(ABT_cond_create(&cond));

    pthread_t sig;
    CHECK(pthread_create(&sig, NULL, signaller, (void *)(intptr_t)4) == 0);
    timed(); /* primary ULT */
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(w.pools[1], body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    ABT_task k;
    CHECK_ABT(ABT_task_create(w.pools[1], body, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    pthread_t th;
    CHECK(pthread_create(&th, NULL, ext, NULL) == 0);
    pthread_join(th, NULL);
    pthread_join(sig, NULL);

    CHECK_ABT(ABT_cond_free(&cond));
    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
