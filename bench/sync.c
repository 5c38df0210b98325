/* bench/sync.c - cost of the synchronization objects, ns per operation, beside the
 * Pthreads equivalents measured in the same run.  Only abt.h and Pthreads: the same
 * source is built as `sync` (weft) and, with WEFT_BENCH_ARGOBOTS_PREFIX, `sync_abt`
 * (Argobots); bench/run.sh runs both (--only sync).
 *
 * Usage:  sync [--ops KEY,...] [--kinds ult,pthread], and the common flags of
 *         bench/common/bench.h: --json, --csv, --repeats 5, --sample-ms 10
 *   --ops      the rows to measure, by key (below; default all)
 *   --kinds    ult: the abt.h column, pthread: the Pthreads column (default both)
 *   -r REPS    same as --repeats (older spelling)
 *   -n SCALE   multiplies the sample time (older spelling; 0.1 for a quick look)
 * Every row is warmed up, probed, then measured --repeats times with the iteration
 * count that fills --sample-ms; the table shows the median.
 *
 * Setup: the primary stream plus one secondary stream (BASIC schedulers, like the
 * Argobots default); "2 streams" puts one ULT on each.  Rows (key: what):
 *   mutex                   lock+unlock by one ULT
 *   mutex_trylock           trylock+unlock, uncontended
 *   mutex_contended         two ULTs on two streams hammer one mutex (ns per lock+unlock)
 *   rwlock_rd, rwlock_wr    rdlock+unlock and wrlock+unlock, uncontended
 *   cond_rt_1, cond_rt_2    ping-pong through one mutex and one cond (ns per round trip:
 *                           two signals, two waits), two ULTs on one stream / two streams
 *   cond_signal             signal with nobody waiting
 *   eventual                set, wait on the ready eventual, reset (one ULT)
 *   future                  one compartment: set, wait on the ready future, reset
 *   eventual_pingpong       two ULTs on two streams, two eventuals (ns per round trip)
 *   barrier_2, barrier_32   barrier rounds of 2 and 32 ULTs spread over the two streams
 * The pthread column runs the same pattern with pthread_mutex / pthread_cond /
 * pthread_barrier / pthread_rwlock between OS threads (a "ULT" becomes a thread).
 *
 * --callgrind KIND [--n M] --iters K: no timing, the primary stream alone (its BASIC
 * scheduler, no secondary stream); instructions per operation are
 * (Ir(K2) - Ir(K1)) / (units (K2 - K1)) (scripts/insn_counts.sh).  KIND:
 *   barrier       M ULTs each wait K times on one barrier of M (units: M waits)
 *   cond_rt_main  the primary ULT and one ULT ping-pong K round trips through one
 *                 mutex and one cond, as cond_rt_1 does (units: 1 round trip)
 *   cond_rt       the same between two ULTs; the primary ULT only joins them
 *   cond_signal   K signals with nobody waiting
 *   eventual      K times set, wait on the ready eventual, reset (one ULT)
 *   future        K times set the one compartment, wait, reset (one ULT) */
#include "bench.h"

#include <abt.h>
#include <pthread.h>
#include <stdatomic.h>

static ABT_pool pools[2];

static double now_ns(void) { return (double)bench_now_ns(); }

#define CK(call)                                                                       \
    do {                                                                               \
        int r_ = (call);                                                               \
        if (r_ != ABT_SUCCESS) {                                                       \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, r_); \
            exit(1);                                                                   \
        }                                                                              \
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

typedef struct {
    const char *key;     /* --ops name, and "op" of the JSON/CSV results */
    const char *label;   /* the table's row */
    double (*abt)(void); /* ns per operation over n_ops iterations */
    double (*pth)(void); /* the Pthreads equivalent, or NULL */
    long probe;          /* iterations of the warm-up and of the probe */
    double per_iter;     /* operations' worth of time one iteration takes */
    int barrier;         /* a barrier of this many members is set up around the row */
} row_t;

