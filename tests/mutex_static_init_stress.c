/* mutex_static_init_stress: statically initialised mutexes (ABT_MUTEX_INITIALIZER and
 * ABT_RECURSIVE_MUTEX_INITIALIZER, as globals and in ABT_mutex_memory on main's stack)
 * under contention from pthreads before ABT_init, from ULTs on two streams plus pthreads
 * after it, and from pthreads again after ABT_finalize.  Every lock call (lock,
 * lock_high, lock_low, a trylock loop that never yields, spinlock; the recursive ones
 * nested) is paired with every unlock call (unlock, unlock_se, unlock_de), while a
 * periodic signal interrupts sleeping waiters (spurious futex wake-ups).  Checks mutual
 * exclusion (plain counters add up) and progress (watchdog): a mutex must never be left
 * owned by a waiter that cannot run. */
#include "stress_test.h"

#include <signal.h>
#include <sys/time.h>

#define NSETS 4
#define NEST  3

static ABT_mutex_memory g_plain = ABT_MUTEX_INITIALIZER;
static ABT_mutex_memory g_rec = ABT_RECURSIVE_MUTEX_INITIALIZER;

typedef struct {
    ABT_mutex m;
    bool recursive;
    long counter; /* guarded by m */
    atomic_int holders;
} mset;

static mset sets[NSETS];
static int iters;
static atomic_long ops;

static int trylock_spin(ABT_mutex m)
{
    int ret;
    while ((ret = ABT_mutex_trylock(m)) == ABT_ERR_MUTEX_LOCKED)
        ;
    return ret;
}

static void worker(int seed)
{
    static int (*const lock_fns[])(ABT_mutex) = { ABT_mutex_lock, ABT_mutex_lock_high,
                                                  ABT_mutex_lock_low, trylock_spin,
                                                  ABT_mutex_spinlock };
    static int (*const unlock_fns[])(ABT_mutex) = { ABT_mutex_unlock, ABT_mutex_unlock_se,
                                                    ABT_mutex_unlock_de };
    for (int i = 0; i < iters; i++) {
        int lk = (i + seed) % 5, ul = (i / 5 + seed) % 3;
        for (int s = 0; s < NSETS; s++) {
            mset *ms = &sets[s];
            int depth = ms->recursive ? NEST : 1;
            for (int d = 0; d < depth; d++)
                CHECK_ABT(lock_fns[lk](ms->m));
            if (atomic_fetch_add(&ms->holders, 1) != 0)
                TEST_FAIL("set %d: two holders at once", s);
            ms->counter++;
            atomic_fetch_sub(&ms->holders, 1);
            for (int d = 0; d < depth; d++)
                CHECK_ABT(unlock_fns[ul](ms->m));
        }
        atomic_fetch_add(&ops, 1);
        stress_progress();
    }
}

static void ult_main(void *arg) { worker((int)(intptr_t)arg); }

static void *pthread_main(void *arg)
{
    worker((int)(intptr_t)arg);
    return NULL;
}

static void run_pthreads(int n, int seed0)
{
    pthread_t th[4];
    for (int i = 0; i < n; i++)
        CHECK(pthread_create(&th[i], NULL, pthread_main, (void *)(intptr_t)(seed0 + i)) == 0);
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
}

static void on_tick(int sig) { (void)sig; }

int main(int argc, char **argv)
{
    stress_watchdog wd;
    stress_watchdog_start(&wd, "mutex_static_init_stress");
    ABT_mutex_memory l_plain = ABT_MUTEX_INITIALIZER;
    ABT_mutex_memory l_rec = ABT_RECURSIVE_MUTEX_INITIALIZER;
    sets[0] = (mset){ ABT_MUTEX_MEMORY_GET_HANDLE(&g_plain), false, 0, 0 };
    sets[1] = (mset){ ABT_MUTEX_MEMORY_GET_HANDLE(&g_rec), true, 0, 0 };
    sets[2] = (mset){ ABT_MUTEX_MEMORY_GET_HANDLE(&l_plain), false, 0, 0 };
    sets[3] = (mset){ ABT_MUTEX_MEMORY_GET_HANDLE(&l_rec), true, 0, 0 };
    iters = 10000 / stress_scale_div();

    /* a signal every 2 ms, without SA_RESTART: futex sleeps return early */
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_tick;
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
    struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
    CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);

    stress_set_phase("pthreads before ABT_init");
    run_pthreads(3, 0);

    stress_set_phase("ULTs on two streams and pthreads");
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    enum { NULT = 8 };
    int rounds = 0;
    double end = sync_now() + stress_budget(0.8);
    do { /* rounds of fresh ULTs until the time budget is spent */
        ABT_thread ts[NULT];
        for (int i = 0; i < NULT; i++)
            CHECK_ABT(ABT_thread_create(w.pools[i % w.n], ult_main,
                                        (void *)(intptr_t)(10 + i + rounds), ABT_THREAD_ATTR_NULL,
                                        &ts[i]));
        run_pthreads(2, 20 + rounds);
        sync_join_all(NULT, ts);
        rounds++;
    } while (sync_now() < end);
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());

    stress_set_phase("pthreads after ABT_finalize");
    run_pthreads(3, 30);

    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    CHECK(setitimer(ITIMER_REAL, &off, NULL) == 0);
    stress_watchdog_stop(&wd);

    long expect = atomic_load(&ops);
    CHECK_EQ_INT(expect, (long)iters * (3 + rounds * (NULT + 2) + 3));
    for (int s = 0; s < NSETS; s++)
        CHECK_EQ_INT(sets[s].counter, expect);
    return 0;
}
