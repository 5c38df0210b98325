/* fork_join - N empty ULTs and tasklets created into the caller's pool, then
 * joined and freed; pthread_create/pthread_join of N threads as the in-run
 * baseline.  Written against the public Argobots 1.x API (abt.h), so the same
 * source builds against weft (fork_join) and an installed Argobots
 * (fork_join_abt).
 *
 * Reproduces: Argobots (TPDS 2018) Fig. 2-5 (create/join/free split per ULT vs
 * number of ULTs) and Fig. 6 (create+join time per unit vs execution streams).
 *
 * Streams:
 *   1 stream           the main ULT forks N units into its own pool.
 *   2 streams, "one"   one creator (the main ULT) feeds both streams' pools
 *                      round-robin, then joins everything.
 *   2 streams, "each"  every stream runs its own creator ULT that forks N units
 *                      into its own pool (the paper's Fig. 6 setting).
 *
 * With no arguments it prints a short table (the project's headline demo).
 * Common flags (--json, --csv, --repeats 5, --sample-ms 10): bench/common/bench.h.
 * --n 256,4096        unit counts        --streams 1,2      stream counts
 * --kinds ult,tasklet,pthread           --modes one,each   2-stream modes
 * --split             also print the create/join/free split in the table
 * --pool priv         1-stream only: replace the primary stream's pool by a
 *                     private one (ABT_POOL_ACCESS_PRIV)
 * --free-only         skip the explicit join: ABT_thread_free / ABT_task_free
 *                     wait for the unit themselves (reported as "join" = 0)
 * --callgrind KIND --n N --iters I
 *                     no timing at all: exactly I rounds of N create+join+free
 *                     of KIND (ult, tasklet or pthread) on one stream, for
 *                     `valgrind --tool=callgrind`; instructions per unit are
 *                     (Ir(I2) - Ir(I1)) / ((I2 - I1) * N).
 *                     With --streams 2 the rounds feed a second stream's pool too
 *                     (one creator, round-robin); with --time it prints the time of
 *                     the rounds and of ABT_finalize (the tracing overhead, README
 *                     "Tracing", compares runs with and without WEFT_TRACE). */
#include "bench.h"

#include <abt.h>
#include <pthread.h>
#include <stdatomic.h>

enum { K_ULT, K_TASKLET, K_PTHREAD, K_COUNT };
static const char *kind_name[K_COUNT] = { "ult", "tasklet", "pthread" };

typedef struct {
    double create, join, free;
} phase_t;

static void empty_fn(void *arg) { (void)arg; }

static void *empty_pthread(void *arg) { return arg; }

#define CHECK(call) BENCH_CHECK("fork_join", call)

static bench_t bench;     /* the common flags: --json, --repeats, --sample-ms ... */
static int free_only = 0; /* --free-only: ABT_thread_free joins implicitly */

/* One round: N units of `kind` into pools[i % npools], join all, free all.
 * Adds the three phase durations (ns) to acc when acc is not NULL. */
static void one_round(int kind, ABT_pool *pools, int npools, long n, ABT_thread *h, pthread_t *ph,
                      phase_t *acc)
{
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
    if (acc)
        t0 = bench_now_ns();
    if (kind == K_ULT) {
        if (npools == 1) {
            for (long i = 0; i < n; i++)
                ABT_thread_create(pools[0], empty_fn, NULL, ABT_THREAD_ATTR_NULL, &h[i]);
        } else {
            for (long i = 0; i < n; i++)
                ABT_thread_create(pools[i % npools], empty_fn, NULL, ABT_THREAD_ATTR_NULL, &h[i]);
        }
        if (acc)
            t1 = bench_now_ns();
        if (!free_only)
            for (long i = 0; i < n; i++)
                ABT_thread_join(h[i]);
        if (acc)
            t2 = bench_now_ns();
        for (long i = 0; i < n; i++)
            ABT_thread_free(&h[i]);
    } else if (kind == K_TASKLET) {
        if (npools == 1) {
            for (long i = 0; i < n; i++)
                ABT_task_create(pools[0], empty_fn, NULL, &h[i]);
        } else {
            for (long i = 0; i < n; i++)
                ABT_task_create(pools[i % npools], empty_fn, NULL, &h[i]);
        }
        if (acc)
            t1 = bench_now_ns();
        if (!free_only)
            for (long i = 0; i < n; i++)
                ABT_task_join(h[i]);
        if (acc)
            t2 = bench_now_ns();
        for (long i = 0; i < n; i++)
            ABT_task_free(&h[i]);
    } else {
        for (long i = 0; i < n; i++)
            if (pthread_create(&ph[i], NULL, empty_pthread, NULL) != 0) {
                fprintf(stderr, "fork_join: pthread_create failed at %ld\n", i);
                exit(1);
            }
        if (acc)
            t1 = bench_now_ns();
        for (long i = 0; i < n; i++)
            pthread_join(ph[i], NULL);
        if (acc)
            t2 = bench_now_ns();
    }
    if (acc) {
        t3 = bench_now_ns();
        acc->create += (double)(t1 - t0);
        acc->join += (double)(t2 - t1);
        acc->free += (double)(t3 - t2);
    }
}