static const row_t rows[] = {
    { "mutex", "mutex lock+unlock", abt_mutex_uncontended, pth_mutex_uncontended, 100000, 1, 0 },
    { "mutex_trylock", "mutex trylock+unlock", abt_trylock, pth_trylock, 100000, 1, 0 },
    { "mutex_contended", "mutex contended (2 streams)", abt_mutex_contended, pth_mutex_contended,
      25000, 2, 0 },
    { "rwlock_rd", "rwlock rdlock+unlock", abt_rd, pth_rd, 100000, 1, 0 },
    { "rwlock_wr", "rwlock wrlock+unlock", abt_wr, pth_wr, 100000, 1, 0 },
    { "cond_rt_1", "cond round trip, 1 stream", abt_cond_rt_1, NULL, 10000, 1, 0 },
    { "cond_rt_2", "cond round trip, 2 streams", abt_cond_rt_2, pth_cond_rt, 5000, 1, 0 },
    { "cond_signal", "cond signal, no waiter", abt_cond_signal_nowaiter, pth_cond_signal_nowaiter,
      100000, 1, 0 },
    { "eventual", "eventual set+wait+reset", abt_eventual_local, NULL, 50000, 1, 0 },
    { "future", "future set+wait+reset (1)", abt_future_local, NULL, 50000, 1, 0 },
    { "eventual_pingpong", "eventual ping-pong, 2 str.", abt_eventual_pingpong, NULL, 5000, 1, 0 },
    { "barrier_2", "barrier of 2 ULTs", abt_barrier, pth_barrier, 5000, 1, 2 },
    { "barrier_32", "barrier of 32 ULTs", abt_barrier, pth_barrier, 500, 1, 32 },
};

/* The driver's view of a measurement function: n_ops = iters, then run it. */
typedef struct {
    double (*fn)(void);
} op_t;

static double op_iters(void *ctx, long iters)
{
    n_ops = iters > 0 ? iters : 1;
    return ((op_t *)ctx)->fn();
}

static bench_t bench;

/* Median ns per operation of fn; its samples in v (bench.repeats of them). */
static double measure(const row_t *r, double (*fn)(void), double *v)
{
    op_t op = { fn };
    bench_measure_iters(&bench, op_iters, &op, r->probe, r->probe, r->per_iter, v);
    return bench_median(v, bench.repeats);
}

static void run_row(const row_t *r, const char *kinds)
{
    double v[BENCH_MAX_REPEATS], a = 0, p = 0;
    int do_abt = bench_in_list(kinds, "ult");
    int do_pth = r->pth && bench_in_list(kinds, "pthread");
    char f[128];
    if (r->barrier) {
        bar_n = r->barrier;
        CK(ABT_barrier_create((uint32_t)bar_n, &abar));
        pthread_barrier_init(&pbar, NULL, (unsigned)bar_n);
    }
    if (do_abt) {
        a = measure(r, r->abt, v);
        bench_fields(f, sizeof f, "\"op\":\"%s\",\"kind\":\"ult\"", r->key);
        bench_result(&bench, "sync", f, "time", "ns_per_op", v, bench.repeats);
    }
    if (do_pth) {
        p = measure(r, r->pth, v);
        bench_fields(f, sizeof f, "\"op\":\"%s\",\"kind\":\"pthread\"", r->key);
        bench_result(&bench, "sync", f, "time", "ns_per_op", v, bench.repeats);
    }
    if (r->barrier) {
        CK(ABT_barrier_free(&abar));
        pthread_barrier_destroy(&pbar);
    }
    if (!bench.machine) {
        printf("%-28s", r->label);
        if (do_abt)
            printf(" %12.1f", a);
        else
            printf(" %12s", "-");
        if (do_pth)
            printf(" %12.1f\n", p);
        else
            printf(" %12s\n", "-");
        fflush(stdout);
    }
}

