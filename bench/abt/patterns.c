/* patterns - the four OpenMP code patterns of "Analysis of threading libraries
 * for high performance computing" (Sections 4-6), written with ULTs/tasklets,
 * each running the BLAS-1 scal kernel (x[i] *= alpha):
 *   for            1,000-iteration loop split in T chunks, one unit per stream
 *                  (paper Fig. 10)
 *   task_single    one creator makes one unit per element (1,000 units),
 *                  dispatched round-robin to the T streams' pools (Fig. 11)
 *   task_parallel  one ULT per stream, each creating one unit per element of
 *                  its 1,000 / T chunk into its own pool (Fig. 12)
 *   nested         1,000 x 1,000: one ULT per stream runs a chunk of the outer
 *                  loop; every outer iteration forks T units over the inner
 *                  1,000 iterations, one per stream (Fig. 13)
 * T = number of execution streams (the "threads" of the OpenMP version); the
 * streams are created once per T, outside the timed region, as an OpenMP
 * runtime keeps its thread team.  --kind selects the unit of the innermost
 * level: ult or tasklet (the outer level of the two-level patterns is always a
 * ULT, since a tasklet cannot join).  Time per pattern execution in
 * microseconds, median of the samples.
 *
 * --patterns for,task_single,task_parallel,nested --threads 1,2,4
 * --kinds ult,tasklet --n 1000, and the common flags of bench/common/bench.h
 * (--json, --csv, --repeats 5, --sample-ms 20). */
#include "bench.h"

#include <abt.h>

#define CHECK(call) BENCH_CHECK("patterns", call)

#define MAX_T 64
enum { K_ULT, K_TASKLET };
static const char *kind_name[2] = { "ult", "tasklet" };
static const char *pattern_name[4] = { "for", "task_single", "task_parallel", "nested" };

static volatile double alpha_v = 1.0;
static double alpha;
static long N;        /* vector length and both loop counts of nested */
static double *vec;   /* N */
static double *mat;   /* N x N */
static ABT_thread *h; /* N handles */
static ABT_pool pools[MAX_T];
static int T;
static int kind;

typedef struct {
    double *a;
    long lo, hi;
    int t;
} range_t;

static void scal_range(void *arg)
{
    range_t *r = (range_t *)arg;
    double *a = r->a;
    for (long i = r->lo; i < r->hi; i++)
        a[i] *= alpha;
}

static void scal_one(void *arg) { *(double *)arg *= alpha; }

static inline void unit_create(int k, ABT_pool pool, void (*fn)(void *), void *arg, ABT_thread *out)
{
    if (k == K_ULT)
        ABT_thread_create(pool, fn, arg, ABT_THREAD_ATTR_NULL, out);
    else
        ABT_task_create(pool, fn, arg, out);
}

static inline void unit_free(int k, ABT_thread *hp)
{
    if (k == K_ULT)
        ABT_thread_free(hp);
    else
        ABT_task_free(hp);
}

static inline void chunk(long n, int parts, int t, long *lo, long *hi)
{
    long base = n / parts, rem = n % parts;
    *lo = t * base + (t < rem ? t : rem);
    *hi = *lo + base + (t < rem ? 1 : 0);
}

/* ---- for ---------------------------------------------------------------- */
static void pattern_for(void)
{
    range_t r[MAX_T];
    ABT_thread th[MAX_T];
    for (int t = 0; t < T; t++) {
        r[t].a = vec;
        chunk(N, T, t, &r[t].lo, &r[t].hi);
        unit_create(kind, pools[t], scal_range, &r[t], &th[t]);
    }
    for (int t = 0; t < T; t++)
        unit_free(kind, &th[t]);
}

/* ---- tasks created in a single region ----------------------------------- */
static void pattern_task_single(void)
{
    int t = 0;
    for (long i = 0; i < N; i++) {
        unit_create(kind, pools[t], scal_one, &vec[i], &h[i]);
        if (++t == T)
            t = 0;
    }
    for (long i = 0; i < N; i++)
        unit_free(kind, &h[i]);
}

/* ---- tasks created in a parallel region --------------------------------- */
static void task_region(void *arg)
{
    range_t *r = (range_t *)arg;
    ABT_pool pool = pools[r->t];
    for (long i = r->lo; i < r->hi; i++)
        unit_create(kind, pool, scal_one, &vec[i], &h[i]);
    for (long i = r->lo; i < r->hi; i++)
        unit_free(kind, &h[i]);
}

