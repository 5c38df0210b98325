/* eventual_timedwait: ABT_eventual_timedwait times out (ABT_ERR_COND_TIMEDOUT, not
 * before the deadline) when nobody sets the eventual, returns ABT_SUCCESS with the value
 * when it is set before the deadline, and returns at once for a ready eventual even with
 * a deadline in the past - for ULTs on a BASIC and a BASIC_WAIT stream and an external
 * thread; ABT_ERR_EVENTUAL from a tasklet. */
#include "sync_test.h"

static ABT_eventual ev;
static atomic_int fails, task_ret;

static void expect_timeout(double sec)
{
    struct timespec ts = sync_abstime(sec);
    double t0 = sync_now();
    void *v = NULL;
    int r = ABT_eventual_timedwait(ev, &v, &ts);
    double dt = sync_now() - t0;
    /* nobody sets it: only the deadline ends the wait (a lost one would not) */
    if (r != ABT_ERR_COND_TIMEDOUT || dt < sec - 0.002 || dt > sec + TEST_PATIENCE_S) {
        fprintf(stderr, "timedwait: %d after %.4f s (deadline %.3f)\n", r, dt, sec);
        atomic_fetch_add(&fails, 1);
    }
}

static void expect_value(double sec, long want)
{
    struct timespec ts = sync_abstime(sec);
    void *v = NULL;
    int r = ABT_eventual_timedwait(ev, &v, &ts);
    if (r != ABT_SUCCESS || !v || *(long *)v != want) {
        fprintf(stderr, "timedwait: %d, value %ld\n", r, v ? *(long *)v : -1L);
        atomic_fetch_add(&fails, 1);
    }
}

static void ult_timeout(void *arg)
{
    (void)arg;
    expect_timeout(0.03);
}

static void ult_value(void *arg)
{
    (void)arg;
    expect_value(TEST_PATIENCE_S, 5); /* set after 20 ms: however late, before that */
}

static void *ext_timeout(void *arg)
{
    (void)arg;
    expect_timeout(0.03);
    return NULL;
}

static void *ext_value(void *arg)
{
    (void)arg;
    expect_value(TEST_PATIENCE_S, 5);
    return NULL;
}

static void task(void *arg)
{
    (void)arg;
    struct timespec ts = sync_abstime(0.01);
    atomic_store(&task_ret, ABT_eventual_timedwait(ev, NULL, &ts));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 2, ABT_SCHED_BASIC_WAIT);
    CHECK_ABT(ABT_eventual_create((int)sizeof(long), &ev));

    /* time-outs */
    expect_timeout(0.03);
    ABT_thread t[3];
    pthread_t th;
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_thread_create(w.pools[i], ult_timeout, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    CHECK(pthread_create(&th, NULL, ext_timeout, NULL) == 0);
    sync_join_all(3, t);
    pthread_join(th, NULL);

    /* set before the deadline */
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_thread_create(w.pools[i], ult_value, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    CHECK(pthread_create(&th, NULL, ext_value, NULL) == 0);
    sync_yield_for(0.02);
    long five = 5;
    CHECK_ABT(ABT_eventual_set(ev, &five, (int)sizeof(five)));
    sync_join_all(3, t);
    pthread_join(th, NULL);

    /* ready: even an expired deadline returns the value */
    expect_value(-1.0, 5);

    ABT_task k;
    CHECK_ABT(ABT_eventual_reset(ev));
    CHECK_ABT(ABT_task_create(w.pools[1], task, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&task_ret), ABT_ERR_EVENTUAL);

    CHECK_EQ_INT(atomic_load(&fails), 0);
    CHECK_ABT(ABT_eventual_free(&ev));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
