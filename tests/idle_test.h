/* tests/idle_test.h - helpers shared by the idle-stream tests (sched_idle_*): the primary
 * stream plus two secondary streams all under one predefined scheduler, the CPU time of
 * the whole process from /proc/self/task/N/schedstat (time on a CPU, independent of how
 * loaded the machine is), monotonic clocks.  Public API only (abt.h). */
#ifndef WEFT_IDLE_TEST_H
#define WEFT_IDLE_TEST_H

#include "test.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#define IDLE_NSTREAMS  3 /* the primary stream and two secondaries */
#define IDLE_MAX_POOLS 3

/* Valgrind and sanitizer runs set WEFT_TEST_SLOW: CPU checks are skipped there (exit 77)
 * and time limits get generous. */
static inline bool idle_slow(void) { return getenv("WEFT_TEST_SLOW") != NULL; }

static inline double idle_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void idle_sleep(double sec)
{
    struct timespec ts = { (time_t)sec, (long)((sec - (double)(time_t)sec) * 1e9) };
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* CPU time (ns) of every thread of the process so far: the sum of the first field of
 * /proc/self/task/N/schedstat.  Threads that exited are not counted: measure a window
 * in which none exits. */
static inline unsigned long long idle_process_cpu_ns(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        TEST_SKIP("no /proc/self/task");
    unsigned long long sum = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[300];
        snprintf(path, sizeof(path), "/proc/self/task/%s/schedstat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue; /* the thread exited meanwhile */
        unsigned long long ns = 0;
        if (fscanf(f, "%llu", &ns) == 1)
            sum += ns;
        fclose(f);
    }
    closedir(d);
    return sum;
}

static inline const char *idle_sched_name(ABT_sched_predef p)
{
    switch (p) {
    case ABT_SCHED_BASIC: return "BASIC";
    case ABT_SCHED_BASIC_WAIT: return "BASIC_WAIT";
    case ABT_SCHED_PRIO: return "PRIO";
    case ABT_SCHED_RANDWS: return "RANDWS";
    default: return "?";
    }
}

/* Stream i (0 = primary) runs `predef` over its pools; pool[i] is where work for stream i
 * goes.  BASIC: one FIFO pool each; BASIC_WAIT: one FIFO_WAIT pool each; PRIO: two FIFO
 * pools each (high, low); RANDWS: three RANDWS pools, stream i's list starts with its
 * own and goes on with the others' (every pool is shared by all three schedulers). */
typedef struct {
    ABT_sched_predef predef;
    ABT_xstream xs[IDLE_NSTREAMS];
    ABT_pool pool[IDLE_NSTREAMS];
} idle_world;

static inline void idle_world_start(idle_world *w, ABT_sched_predef predef)
{
    w->predef = predef;
    ABT_pool own[IDLE_NSTREAMS][IDLE_MAX_POOLS];
    int np = 1;
    ABT_pool_kind kind = predef == ABT_SCHED_BASIC_WAIT ? ABT_POOL_FIFO_WAIT
                         : predef == ABT_SCHED_RANDWS   ? ABT_POOL_RANDWS
                                                        : ABT_POOL_FIFO;
    if (predef == ABT_SCHED_RANDWS) {
        ABT_pool shared[IDLE_NSTREAMS];
        for (int i = 0; i < IDLE_NSTREAMS; i++)
            CHECK_ABT(ABT_pool_create_basic(kind, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared[i]));
        np = IDLE_NSTREAMS;
        for (int i = 0; i < IDLE_NSTREAMS; i++)
            for (int j = 0; j < np; j++)
                own[i][j] = shared[(i + j) % IDLE_NSTREAMS];
    } else {
        np = predef == ABT_SCHED_PRIO ? 2 : 1;
        for (int i = 0; i < IDLE_NSTREAMS; i++)
            for (int j = 0; j < np; j++)
                CHECK_ABT(ABT_pool_create_basic(kind, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &own[i][j]));
    }
    CHECK_ABT(ABT_xstream_self(&w->xs[0]));
    CHECK_ABT(ABT_xstream_set_main_sched_basic(w->xs[0], predef, np, own[0]));
    for (int i = 1; i < IDLE_NSTREAMS; i++)
        CHECK_ABT(ABT_xstream_create_basic(predef, np, own[i], ABT_SCHED_CONFIG_NULL, &w->xs[i]));
    for (int i = 0; i < IDLE_NSTREAMS; i++)
        w->pool[i] = own[i][0];
}

static inline void idle_world_stop(idle_world *w)
{
    for (int i = 1; i < IDLE_NSTREAMS; i++) {
        CHECK_ABT(ABT_xstream_join(w->xs[i]));
        CHECK_ABT(ABT_xstream_free(&w->xs[i]));
    }
}

#endif

/* ---- the idle-CPU check of every predefined scheduler (sched_idle_cpu_*.c) ----
 * ULT `waiter` on stream 1 waits on an eventual, the primary ULT joins it, stream 2 has
 * nothing to do: all three streams are idle.  An external thread lets them settle, then
 * measures the CPU time of the whole process over ~0.6 s and sets the eventual.  Idle
 * streams must sleep: under 5 ms of CPU per stream-second. */
#define IDLE_CPU_WINDOW             0.6
#define IDLE_CPU_MAX_PER_STREAM_SEC 0.005

typedef struct {
    ABT_eventual ev;
    double cpu_s, wall_s;
} idle_cpu_run;

static void idle_cpu_waiter(void *arg)
{
    idle_cpu_run *r = arg;
    CHECK_ABT(ABT_eventual_wait(r->ev, NULL));
}

static void *idle_cpu_measurer(void *arg)
{
    idle_cpu_run *r = arg;
    idle_sleep(0.1); /* let every stream go idle */
    unsigned long long c0 = idle_process_cpu_ns();
    double t0 = idle_now();
    idle_sleep(IDLE_CPU_WINDOW);
    unsigned long long c1 = idle_process_cpu_ns();
    r->wall_s = idle_now() - t0;
    r->cpu_s = (double)(c1 - c0) * 1e-9;
    CHECK_ABT(ABT_eventual_set(r->ev, NULL, 0)); /* from an external thread */
    return NULL;
}

static inline int idle_cpu_test(int argc, char **argv, ABT_sched_predef predef)
{
    CHECK_ABT(ABT_init(argc, argv));
    idle_world w;
    idle_world_start(&w, predef);
    idle_cpu_run r = { 0 };
    CHECK_ABT(ABT_eventual_create(0, &r.ev));
    ABT_thread waiter;
    CHECK_ABT(ABT_thread_create(w.pool[1], idle_cpu_waiter, &r, ABT_THREAD_ATTR_NULL, &waiter));
    pthread_t m;
    CHECK(pthread_create(&m, NULL, idle_cpu_measurer, &r) == 0);
    CHECK_ABT(ABT_thread_join(waiter)); /* the primary ULT blocks here */
    CHECK(pthread_join(m, NULL) == 0);
    CHECK_ABT(ABT_thread_free(&waiter));
    CHECK_ABT(ABT_eventual_free(&r.ev));
    idle_world_stop(&w);
    CHECK_ABT(ABT_finalize());

    double per = r.cpu_s / (r.wall_s * IDLE_NSTREAMS);
    printf("%s: %d idle streams used %.2f ms CPU in %.3f s: %.3f ms per stream-second "
           "(limit %.1f)\n",
           idle_sched_name(predef), IDLE_NSTREAMS, r.cpu_s * 1e3, r.wall_s, per * 1e3,
           IDLE_CPU_MAX_PER_STREAM_SEC * 1e3);
    if (idle_slow())
        TEST_SKIP("CPU use not checked under valgrind or a sanitizer");
    if (per >= IDLE_CPU_MAX_PER_STREAM_SEC)
        TEST_FAIL("idle streams under %s burn CPU: %.3f ms per stream-second",
                  idle_sched_name(predef), per * 1e3);
    return 0;
}

/* The predefined schedulers, for tests that try each. */
static const ABT_sched_predef idle_predefs[] = { ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT,
                                                 ABT_SCHED_PRIO, ABT_SCHED_RANDWS };
#define IDLE_NPREDEFS ((int)(sizeof(idle_predefs) / sizeof(idle_predefs[0])))

/* How long streams are left alone before a wake-up is tried: long enough for any
 * spinning phase to be over, so that the stream sleeps. */
#define IDLE_SETTLE 0.03

/* How long a test waits for a wake-up before it calls it lost.  A sleeping main
 * scheduler whose pools all wake it sleeps without a bound, so a lost wake-up never ends
 * by itself (any other sleep is a nap of 1 ms at most: core/sched/idle.c); the bound is
 * one that a loaded machine does not reach. */
static inline double idle_wake_limit(void) { return TEST_PATIENCE_S; }

/* Rank of the stream running the caller. */
static inline int idle_rank(void)
{
    int rank = -1;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    return rank;
}
