/* mutex_recursive_ext_thread: ULTs on three streams and two external pthreads share one
 * recursive mutex, mixing ABT_mutex_lock / lock_low, ABT_mutex_trylock (spinning, with and
 * without ever yielding), nested trylock/lock by the holder, and ABT_mutex_unlock /
 * unlock_se / unlock_de.  Checks mutual exclusion
 * (one holder at a time, a plain counter adds up), that a nested acquisition by the holder
 * always succeeds at once, and that everyone keeps making progress: a waiter that sleeps
 * in the lock slow path while the others take the mutex with trylock must still get it
 * (a progress watchdog fails the test on a hang).  In particular no unlock may hand the
 * mutex to a parked ULT whose stream is held by a ULT spinning in trylock: that owner
 * would never run (Argobots' unlock_se / unlock_de release the mutex like unlock). */
#include "stress_test.h"

#define ULTS_PER_STREAM 4
#define EXT_THREADS     2

static ABT_mutex mtx;
static atomic_int holders;
static long counter; /* guarded by mtx */
static atomic_long expected;
static double deadline;
static int max_iter;

static void crit(int depth)
{
    if (atomic_fetch_add(&holders, 1) != 0)
        TEST_FAIL("two holders of the recursive mutex at once");
    counter++;
    atomic_fetch_add(&expected, 1);
    /* the holder may lock again any number of times, with either call */
    for (int d = 0; d < depth; d++)
        CHECK_ABT(d & 1 ? ABT_mutex_trylock(mtx) : ABT_mutex_lock(mtx));
    for (int d = 0; d < depth; d++)
        CHECK_ABT(ABT_mutex_unlock(mtx));
    atomic_fetch_sub(&holders, 1);
}

/* One operation; `ult` says whether the caller may ABT_thread_yield. */
static void one_op(uint32_t *rng, bool ult)
{
    uint32_t r = stress_rand(rng);
    int depth = (int)(r >> 8) % 3;
    switch (r % 4) {
    case 0: /* blocking lock */ CHECK_ABT(ABT_mutex_lock(mtx)); break;
    case 1: /* trylock until it works, yielding the stream (or the core) in between */
        while (ABT_mutex_trylock(mtx) != ABT_SUCCESS) {
            if (ult)
                ABT_thread_yield();
            else
                sched_yield();
        }
        break;
    case 2: { /* trylock busy loop that never yields: it holds its stream until it wins */
        int ret;
        while ((ret = ABT_mutex_trylock(mtx)) != ABT_SUCCESS)
            CHECK_EQ_INT(ret, ABT_ERR_MUTEX_LOCKED);
        break;
    }
    default: /* lock_low: the other waitlist */ CHECK_ABT(ABT_mutex_lock_low(mtx)); break;
    }
    crit(depth);
    /* any unlock call releases the mutex; the _se / _de ones only hint at who goes next */
    switch ((r >> 16) % 3) {
    case 0: CHECK_ABT(ABT_mutex_unlock(mtx)); break;
    case 1: CHECK_ABT(ABT_mutex_unlock_se(mtx)); break;
    default: CHECK_ABT(ABT_mutex_unlock_de(mtx)); break;
    }
    stress_progress();
}

static void ult_worker(void *arg)
{
    uint32_t rng = (uint32_t)(uintptr_t)arg * 2654435761u + 1;
    for (int i = 0; stress_go_on(i, 64, max_iter, deadline); i++) {
        one_op(&rng, true);
        if (i % 8 == 7)
            ABT_thread_yield();
    }
}

static void *ext_worker(void *arg)
{
    uint32_t rng = (uint32_t)(uintptr_t)arg * 40503u + 7;
    for (int i = 0; stress_go_on(i, 64, max_iter, deadline); i++)
        one_op(&rng, false);
    return NULL;
}

int main(int argc, char **argv)
{
    stress_watchdog wd;
    stress_watchdog_start(&wd, "mutex_recursive_ext_thread");
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 2, ABT_SCHED_BASIC);

    ABT_mutex_attr a;
    CHECK_ABT(ABT_mutex_attr_create(&a));
    CHECK_ABT(ABT_mutex_attr_set_recursive(a, ABT_TRUE));
    CHECK_ABT(ABT_mutex_create_with_attr(a, &mtx));
    CHECK_ABT(ABT_mutex_attr_free(&a));

    max_iter = 40000 / stress_scale_div();
    deadline = sync_now() + stress_budget(1.5);
    stress_set_phase("ULTs and external threads on one recursive mutex");

    enum { NULT = 3 * ULTS_PER_STREAM };
    ABT_thread ts[NULT];
    pthread_t ext[EXT_THREADS];
    for (int i = 0; i < EXT_THREADS; i++)
        CHECK(pthread_create(&ext[i], NULL, ext_worker, (void *)(uintptr_t)(i + 1)) == 0);
    for (int i = 0; i < NULT; i++)
        CHECK_ABT(ABT_thread_create(w.pools[i % w.n], ult_worker, (void *)(uintptr_t)(i + 100),
                                    ABT_THREAD_ATTR_NULL, &ts[i]));
    sync_join_all(NULT, ts);
    for (int i = 0; i < EXT_THREADS; i++)
        pthread_join(ext[i], NULL);

    CHECK_ABT(ABT_mutex_lock(mtx));
    CHECK_EQ_INT(counter, atomic_load(&expected));
    CHECK_ABT(ABT_mutex_unlock(mtx));
    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    stress_watchdog_stop(&wd);
    return 0;
}
