/* cond_timedwait_race: a signal that races with a timed waiter's deadline is never lost.
 * A waits with a deadline, then B without; we signal once, at times scattered around A's
 * deadline.  Then exactly one of them must have been woken by that signal: if A reports
 * ABT_SUCCESS, B is still asleep; if A timed out, B wakes without another signal.  A is
 * a ULT or an external thread (timer or futex time-out), B a ULT or an external thread. */
#include "sync_test.h"

#define ROUNDS   40
#define DEADLINE 0.006

static ABT_mutex mtx;
static ABT_cond cond;
static int a_waiting, b_waiting, b_done;
static int a_result;
static double a_t0;

static void a_body(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_mutex_lock(mtx));
    struct timespec ts = sync_abstime(DEADLINE);
    a_t0 = sync_now();
    a_waiting = 1;
    a_result = ABT_cond_timedwait(cond, mtx, &ts);
    CHECK_ABT(ABT_mutex_unlock(mtx));
}

static void b_body(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_mutex_lock(mtx));
    b_waiting = 1;
    CHECK_ABT(ABT_cond_wait(cond, mtx));
    b_done = 1;
    CHECK_ABT(ABT_mutex_unlock(mtx));
}

static void *a_ext(void *arg)
{
    a_body(arg);
    return NULL;
}

static void *b_ext(void *arg)
{
    b_body(arg);
    return NULL;
}

static int read_locked(int *p)
{
    CHECK_ABT(ABT_mutex_lock(mtx));
    int v = *p;
    CHECK_ABT(ABT_mutex_unlock(mtx));
    return v;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_mutex_create(&mtx));
    CHECK_ABT(ABT_cond_create(&cond));
    int a_won = 0, b_won = 0;

    for (int round = 0; round < ROUNDS; round++) {
        a_waiting = b_waiting = b_done = 0;
        a_result = -1;
        bool a_is_ult = round % 2 == 0, b_is_ult = (round / 2) % 2 == 0;
        ABT_thread at = ABT_THREAD_NULL, bt = ABT_THREAD_NULL;
        pthread_t ap, bp;
        /* A first: it is ahead of B in the queue, so a signal before its deadline is
         * A's, and one after it must skip A (claimed by its timer) and wake B */
        if (a_is_ult)
            CHECK_ABT(ABT_thread_create(w.pools[1], a_body, NULL, ABT_THREAD_ATTR_NULL, &at));
        else
            CHECK(pthread_create(&ap, NULL, a_ext, NULL) == 0);
        while (!read_locked(&a_waiting))
            ABT_thread_yield();
        if (b_is_ult)
            CHECK_ABT(ABT_thread_create(w.pools[1], b_body, NULL, ABT_THREAD_ATTR_NULL, &bt));
        else
            CHECK(pthread_create(&bp, NULL, b_ext, NULL) == 0);
        while (!read_locked(&b_waiting))
            ABT_thread_yield();
        CHECK_ABT(ABT_mutex_lock(mtx));
        double t0 = a_t0;
        CHECK_ABT(ABT_mutex_unlock(mtx));
        /* signal somewhere in [0.5, 1.5] x the deadline */
        double at_time = DEADLINE * (0.5 + (double)(round % 11) / 10.0);
        while (sync_now() - t0 < at_time)
            ;
        CHECK_ABT(ABT_mutex_lock(mtx));
        CHECK_ABT(ABT_cond_signal(cond));
        CHECK_ABT(ABT_mutex_unlock(mtx));
        if (a_is_ult)
            CHECK_ABT(ABT_thread_free(&at));
        else
            pthread_join(ap, NULL);

        if (a_result == ABT_SUCCESS) {
            a_won++;
            sync_yield_for(0.002);
            CHECK_EQ_INT(read_locked(&b_done), 0); /* one signal, one wake-up */
            CHECK_ABT(ABT_mutex_lock(mtx));
            CHECK_ABT(ABT_cond_signal(cond));
            CHECK_ABT(ABT_mutex_unlock(mtx));
        } else {
            CHECK_EQ_INT(a_result, ABT_ERR_COND_TIMEDOUT);
            b_won++;
            double t1 = sync_now();
            while (!read_locked(&b_done)) {
                if (sync_now() - t1 > TEST_PATIENCE_S)
                    TEST_FAIL("round %d: the signal was lost (A timed out, B still asleep)", round);
                ABT_thread_yield();
            }
        }
        if (b_is_ult)
            CHECK_ABT(ABT_thread_free(&bt));
        else
            pthread_join(bp, NULL);
    }
    printf("signal went to the timed waiter %d times, to the other %d times\n", a_won, b_won);

    CHECK_ABT(ABT_cond_free(&cond));
    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