/* ---- "each stream forks its own": a creator on every stream ----------- */

typedef struct {
    int kind;
    long n, rounds;
    int repeats;
    ABT_pool pool;
    ABT_thread *h;
    pthread_t *ph;
    phase_t *samples; /* per repeat, ns per unit */
    atomic_long *arrived;
    int nparties;
    atomic_int done;
} creator_t;

static void barrier_wait(atomic_long *arrived, long target)
{
    atomic_fetch_add(arrived, 1);
    while (atomic_load(arrived) < target)
        ;
}

static void creator_body(creator_t *c)
{
    for (int r = 0; r < c->repeats; r++) {
        barrier_wait(c->arrived, (long)c->nparties * (r + 1));
        phase_t acc = { 0, 0, 0 };
        long done;
        double ns;
        BENCH_TIMED_LOOP(c->rounds, bench.target_ns, done, ns,
                         one_round(c->kind, &c->pool, 1, c->n, c->h, c->ph, &acc));
        (void)ns;
        double units = (double)done * (double)c->n;
        c->samples[r].create = acc.create / units;
        c->samples[r].join = acc.join / units;
        c->samples[r].free = acc.free / units;
    }
}

static void creator_ult(void *arg)
{
    creator_t *c = (creator_t *)arg;
    creator_body(c);
    atomic_store(&c->done, 1);
}

static void *creator_pthread(void *arg)
{
    creator_body((creator_t *)arg);
    return NULL;
}

/* ---- driver -------------------------------------------------------------- */

typedef struct {
    long n;
    int streams;
    const char *mode; /* "one" or "each" (2 streams) or "-" */
    int kind;
    int repeats;
    phase_t *samples; /* per repeat, ns per unit */
} result_t;

static int use_priv_pool = 0;

static long calibrate(int kind, ABT_pool *pools, int npools, long n, ABT_thread *h, pthread_t *ph)
{
    long rounds;
    BENCH_CALIBRATE(bench.target_ns, rounds, one_round(kind, pools, npools, n, h, ph, NULL));
    return rounds;
}