static void pattern_task_parallel(void)
{
    range_t r[MAX_T];
    ABT_thread th[MAX_T];
    for (int t = 0; t < T; t++) {
        r[t].t = t;
        chunk(N, T, t, &r[t].lo, &r[t].hi);
        ABT_thread_create(pools[t], task_region, &r[t], ABT_THREAD_ATTR_NULL, &th[t]);
    }
    for (int t = 0; t < T; t++)
        ABT_thread_free(&th[t]);
}

/* ---- nested parallel for ------------------------------------------------ */
static void outer_region(void *arg)
{
    range_t *r = (range_t *)arg;
    range_t in[MAX_T];
    ABT_thread th[MAX_T];
    for (long row = r->lo; row < r->hi; row++) {
        double *a = mat + row * N;
        for (int t = 0; t < T; t++) {
            in[t].a = a;
            chunk(N, T, t, &in[t].lo, &in[t].hi);
            unit_create(kind, pools[t], scal_range, &in[t], &th[t]);
        }
        for (int t = 0; t < T; t++)
            unit_free(kind, &th[t]);
    }
}

static void pattern_nested(void)
{
    range_t r[MAX_T];
    ABT_thread th[MAX_T];
    for (int t = 0; t < T; t++) {
        chunk(N, T, t, &r[t].lo, &r[t].hi);
        ABT_thread_create(pools[t], outer_region, &r[t], ABT_THREAD_ATTR_NULL, &th[t]);
    }
    for (int t = 0; t < T; t++)
        ABT_thread_free(&th[t]);
}

static void (*const pattern_fn[4])(void) = { pattern_for, pattern_task_single,
                                             pattern_task_parallel, pattern_nested };

int main(int argc, char **argv)
{
    bench_t b;
    bench_init(&b, argc, argv, 20.0,
               "[--patterns for,task_single,task_parallel,nested]\n"
               "          [--threads 1,2,4] [--kinds ult,tasklet] [--n 1000]\n");
    const bench_args_t *a = &b.args;
    const char *pats = bench_opt(a, "--patterns");
    const char *kinds = bench_opt(a, "--kinds");
    long threads[16];
    int nthreads = bench_opt_list(a, "--threads", "1,2,4", threads, 16);
    N = bench_opt_long(a, "--n", 1000);
    int repeats = b.repeats;
    alpha = alpha_v;

    vec = (double *)malloc(sizeof(double) * (size_t)N);
    mat = (double *)malloc(sizeof(double) * (size_t)N * (size_t)N);
    h = (ABT_thread *)calloc((size_t)N, sizeof(ABT_thread));
    for (long i = 0; i < N; i++)
        vec[i] = 1.0 + (double)i;
    for (long i = 0; i < N * N; i++)
        mat[i] = 1.0;

    CHECK(ABT_init(0, NULL));
    ABT_xstream xs[MAX_T];
    CHECK(ABT_xstream_self(&xs[0]));
    CHECK(ABT_xstream_get_main_pools(xs[0], 1, &pools[0]));

    if (!b.machine)
        printf("patterns (%s): OpenMP code patterns with scal on %ld elements, us per "
               "execution (median of %d)\n\n  pattern        kind     threads        us\n",
               BENCH_IMPL_NAME, N, repeats);
    for (int ti = 0; ti < nthreads; ti++) {
        T = (int)threads[ti];
        if (T < 1 || T > MAX_T)
            continue;
        for (int t = 1; t < T; t++) {
            CHECK(ABT_xstream_create(ABT_SCHED_NULL, &xs[t]));
            CHECK(ABT_xstream_get_main_pools(xs[t], 1, &pools[t]));
        }
        for (int p = 0; p < 4; p++) {
            if (!bench_in_list(pats, pattern_name[p]))
                continue;
            for (int k = 0; k < 2; k++) {
                if (!bench_in_list(kinds, kind_name[k]))
                    continue;
                kind = k;
                double v[BENCH_MAX_REPEATS];
                BENCH_MEASURE(&b, v, 1e3, pattern_fn[p]()); /* us per execution */
                if (b.machine) {
                    char f[160];
                    bench_fields(f, sizeof f,
                                 "\"pattern\":\"%s\",\"kind\":\"%s\",\"threads\":%d,\"n\":%ld",
                                 pattern_name[p], kind_name[k], T, N);
                    bench_result(&b, "patterns", f, "time", "us", v, repeats);
                } else {
                    printf("  %-14s %-8s %7d %9.2f\n", pattern_name[p], kind_name[k], T,
                           bench_median(v, repeats));
                    fflush(stdout);
                }
            }
        }
        for (int t = 1; t < T; t++) {
            CHECK(ABT_xstream_join(xs[t]));
            CHECK(ABT_xstream_free(&xs[t]));
        }
    }
    CHECK(ABT_finalize());
    free(vec);
    free(mat);
    free(h);
    return 0;
}
