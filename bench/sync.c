/* bench/sync.c - cost of the synchronization objects, ns per operation, beside the
 * Pthreads equivalents measured in the same run.
 *
 * Usage:  sync [-r REPS] [-n SCALE]
 *   -r REPS   repetitions of each measurement; the median is printed (default 5)
 *   -n SCALE  multiply every iteration count (default 1.0; 0.1 for a quick look)
 * Build (until bench/CMakeLists.txt lists it):
 *   cc -O3 -I include bench/sync.c -o sync_weft -L<build> -lweft -lpthread \
 *      -Wl,-rpath,<build>
 *   cc -O3 -I <argobots>/include bench/sync.c -o sync_abt -L<argobots>/lib -labt \
 *      -lpthread -Wl,-rpath,<argobots>/lib -DIMPL_NAME='"Argobots"'
 * Only abt.h and Pthreads: the same source measures weft and Argobots.
 *
 * Setup: the primary stream plus one secondary stream (BASIC schedulers, like the
 * Argobots default); "2 streams" puts one ULT on each.  Rows:
 *   mutex uncontended       lock+unlock by one ULT
 *   mutex contended         two ULTs on two streams hammer one mutex (ns per pair)
 *   mutex trylock           trylock+unlock, uncontended
 *   cond round trip         ping-pong through one mutex and one cond (ns per round trip:
 *                           two signals, two waits), two ULTs on one stream / two streams
 *   cond signal, no waiter  signal with nobody waiting
 *   eventual set+wait       set, wait on the ready eventual, reset (one ULT)
 *   future set+wait+reset   one compartment: set, wait on the ready future, reset
 *   eventual ping-pong      two ULTs on two streams, two eventuals (ns per round trip)
 *   barrier 2 / 32          barrier rounds of 2 and 32 ULTs spread over the two streams
 *   rwlock rd / wr          rdlock+unlock and wrlock+unlock, uncontended
 * The pthread column runs the same pattern with pthread_mutex / pthread_cond /
 * pthread_barrier / pthread_rwlock between OS threads (a "ULT" becomes a thread). */
#define _GNU_SOURCE
#include <abt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef IMPL_NAME
#define IMPL_NAME "weft"
#endif

static int reps = 5;
static double scale = 1.0;
static ABT_pool pools[2];

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static long iters(long n)
{
    long k = (long)((double)n * scale);
    return k > 0 ? k : 1;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define CK(call)                                                                   \
    do {                                                                           \
        int r_ = (call);                                                           \
        if (r_ != ABT_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, r_); \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

/* Run fn(i) for i in [0, n) as ULTs spread round-robin over the two pools (or all on
 * pools[0] when one_stream), and wait for them. */
static void run_ults(int n, void (*fn)(void *), int one_stream)
{
    ABT_thread *t = malloc(sizeof(*t) * (size_t)n);
    for (int i = 0; i < n; i++)
        CK(ABT_thread_create(pools[one_stream ? 0 : i % 2], fn, (void *)(intptr_t)i,
                             ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < n; i++)
        CK(ABT_thread_free(&t[i]));
    free(t);
}

static void run_pthreads(int n, void *(*fn)(void *))
{
    pthread_t *t = malloc(sizeof(*t) * (size_t)n);
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, fn, (void *)(intptr_t)i);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    free(t);
}

/* everybody starts together (a spin gate: only used to line up the start) */
static atomic_int gate;
static void gate_wait(int n, int ult)
{
    atomic_fetch_add(&gate, 1);
    while (atomic_load(&gate) < n)
        if (ult)
            ABT_thread_yield();
}

/* ---------------------------------------------------------------- mutex */

static ABT_mutex amtx;
static pthread_mutex_t pmtx = PTHREAD_MUTEX_INITIALIZER;
static long n_ops;
static volatile long shared_counter;

static double abt_mutex_uncontended(void)
{
    long n = n_ops;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        ABT_mutex_lock(amtx);
        shared_counter++;
        ABT_mutex_unlock(amtx);
    }
    return (now_ns() - t0) / (double)n;
}

static double pth_mutex_uncontended(void)
{
    long n = n_ops;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        pthread_mutex_lock(&pmtx);
        shared_counter++;
        pthread_mutex_unlock(&pmtx);
    }
    return (now_ns() - t0) / (double)n;
}

static double abt_trylock(void)
{
    long n = n_ops;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        if (ABT_mutex_trylock(amtx) == ABT_SUCCESS) {
            shared_counter++;
            ABT_mutex_unlock(amtx);
        }
    }
    return (now_ns() - t0) / (double)n;
}

static double pth_trylock(void)
{
    long n = n_ops;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        if (pthread_mutex_trylock(&pmtx) == 0) {
            shared_counter++;
            pthread_mutex_unlock(&pmtx);
        }
    }
    return (now_ns() - t0) / (double)n;
}

static void abt_contended_body(void *arg)
{
    (void)arg;
    gate_wait(2, 1);
    for (long i = 0; i < n_ops; i++) {
        ABT_mutex_lock(amtx);
        shared_counter++;
        ABT_mutex_unlock(amtx);
    }
}