static void run_config(result_t *res, ABT_thread *h, pthread_t *ph)
{
    long n = res->n;
    ABT_xstream self_xs, xs1 = ABT_XSTREAM_NULL;
    ABT_pool pools[2];
    CHECK(ABT_xstream_self(&self_xs));
    CHECK(ABT_xstream_get_main_pools(self_xs, 1, &pools[0]));

    if (res->streams == 1 || strcmp(res->mode, "one") == 0) {
        int npools = 1;
        if (res->streams == 2 && res->kind != K_PTHREAD) {
            CHECK(ABT_xstream_create(ABT_SCHED_NULL, &xs1));
            CHECK(ABT_xstream_get_main_pools(xs1, 1, &pools[1]));
            npools = 2;
        }
        long rounds = calibrate(res->kind, pools, npools, n, h, ph);
        for (int r = 0; r < res->repeats; r++) {
            phase_t acc = { 0, 0, 0 };
            long done;
            double ns;
            BENCH_TIMED_LOOP(rounds, bench.target_ns, done, ns,
                             one_round(res->kind, pools, npools, n, h, ph, &acc));
            (void)ns;
            double units = (double)done * (double)n;
            res->samples[r].create = acc.create / units;
            res->samples[r].join = acc.join / units;
            res->samples[r].free = acc.free / units;
        }
    } else {
        /* each stream forks its own: one creator per stream */
        creator_t c[2];
        atomic_long arrived = 0;
        phase_t *s1 = (phase_t *)calloc((size_t)res->repeats, sizeof(phase_t));
        ABT_thread *h1 = (ABT_thread *)calloc((size_t)n, sizeof(ABT_thread));
        pthread_t *ph1 = (pthread_t *)calloc((size_t)n, sizeof(pthread_t));
        long rounds = calibrate(res->kind, pools, 1, n, h, ph);
        for (int i = 0; i < 2; i++) {
            c[i].kind = res->kind;
            c[i].n = n;
            c[i].rounds = rounds;
            c[i].repeats = res->repeats;
            c[i].h = i ? h1 : h;
            c[i].ph = i ? ph1 : ph;
            c[i].samples = i ? s1 : res->samples;
            c[i].arrived = &arrived;
            c[i].nparties = 2;
            atomic_init(&c[i].done, 0);
        }
        c[0].pool = pools[0];
        ABT_thread t1 = ABT_THREAD_NULL;
        pthread_t pt1;
        if (res->kind == K_PTHREAD) {
            pthread_create(&pt1, NULL, creator_pthread, &c[1]);
        } else {
            CHECK(ABT_xstream_create(ABT_SCHED_NULL, &xs1));
            CHECK(ABT_xstream_get_main_pools(xs1, 1, &pools[1]));
            c[1].pool = pools[1];
            CHECK(ABT_thread_create(pools[1], creator_ult, &c[1], ABT_THREAD_ATTR_NULL, &t1));
        }
        creator_body(&c[0]);
        if (res->kind == K_PTHREAD) {
            pthread_join(pt1, NULL);
        } else {
            while (!atomic_load(&c[1].done))
                ;
            CHECK(ABT_thread_free(&t1));
        }
        /* a sample is the mean over the two streams of ns per unit */
        for (int r = 0; r < res->repeats; r++) {
            res->samples[r].create = 0.5 * (res->samples[r].create + s1[r].create);
            res->samples[r].join = 0.5 * (res->samples[r].join + s1[r].join);
            res->samples[r].free = 0.5 * (res->samples[r].free + s1[r].free);
        }
        free(s1);
        free(h1);
        free(ph1);
    }
    if (xs1 != ABT_XSTREAM_NULL) {
        CHECK(ABT_xstream_join(xs1));
        CHECK(ABT_xstream_free(&xs1));
    }
}

static double total_of(const phase_t *p) { return p->create + p->join + p->free; }

static double median_total(const result_t *r)
{
    double v[BENCH_MAX_REPEATS];
    for (int i = 0; i < r->repeats; i++)
        v[i] = total_of(&r->samples[i]);
    return bench_median(v, r->repeats);
}

static double median_phase(const result_t *r, int which)
{
    double v[BENCH_MAX_REPEATS];
    for (int i = 0; i < r->repeats; i++)
        v[i] = which == 0   ? r->samples[i].create
               : which == 1 ? r->samples[i].join
                            : r->samples[i].free;
    return bench_median(v, r->repeats);
}

static void emit(const result_t *r, const char *pool)
{
    char f[256];
    double v[BENCH_MAX_REPEATS];
    bench_fields(f, sizeof f,
                 "\"kind\":\"%s\",\"n\":%ld,\"streams\":%d,\"mode\":\"%s\",\"pool\":\"%s\"",
                 kind_name[r->kind], r->n, r->streams, r->mode, pool);
    static const char *metric[4] = { "total", "create", "join", "free" };
    for (int m = 0; m < 4; m++) {
        for (int i = 0; i < r->repeats; i++)
            v[i] = m == 0   ? total_of(&r->samples[i])
                   : m == 1 ? r->samples[i].create
                   : m == 2 ? r->samples[i].join
                            : r->samples[i].free;
        bench_result(&bench, "fork_join", f, metric[m], "ns_per_unit", v, r->repeats);
    }
}

