/* tests/sync_test.h - small helpers shared by the synchronization tests (mutex_*, cond_*,
 * rwlock_*, barrier_*, eventual_*, future_*, sync_*): a primary stream plus up to two
 * secondary streams, ULTs spread over their pools, external pthreads, deadlines.
 * Public API only (abt.h), so the tests also build against Argobots. */
#ifndef WEFT_SYNC_TEST_H
#define WEFT_SYNC_TEST_H

#include "test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

/* Valgrind and sanitizer runs set WEFT_TEST_SLOW: upper bounds on times get generous
 * there, and the checks of CPU use are skipped (the test then exits 77). */
static inline bool sync_slow(void) { return getenv("WEFT_TEST_SLOW") != NULL; }

/* Absolute CLOCK_REALTIME time `sec` seconds from now, for the timed waits. */
static inline struct timespec sync_abstime(double sec)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long long ns = (long long)ts.tv_nsec + (long long)(sec * 1e9);
    ts.tv_sec += (time_t)(ns / 1000000000LL);
    ns %= 1000000000LL;
    if (ns < 0) {
        ns += 1000000000LL;
        ts.tv_sec -= 1;
    }
    ts.tv_nsec = (long)ns;
    return ts;
}

/* Monotonic seconds. */
static inline double sync_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void sync_sleep(double sec)
{
    struct timespec ts = { (time_t)sec, (long)((sec - (double)(time_t)sec) * 1e9) };
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* Let `sec` pass while the caller - a ULT - keeps yielding, so that the other work units
 * of its stream run meanwhile (a nanosleep would hold the stream). */
static inline void sync_yield_for(double sec)
{
    double end = sync_now() + sec;
    do
        ABT_thread_yield();
    while (sync_now() < end);
}

/* A ULT yields until `cond` holds; the test fails after TEST_PATIENCE_S, naming `what` (a
 * string), if it never does. */
#define SYNC_WAIT_UNTIL(cond, what)                                         \
    do {                                                                    \
        double sync_wait_t0_ = sync_now();                                  \
        while (!(cond)) {                                                   \
            if (sync_now() - sync_wait_t0_ > TEST_PATIENCE_S)               \
                TEST_FAIL("waited %.0f s for %s", TEST_PATIENCE_S, (what)); \
            ABT_thread_yield();                                             \
        }                                                                   \
    } while (0)

/* The primary stream and `n` (<= 2) secondary streams; pools[i] is stream i's main pool. */
typedef struct {
    int n; /* streams in all, primary included */
    ABT_xstream xs[3];
    ABT_pool pools[3];
} sync_world;

static inline void sync_world_start(sync_world *w, int secondaries, ABT_sched_predef predef)
{
    w->n = secondaries + 1;
    CHECK_ABT(ABT_xstream_self(&w->xs[0]));
    CHECK_ABT(ABT_xstream_get_main_pools(w->xs[0], 1, &w->pools[0]));
    for (int i = 1; i < w->n; i++) {
        CHECK_ABT(ABT_xstream_create_basic(predef, 0, NULL, ABT_SCHED_CONFIG_NULL, &w->xs[i]));
        CHECK_ABT(ABT_xstream_get_main_pools(w->xs[i], 1, &w->pools[i]));
    }
}

static inline void sync_world_stop(sync_world *w)
{
    for (int i = 1; i < w->n; i++)
        CHECK_ABT(ABT_xstream_free(&w->xs[i]));
}

/* Create `num` ULTs running fn(args + i*argsize), round-robin over the world's pools. */
static inline void sync_spawn(sync_world *w, int num, void (*fn)(void *), void *args,
                              size_t argsize, ABT_thread *out)
{
    for (int i = 0; i < num; i++)
        CHECK_ABT(ABT_thread_create(w->pools[i % w->n], fn,
                                    args ? (char *)args + (size_t)i * argsize : NULL,
                                    ABT_THREAD_ATTR_NULL, &out[i]));
}

static inline void sync_join_all(int num, ABT_thread *ts)
{
    for (int i = 0; i < num; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
}

#endif