static double abt_mutex_contended(void)
{
    atomic_store(&gate, 0);
    double t0 = now_ns();
    run_ults(2, abt_contended_body, 0);
    return (now_ns() - t0) / (double)(2 * n_ops);
}

static void *pth_contended_body(void *arg)
{
    (void)arg;
    gate_wait(2, 0);
    for (long i = 0; i < n_ops; i++) {
        pthread_mutex_lock(&pmtx);
        shared_counter++;
        pthread_mutex_unlock(&pmtx);
    }
    return NULL;
}

static double pth_mutex_contended(void)
{
    atomic_store(&gate, 0);
    double t0 = now_ns();
    run_pthreads(2, pth_contended_body);
    return (now_ns() - t0) / (double)(2 * n_ops);
}

/* ---------------------------------------------------------------- rwlock */

static ABT_rwlock arw;
static pthread_rwlock_t prw = PTHREAD_RWLOCK_INITIALIZER;

static double abt_rd(void)
{
    long n = n_ops;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        ABT_rwlock_rdlock(arw);
        shared_counter += 0;
        ABT_rwlock_unlock(arw);
    }
    return (now_ns() - t0) / (double)n;
}

static double pth_rd(void)
{
    long n = n_ops;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        pthread_rwlock_rdlock(&prw);
        shared_counter += 0;
        pthread_rwlock_unlock(&prw);
    }
    return (now_ns() - t0) / (double)n;
}

static double abt_wr(void)
{
    long n = n_ops;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        ABT_rwlock_wrlock(arw);
        shared_counter++;
        ABT_rwlock_unlock(arw);
    }
    return (now_ns() - t0) / (double)n;
}

static double pth_wr(void)
{
    long n = n_ops;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        pthread_rwlock_wrlock(&prw);
        shared_counter++;
        pthread_rwlock_unlock(&prw);
    }
    return (now_ns() - t0) / (double)n;
}

/* ---------------------------------------------------------------- cond ping-pong */

static ABT_cond acond;
static pthread_cond_t pcond = PTHREAD_COND_INITIALIZER;
static int turn; /* protected by the mutex */

static void abt_pingpong_body(void *arg)
{
    int me = (int)(intptr_t)arg;
    ABT_mutex_lock(amtx);
    for (long i = 0; i < n_ops; i++) {
        while (turn != me)
            ABT_cond_wait(acond, amtx);
        turn = 1 - me;
        ABT_cond_signal(acond);
    }
    ABT_mutex_unlock(amtx);
}

static double abt_cond_rt(int one_stream)
{
    turn = 0;
    double t0 = now_ns();
    run_ults(2, abt_pingpong_body, one_stream);
    return (now_ns() - t0) / (double)n_ops;
}

static double abt_cond_rt_1(void) { return abt_cond_rt(1); }
static double abt_cond_rt_2(void) { return abt_cond_rt(0); }

static void *pth_pingpong_body(void *arg)
{
    int me = (int)(intptr_t)arg;
    pthread_mutex_lock(&pmtx);
    for (long i = 0; i < n_ops; i++) {
        while (turn != me)
            pthread_cond_wait(&pcond, &pmtx);
        turn = 1 - me;
        pthread_cond_signal(&pcond);
    }
    pthread_mutex_unlock(&pmtx);
    return NULL;
}

static double pth_cond_rt(void)
{
    turn = 0;
    double t0 = now_ns();
    run_pthreads(2, pth_pingpong_body);
    return (now_ns() - t0) / (double)n_ops;
}

/* ---------------------------------------------------------------- eventual */

static ABT_eventual aev[2];

static double abt_eventual_local(void)
{
    long n = n_ops;
    long v = 1;
    void *out;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        ABT_eventual_set(aev[0], &v, (int)sizeof(v));
        ABT_eventual_wait(aev[0], &out);
        ABT_eventual_reset(aev[0]);
    }
    return (now_ns() - t0) / (double)n;
}

/* ping-pong: A sets ev[0] and waits ev[1]; B waits ev[0], resets it, sets ev[1]... */
static void abt_ev_body(void *arg)
{
    int me = (int)(intptr_t)arg;
    long v = 0;
    for (long i = 0; i < n_ops; i++) {
        if (me == 0) {
            ABT_eventual_set(aev[0], &v, (int)sizeof(v));
            ABT_eventual_wait(aev[1], NULL);
            ABT_eventual_reset(aev[1]);
        } else {
            ABT_eventual_wait(aev[0], NULL);
            ABT_eventual_reset(aev[0]);
            ABT_eventual_set(aev[1], &v, (int)sizeof(v));
        }
    }
}

static double abt_eventual_pingpong(void)
{
    ABT_eventual_reset(aev[0]);
    ABT_eventual_reset(aev[1]);
    double t0 = now_ns();
    run_ults(2, abt_ev_body, 0);
    return (now_ns() - t0) / (double)n_ops;
}

static double abt_cond_signal_nowaiter(void)
{
    long n = n_ops;
    double t0 = now_ns();
    for (long i = 0; i < n; i++)
        ABT_cond_signal(acond);
    return (now_ns() - t0) / (double)n;
}