static int callgrind_mode(const char *kind_s, long n, long iters, int streams, int timed)
{
    int kind = -1;
    for (int k = 0; k < K_COUNT; k++)
        if (strcmp(kind_s, kind_name[k]) == 0)
            kind = k;
    if (kind < 0) {
        fprintf(stderr, "fork_join: --callgrind takes ult, tasklet or pthread\n");
        return 2;
    }
    ABT_thread *h = (ABT_thread *)calloc((size_t)n, sizeof(ABT_thread));
    pthread_t *ph = (pthread_t *)calloc((size_t)n, sizeof(pthread_t));
    ABT_xstream xs, xs1 = ABT_XSTREAM_NULL;
    ABT_pool pools[2];
    CHECK(ABT_xstream_self(&xs));
    CHECK(ABT_xstream_get_main_pools(xs, 1, &pools[0]));
    if (streams == 2 && kind != K_PTHREAD) {
        CHECK(ABT_xstream_create(ABT_SCHED_NULL, &xs1));
        CHECK(ABT_xstream_get_main_pools(xs1, 1, &pools[1]));
    }
    uint64_t t0 = bench_now_ns();
    for (long k = 0; k < iters; k++)
        one_round(kind, pools, xs1 != ABT_XSTREAM_NULL ? 2 : 1, n, h, ph, NULL);
    uint64_t t1 = bench_now_ns();
    if (xs1 != ABT_XSTREAM_NULL) {
        CHECK(ABT_xstream_join(xs1));
        CHECK(ABT_xstream_free(&xs1));
    }
    free(h);
    free(ph);
    if (timed)
        printf("fork_join: %ld units (%s, %d stream%s): rounds %.1f ms\n", n * iters, kind_s,
               streams, streams == 2 ? "s" : "", (double)(t1 - t0) / 1e6);
    return 0;
}

