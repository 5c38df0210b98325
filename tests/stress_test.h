/* tests/stress_test.h - helpers for the concurrency stress tests (mutex_*_stress,
 * key_set_concurrent, stress_pool_shared, ...): a progress watchdog that turns a hang into
 * a failure, and a run-time budget that shrinks under sanitizers and valgrind.
 *
 * Watchdog.  The workers bump stress_progress() whenever they complete an operation; a
 * pthread checks it every 100 ms and, if it has not moved for TEST_PATIENCE_S (or the
 * whole test took longer than STRESS_TOTAL_S), prints what the test was doing and
 * _exit(1)s.  A deadlock therefore fails before the ctest timeout, and the message says it
 * was a hang, not a crash.  Both bounds are far above what a loaded machine (or valgrind)
 * takes: a phase runs for a time budget of about a second, and its workers report
 * progress many times a second while they get any CPU at all.  Public API only. */
#ifndef WEFT_STRESS_TEST_H
#define WEFT_STRESS_TEST_H

#include "sync_test.h"

#include <unistd.h>

/* The longest a stress test may run in all: under ctest's per-test TIMEOUT. */
#define STRESS_TOTAL_S 150.0

typedef struct {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;
    double stall, total;
    const char *what;
} stress_watchdog;

static atomic_ulong stress_progress_ctr;
static const char *_Atomic stress_phase = "start";

static inline void stress_progress(void)
{
    atomic_fetch_add_explicit(&stress_progress_ctr, 1, memory_order_relaxed);
}

/* What the test is doing now, for the watchdog's message (a string literal). */
static inline void stress_set_phase(const char *phase) { atomic_store(&stress_phase, phase); }

static void *stress_watchdog_main(void *arg)
{
    stress_watchdog *wd = arg;
    double start = sync_now(), last_move = start;
    unsigned long last = atomic_load(&stress_progress_ctr);
    pthread_mutex_lock(&wd->mu);
    while (!wd->stop) {
        struct timespec ts = sync_abstime(0.1);
        pthread_cond_timedwait(&wd->cv, &wd->mu, &ts);
        if (wd->stop)
            break;
        double now = sync_now();
        unsigned long cur = atomic_load(&stress_progress_ctr);
        if (cur != last) {
            last = cur;
            last_move = now;
        }
        if (now - last_move > wd->stall || now - start > wd->total) {
            fprintf(stderr,
                    "FAIL: %s: hang in phase '%s' (%lu operations done; no progress for "
                    "%.1f s, %.1f s in all)\n",
                    wd->what, atomic_load(&stress_phase), cur, now - last_move, now - start);
            fflush(stderr);
            _exit(1);
        }
    }
    pthread_mutex_unlock(&wd->mu);
    return NULL;
}

/* Fail the test if no progress is reported for TEST_PATIENCE_S or it runs STRESS_TOTAL_S. */
static inline void stress_watchdog_start(stress_watchdog *wd, const char *what)
{
    wd->stop = 0;
    wd->stall = TEST_PATIENCE_S;
    wd->total = STRESS_TOTAL_S;
    wd->what = what;
    CHECK(pthread_mutex_init(&wd->mu, NULL) == 0);
    CHECK(pthread_cond_init(&wd->cv, NULL) == 0);
    CHECK(pthread_create(&wd->th, NULL, stress_watchdog_main, wd) == 0);
}

static inline void stress_watchdog_stop(stress_watchdog *wd)
{
    pthread_mutex_lock(&wd->mu);
    wd->stop = 1;
    pthread_cond_signal(&wd->cv);
    pthread_mutex_unlock(&wd->mu);
    pthread_join(wd->th, NULL);
    pthread_mutex_destroy(&wd->mu);
    pthread_cond_destroy(&wd->cv);
}

/* Seconds a stress phase should run: `sec` in release, half of it under sanitizers and
 * valgrind, where every operation is 10-50x slower (the interleavings still vary, and
 * TSan must see enough of them to find a race). */
static inline double stress_budget(double sec) { return sync_slow() ? sec / 2 : sec; }

/* Whether a stress loop that has done `done` steps goes on: up to `max`, while the time
 * budget (an absolute sync_now() deadline) lasts, and at least `min` steps however late a
 * loaded machine started the loop, so that the checks after it always have work to check. */
static inline bool stress_go_on(long done, long min, long max, double deadline)
{
    return done < max && (done < min || sync_now() < deadline);
}

/* Divisor for iteration caps: 4 under sanitizers and valgrind (test_scale_div's 20 would
 * end a stress run before the interleavings that matter).  The time budget still bounds
 * the run there. */
static inline int stress_scale_div(void) { return sync_slow() ? 4 : 1; }

/* A small deterministic per-worker PRNG (xorshift32). */
static inline uint32_t stress_rand(uint32_t *s)
{
    uint32_t x = *s ? *s : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

#endif
