/* cond_timedwait_timeout: with nobody signalling, ABT_cond_timedwait returns
 * ABT_ERR_COND_TIMEDOUT no earlier than the deadline, with the mutex held again - for a
 * ULT on the primary stream, a ULT on a BASIC_WAIT stream, a tasklet and an external
 * thread; a deadline already in the past returns too.  Nothing else happens meanwhile, so
 * a deadline the runtime lost would never end the wait: after the deadline the test gives
 * it TEST_PATIENCE_S, which only a lost deadline exceeds (a loaded machine runs the waiter
 * late, not that late). */
#include "sync_test.h"

static ABT_mutex mtx;
static ABT_cond cond;
static atomic_int fails;

static void timed(double sec)
{
    CHECK_ABT(ABT_mutex_lock(mtx));
    struct timespec ts = sync_abstime(sec);
    double t0 = sync_now();
    int r = ABT_cond_timedwait(cond, mtx, &ts);
    double dt = sync_now() - t0;
    if (r != ABT_ERR_COND_TIMEDOUT) {
        fprintf(stderr, "timedwait returned %d\n", r);
        atomic_fetch_add(&fails, 1);
    }
    if (ABT_mutex_trylock(mtx) != ABT_ERR_MUTEX_LOCKED) {
        fprintf(stderr, "mutex not held after timedwait\n");
        atomic_fetch_add(&fails, 1);
    }
    double expect = sec > 0 ? sec : 0;
    if (dt < expect - 0.002 || dt > expect + TEST_PATIENCE_S) {
        fprintf(stderr, "timed out after %.4f s, expected %.4f s\n", dt, sec);
        atomic_fetch_add(&fails, 1);
    }
    CHECK_ABT(ABT_mutex_unlock(mtx));
}

static void body(void *arg)
{
    (void)arg;
    timed(0.05);
}

static void *ext(void *arg)
{
    (void)arg;
    timed(0.05);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC_WAIT);
    CHECK_ABT(ABT_mutex_create(&mtx));
    CHECK_ABT(ABT_cond_create(&cond));

    timed(0.05); /* the primary ULT */
    timed(0.0);  /* deadline now */
    timed(-1.0); /* deadline in the past */

    ABT_thread t[2];
    ABT_task k;
    pthread_t th;
    CHECK_ABT(ABT_thread_create(w.pools[1], body, NULL, ABT_THREAD_ATTR_NULL, &t[0]));
    CHECK_ABT(ABT_thread_create(w.pools[0], body, NULL, ABT_THREAD_ATTR_NULL, &t[1]));
    CHECK_ABT(ABT_task_create(w.pools[1], body, NULL, &k));
    CHECK(pthread_create(&th, NULL, ext, NULL) == 0);
    sync_join_all(2, t);
    CHECK_ABT(ABT_task_free(&k));
    pthread_join(th, NULL);
    CHECK_EQ_INT(atomic_load(&fails), 0);

    CHECK_ABT(ABT_cond_free(&cond));
    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