int main(int argc, char **argv)
{
    bench_init(
        &bench, argc, argv, 10.0,
        "[--n 256,4096] [--streams 1,2] [--kinds ult,tasklet,pthread]\n"
        "          [--modes one,each] [--split] [--pool default|priv] [--free-only]\n"
        "       %s --callgrind ult|tasklet|pthread --n N --iters I [--streams 2] [--time]\n");
    const bench_args_t *a = &bench.args;
    CHECK(ABT_init(0, NULL));
    const char *pool_s = bench_opt(a, "--pool");
    if (pool_s && strcmp(pool_s, "priv") == 0) {
        /* Private pool for the primary stream; 2-stream configurations need
         * pools that other streams may push to, so they are left out. */
        ABT_pool priv;
        ABT_xstream self_xs;
        CHECK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
        CHECK(ABT_xstream_self(&self_xs));
        CHECK(ABT_xstream_set_main_sched_basic(self_xs, ABT_SCHED_BASIC, 1, &priv));
        use_priv_pool = 1;
    } else {
        pool_s = "default";
    }

    free_only = bench_flag(a, "--free-only");
    const char *cg = bench_opt(a, "--callgrind");
    if (cg) {
        int timed = bench_flag(a, "--time");
        int rc = callgrind_mode(cg, bench_opt_long(a, "--n", 256), bench_opt_long(a, "--iters", 10),
                                (int)bench_opt_long(a, "--streams", 1), timed);
        uint64_t t0 = bench_now_ns();
        CHECK(ABT_finalize());
        if (timed)
            printf("fork_join: ABT_finalize %.1f ms\n", (double)(bench_now_ns() - t0) / 1e6);
        return rc;
    }

    int split = bench_flag(a, "--split");
    long ns[16], streams[4];
    int nn = bench_opt_list(a, "--n", "256,4096", ns, 16);
    int nstreams = bench_opt_list(a, "--streams", "1,2", streams, 4);
    const char *kinds = bench_opt(a, "--kinds");
    const char *modes = bench_opt(a, "--modes");
    int repeats = bench.repeats;
    if (use_priv_pool) {
        nstreams = 1;
        streams[0] = 1;
    }

    long nmax = 0;
    for (int i = 0; i < nn; i++)
        if (ns[i] > nmax)
            nmax = ns[i];
    ABT_thread *h = (ABT_thread *)calloc((size_t)nmax, sizeof(ABT_thread));
    pthread_t *ph = (pthread_t *)calloc((size_t)nmax, sizeof(pthread_t));

    /* rows: (n, streams, mode); columns: kinds */
    typedef struct {
        long n;
        int streams;
        const char *mode;
    } row_t;
    row_t rows[64];
    int nrows = 0;
    for (int s = 0; s < nstreams; s++) {
        for (int i = 0; i < nn; i++) {
            if (streams[s] == 1) {
                rows[nrows++] = (row_t){ ns[i], 1, "-" };
            } else if (streams[s] == 2) {
                if (bench_in_list(modes, "one"))
                    rows[nrows++] = (row_t){ ns[i], 2, "one" };
                if (bench_in_list(modes, "each"))
                    rows[nrows++] = (row_t){ ns[i], 2, "each" };
            }
        }
    }

    if (!bench.machine) {
        printf("fork_join (%s): N empty units created into the caller's pool, then joined and "
               "freed.\n",
               BENCH_IMPL_NAME);
        printf("ns per unit (create + join + free), median of %d samples of ~%.0f ms each%s\n\n",
               repeats, bench.target_ns / 1e6, use_priv_pool ? ", private pool" : "");
        printf("     N  streams             ULT   tasklet    pthread   pthread/ULT  "
               "pthread/tasklet\n");
    }
    result_t res[K_COUNT];
    for (int k = 0; k < K_COUNT; k++)
        res[k].samples = (phase_t *)calloc((size_t)repeats, sizeof(phase_t));
    for (int r = 0; r < nrows; r++) {
        double med[K_COUNT] = { 0, 0, 0 };
        int have[K_COUNT] = { 0, 0, 0 };
        for (int k = 0; k < K_COUNT; k++) {
            if (!bench_in_list(kinds, kind_name[k]))
                continue;
            /* one creator and one stream are the same experiment for pthreads */
            if (k == K_PTHREAD && rows[r].streams == 2 && strcmp(rows[r].mode, "one") == 0)
                continue;
            res[k].n = rows[r].n;
            res[k].streams = rows[r].streams;
            res[k].mode = rows[r].mode;
            res[k].kind = k;
            /* the table's pthread column uses 3 samples: creating 4096 OS
             * threads takes ~0.1-0.2 s per round and the demo should stay short */
            res[k].repeats = (!bench.machine && k == K_PTHREAD && repeats > 3) ? 3 : repeats;
            run_config(&res[k], h, ph);
            have[k] = 1;
            med[k] = median_total(&res[k]);
            if (bench.machine)
                emit(&res[k], pool_s);
        }
        if (!bench.machine) {
            const char *label = rows[r].streams == 1               ? "1"
                                : strcmp(rows[r].mode, "one") == 0 ? "2 one creator"
                                                                   : "2 each forks";
            printf("%6ld  %-14s", rows[r].n, label);
            for (int k = 0; k < K_COUNT; k++) {
                if (have[k])
                    printf(k == K_PTHREAD ? " %10.1f" : " %9.1f", med[k]);
                else
                    printf(k == K_PTHREAD ? " %10s" : " %9s", "-");
            }
            if (have[K_PTHREAD] && have[K_ULT] && med[K_ULT] > 0)
                printf("  %11.0fx", med[K_PTHREAD] / med[K_ULT]);
            else
                printf("  %12s", "-");
            if (have[K_PTHREAD] && have[K_TASKLET] && med[K_TASKLET] > 0)
                printf("  %14.0fx", med[K_PTHREAD] / med[K_TASKLET]);
            printf("\n");
            if (split) {
                for (int k = 0; k < K_COUNT; k++) {
                    if (!have[k])
                        continue;
                    printf("%22s %-8s create %8.1f  join %8.1f  free %8.1f\n", "", kind_name[k],
                           median_phase(&res[k], 0), median_phase(&res[k], 1),
                           median_phase(&res[k], 2));
                }
            }
            fflush(stdout);
        }
    }
    if (!bench.machine) {
        printf("\n2 one creator: the main ULT feeds both streams' pools round-robin; "
               "2 each forks: every\nstream forks its own N units (pthread: two creator "
               "threads, median of 3).\nOptions: --help (--split: create/join/free); "
               "the whole suite with plots: bench/run.sh\n");
    }
    for (int k = 0; k < K_COUNT; k++)
        free(res[k].samples);
    free(h);
    free(ph);
    CHECK(ABT_finalize());
    return 0;
}
