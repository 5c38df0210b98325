/* cond_broadcast: a broadcast wakes every waiter (ULTs on two streams and external
 * threads), a signal wakes exactly one, and both are no-ops without waiters.  Waiters
 * return with the mutex held and there are no spurious wake-ups. */
#include "sync_test.h"

#define NULT 8
#define NEXT 2

static ABT_mutex mtx;
static ABT_cond cond;
static int waiting, woken, generation;

static void wait_once(void)
{
    CHECK_ABT(ABT_mutex_lock(mtx));
    int g = generation;
    waiting++;
    CHECK_ABT(ABT_cond_wait(cond, mtx));
    CHECK(generation != g); /* no spurious wake-up */
    woken++;
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED); /* we hold it */
    CHECK_ABT(ABT_mutex_unlock(mtx));
}

static void ult(void *arg)
{
    (void)arg;
    wait_once();
}

static void *ext(void *arg)
{
    (void)arg;
    wait_once();
    return NULL;
}

static void until_waiting(int n)
{
    for (;;) {
        CHECK_ABT(ABT_mutex_lock(mtx));
        int w = waiting;
        CHECK_ABT(ABT_mutex_unlock(mtx));
        if (w >= n)
            return;
        ABT_thread_yield();
    }
}

static int read_woken(void)
{
    CHECK_ABT(ABT_mutex_lock(mtx));
    int n = woken;
    CHECK_ABT(ABT_mutex_unlock(mtx));
    return n;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_mutex_create(&mtx));
    CHECK_ABT(ABT_cond_create(&cond));
    CHECK_ABT(ABT_cond_signal(cond)); /* nobody waits: no effect */
    CHECK_ABT(ABT_cond_broadcast(cond));

    /* one signal, one waiter */
    ABT_thread t1[2];
    sync_spawn(&w, 2, ult, NULL, 0, t1);
    until_waiting(2);
    CHECK_ABT(ABT_mutex_lock(mtx));
    generation++;
    CHECK_ABT(ABT_cond_signal(cond));
    CHECK_ABT(ABT_mutex_unlock(mtx));
    /* one waiter wakes (whenever its stream gets to it), then a while with no other */
    SYNC_WAIT_UNTIL(read_woken() >= 1, "the signalled waiter");
    sync_yield_for(0.05);
    CHECK_ABT(ABT_mutex_lock(mtx));
    CHECK_EQ_INT(woken, 1);
    CHECK_ABT(ABT_cond_signal(cond));
    CHECK_ABT(ABT_mutex_unlock(mtx));
    sync_join_all(2, t1);
    CHECK_EQ_INT(woken, 2);

    /* broadcast */
    waiting = woken = 0;
    ABT_thread ts[NULT];
    pthread_t th[NEXT];
    sync_spawn(&w, NULT, ult, NULL, 0, ts);
    for (int i = 0; i < NEXT; i++)
        CHECK(pthread_create(&th[i], NULL, ext, NULL) == 0);
    until_waiting(NULT + NEXT);
    CHECK_ABT(ABT_mutex_lock(mtx));
    generation++;
    CHECK_ABT(ABT_cond_broadcast(cond));
    CHECK_ABT(ABT_mutex_unlock(mtx));
    sync_join_all(NULT, ts);
    for (int i = 0; i < NEXT; i++)
        pthread_join(th[i], NULL);
    CHECK_EQ_INT(woken, NULT + NEXT);

    CHECK_ABT(ABT_cond_free(&cond));
    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