/* --callgrind barrier: see the header. */
static void callgrind_barrier(long m)
{
    CK(ABT_barrier_create((uint32_t)m, &abar));
    ABT_thread *t = malloc(sizeof(ABT_thread) * (size_t)m);
    if (!t)
        exit(1);
    for (long i = 0; i < m; i++)
        CK(ABT_thread_create(pools[0], abt_bar_body, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    for (long i = 0; i < m; i++)
        CK(ABT_thread_free(&t[i]));
    free(t);
    CK(ABT_barrier_free(&abar));
}

/* --callgrind cond_rt_main: the primary ULT is member 0, a ULT of its pool member 1. */
static void callgrind_cond_rt_main(void)
{
    ABT_thread t;
    turn = 0;
    CK(ABT_thread_create(pools[0], abt_pingpong_body, (void *)(intptr_t)1, ABT_THREAD_ATTR_NULL,
                         &t));
    abt_pingpong_body((void *)(intptr_t)0);
    CK(ABT_thread_free(&t));
}

/* --callgrind KIND --n M --iters K: see the header. */
static int callgrind(int argc, char **argv, const char *kind, long m, long k)
{
    CK(ABT_init(argc, argv));
    ABT_xstream self;
    CK(ABT_xstream_self(&self));
    CK(ABT_xstream_get_main_pools(self, 1, &pools[0]));
    CK(ABT_mutex_create(&amtx));
    CK(ABT_cond_create(&acond));
    CK(ABT_eventual_create((int)sizeof(long), &aev[0]));
    CK(ABT_future_create(1, NULL, &afut));
    n_ops = k;
    if (!strcmp(kind, "barrier"))
        callgrind_barrier(m);
    else if (!strcmp(kind, "cond_rt_main"))
        callgrind_cond_rt_main();
    else if (!strcmp(kind, "cond_rt"))
        abt_cond_rt(1);
    else if (!strcmp(kind, "cond_signal"))
        abt_cond_signal_nowaiter();
    else if (!strcmp(kind, "eventual"))
        abt_eventual_local();
    else
        abt_future_local();
    CK(ABT_future_free(&afut));
    CK(ABT_eventual_free(&aev[0]));
    CK(ABT_cond_free(&acond));
    CK(ABT_mutex_free(&amtx));
    CK(ABT_finalize());
    return 0;
}

int main(int argc, char **argv)
{
    const char *cg = NULL;
    long cg_n = 2, cg_iters = 1000;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--callgrind"))
            cg = argv[i + 1];
        else if (!strcmp(argv[i], "--n"))
            cg_n = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--iters"))
            cg_iters = atol(argv[i + 1]);
    }
    if (cg) {
        static const char *const kinds[] = { "barrier",     "cond_rt_main", "cond_rt",
                                             "cond_signal", "eventual",     "future" };
        int known = 0;
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            known = known || !strcmp(cg, kinds[i]);
        if (!known || cg_n < 1 || cg_iters < 1) {
            fprintf(stderr, "sync: --callgrind barrier|cond_rt_main|cond_rt|cond_signal|"
                            "eventual|future [--n M] --iters K (M, K >= 1)\n");
            return 2;
        }
        return callgrind(argc, argv, cg, cg_n, cg_iters);
    }
    bench_init(&bench, argc, argv, 10.0,
               "[--ops mutex,cond_rt_2,...] [--kinds ult,pthread] [-r REPS] [-n SCALE]\n");
    const bench_args_t *a = &bench.args;
    long r = bench_opt_long(a, "-r", bench.repeats);
    bench.repeats = r < 1 ? 1 : r > BENCH_MAX_REPEATS ? BENCH_MAX_REPEATS : (int)r;
    bench.target_ns *= bench_opt_double(a, "-n", 1.0);
    const char *ops = bench_opt(a, "--ops");
    const char *kinds = bench_opt(a, "--kinds");

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

    if (!bench.machine) {
        printf("# %s (ABT_VERSION %s): ns per operation, median of %d\n", BENCH_IMPL_NAME,
               ABT_VERSION, bench.repeats);
        printf("%-28s %12s %12s\n", "operation", BENCH_IMPL_NAME, "pthread");
    }
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (bench_in_list(ops, rows[i].key))
            run_row(&rows[i], kinds);

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