static double pth_cond_signal_nowaiter(void)
{
    long n = n_ops;
    double t0 = now_ns();
    for (long i = 0; i < n; i++)
        pthread_cond_signal(&pcond);
    return (now_ns() - t0) / (double)n;
}

static ABT_future afut;

static double abt_future_local(void)
{
    long n = n_ops;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        ABT_future_set(afut, NULL);
        ABT_future_wait(afut);
        ABT_future_reset(afut);
    }
    return (now_ns() - t0) / (double)n;
}

/* ---------------------------------------------------------------- barriers */

static ABT_barrier abar;
static pthread_barrier_t pbar;
static int bar_n;

static void abt_bar_body(void *arg)
{
    (void)arg;
    for (long i = 0; i < n_ops; i++)
        ABT_barrier_wait(abar);
}

static double abt_barrier(void)
{
    double t0 = now_ns();
    run_ults(bar_n, abt_bar_body, 0);
    return (now_ns() - t0) / (double)n_ops;
}

static void *pth_bar_body(void *arg)
{
    (void)arg;
    for (long i = 0; i < n_ops; i++)
        pthread_barrier_wait(&pbar);
    return NULL;
}

static double pth_barrier(void)
{
    double t0 = now_ns();
    run_pthreads(bar_n, pth_bar_body);
    return (now_ns() - t0) / (double)n_ops;
}

/* ---------------------------------------------------------------- driver */

static double measure(double (*fn)(void), long n)
{
    double v[64];
    n_ops = iters(n);
    fn(); /* warm-up */
    for (int r = 0; r < reps; r++)
        v[r] = fn();
    return median(v, reps);
}

static void row(const char *name, double (*abt)(void), double (*pth)(void), long n)
{
    double a = measure(abt, n);
    if (pth) {
        double p = measure(pth, n);
        printf("%-28s %12.1f %12.1f\n", name, a, p);
    } else {
        printf("%-28s %12.1f %12s\n", name, a, "-");
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            scale = atof(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [-r REPS] [-n SCALE]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1 || reps > 64)
        reps = 5;

    CK(ABT_init(argc, argv));
    ABT_xstream self, xs;
    CK(ABT_xstream_self(&self));
    CK(ABT_xstream_get_main_pools(self, 1, &pools[0]));
    CK(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CK(ABT_xstream_get_main_pools(xs, 1, &pools[1]));
    CK(ABT_mutex_create(&amtx));
    CK(ABT_cond_create(&acond));
    CK(ABT_rwlock_create(&arw));
    CK(ABT_eventual_create((int)sizeof(long), &aev[0]));
    CK(ABT_eventual_create((int)sizeof(long), &aev[1]));
    CK(ABT_future_create(1, NULL, &afut));

    printf("# %s (ABT_VERSION %s): ns per operation, median of %d\n", IMPL_NAME, ABT_VERSION,
           reps);
    printf("%-28s %12s %12s\n", "operation", IMPL_NAME, "pthread");
    row("mutex lock+unlock", abt_mutex_uncontended, pth_mutex_uncontended, 2000000);
    row("mutex trylock+unlock", abt_trylock, pth_trylock, 2000000);
    row("mutex contended (2 streams)", abt_mutex_contended, pth_mutex_contended, 500000);
    row("rwlock rdlock+unlock", abt_rd, pth_rd, 2000000);
    row("rwlock wrlock+unlock", abt_wr, pth_wr, 2000000);
    row("cond round trip, 1 stream", abt_cond_rt_1, NULL, 200000);
    row("cond round trip, 2 streams", abt_cond_rt_2, pth_cond_rt, 100000);
    row("cond signal, no waiter", abt_cond_signal_nowaiter, pth_cond_signal_nowaiter, 2000000);
    row("eventual set+wait+reset", abt_eventual_local, NULL, 1000000);
    row("future set+wait+reset (1)", abt_future_local, NULL, 1000000);
    row("eventual ping-pong, 2 str.", abt_eventual_pingpong, NULL, 100000);
    int sizes[2] = { 2, 32 };
    for (int k = 0; k < 2; k++) {
        bar_n = sizes[k];
        CK(ABT_barrier_create((uint32_t)bar_n, &abar));
        pthread_barrier_init(&pbar, NULL, (unsigned)bar_n);
        char name[64];
        snprintf(name, sizeof(name), "barrier of %d ULTs", bar_n);
        row(name, abt_barrier, pth_barrier, bar_n == 2 ? 100000 : 10000);
        CK(ABT_barrier_free(&abar));
        pthread_barrier_destroy(&pbar);
    }

    CK(ABT_future_free(&afut));
    CK(ABT_eventual_free(&aev[0]));
    CK(ABT_eventual_free(&aev[1]));
    CK(ABT_rwlock_free(&arw));
    CK(ABT_cond_free(&acond));
    CK(ABT_mutex_free(&amtx));
    CK(ABT_xstream_free(&xs));
    CK(ABT_finalize());
    return 0;
}
