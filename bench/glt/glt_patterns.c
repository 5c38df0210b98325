/* glt_patterns - the four OpenMP code patterns of "Analysis of threading libraries for
 * high performance computing" and GLT's nested create/join benchmark, written once in
 * GLT and built three ways (bench/CMakeLists.txt):
 *   glt_patterns_lib    #include <glt.h>, linked to libweft-glt (library build)
 *   glt_patterns_fast   -DFASTGLT: header-only GLT, linked to libweft only
 *   glt_patterns_abt    -DGLT_BENCH_NATIVE: the same pattern through abt.h directly
 *                       (the macros below: each GLT call replaced by the abt.h call a
 *                       native program makes; the team's pools in a local array, as
 *                       bench/abt/patterns.c keeps them)
 * Patterns (T = GLT threads, N = --n, the scal kernel x[i] *= alpha):
 *   for            N iterations in T chunks, one unit per thread (create_to(t))
 *   task_single    one creator, one unit per element, round-robin over the threads
 *   task_parallel  one ULT per thread, each creating one unit per element of its chunk
 *                  in its own thread (glt_ult_create)
 *   nested         N x N: one ULT per thread over the rows, each row forks T units over
 *                  the columns
 *   nested_cj      GLT's test/performance: one ULT per thread, each creating --m units
 *                  on its own thread (create_to(glt_get_thread_num())) and joining them
 * Every unit is created, joined and freed (glt_ult_join + glt_ult_free).  --empty makes
 * the kernel do nothing (only the threading cost remains).
 *
 *   glt_patterns_X [--patterns LIST] [--kinds ult,tasklet] [--threads T] [--n 1000]
 *                  [--m 250] [--empty] + bench.h's common flags
 *   glt_patterns_X --callgrind PATTERN --kinds KIND --iters I [--threads T] [--empty]
 *                  runs the pattern I times untimed, for `valgrind --tool=callgrind`:
 *                  scripts/glt_insn_counts.sh subtracts two iteration counts. */
#include "bench.h"

#ifdef GLT_BENCH_NATIVE
#include <abt.h>
#else
#include <glt.h>
#endif

#define MAX_T 64
enum { K_ULT, K_TASKLET };
static const char *kind_name[2] = { "ult", "tasklet" };
static const char *pattern_name[5] = { "for", "task_single", "task_parallel", "nested",
                                       "nested_cj" };

/* ---- the one place where GLT and native abt.h differ ------------------------------ */
#ifdef GLT_BENCH_NATIVE
#define IMPL "abt.h"
typedef ABT_thread unit_t;
static ABT_pool pools[MAX_T];
static ABT_xstream xstreams[MAX_T];
static int team_n;
/* here(t): the caller runs on thread t and knows it (a native program passes it along) */
#define ULT_CREATE_TO(f, a, h, t)    ABT_thread_create(pools[t], f, a, ABT_THREAD_ATTR_NULL, h)
#define ULT_CREATE_HERE(f, a, h, t)  ABT_thread_create(pools[t], f, a, ABT_THREAD_ATTR_NULL, h)
#define TASK_CREATE_TO(f, a, h, t)   ABT_task_create(pools[t], f, a, h)
#define TASK_CREATE_HERE(f, a, h, t) ABT_task_create(pools[t], f, a, h)
#define ULT_JOIN(h)                  ABT_thread_join(*(h))
#define ULT_FREE(h)                  ABT_thread_free(h)
#define TASK_JOIN(h)                 ABT_task_join(*(h))
#define TASK_FREE(h)                 ABT_task_free(h)
#define NUM_THREADS()                team_n
static inline int thread_num(void)
{
    int r = -1;
    ABT_xstream_self_rank(&r);
    return r;
}
static int team_init(int argc, char **argv)
{
    const char *s = getenv("GLT_NUM_THREADS");
    team_n = s ? atoi(s) : 1;
    if (team_n < 1 || team_n > MAX_T)
        return ABT_ERR_INV_ARG;
    int r = ABT_init(argc, argv);
    if (r != ABT_SUCCESS)
        return r;
    for (int i = 0; i < team_n && r == ABT_SUCCESS; i++)
        r = ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]);
    for (int i = 1; i < team_n && r == ABT_SUCCESS; i++)
        r = ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 1, &pools[i], ABT_SCHED_CONFIG_NULL,
                                     &xstreams[i]);
    if (r == ABT_SUCCESS && (r = ABT_xstream_self(&xstreams[0])) == ABT_SUCCESS)
        r = ABT_xstream_set_main_sched_basic(xstreams[0], ABT_SCHED_DEFAULT, 1, &pools[0]);
    return r;
}
static int team_finalize(void)
{
    for (int i = 1; i < team_n; i++)
        ABT_xstream_free(&xstreams[i]);
    return ABT_finalize();
}
#else
#ifdef FASTGLT
#define IMPL "glt-header-only"
#else
#define IMPL "glt-library"
#endif
typedef GLT_ult unit_t;
#define ULT_CREATE_TO(f, a, h, t)    glt_ult_create_to(f, a, h, t)
#define ULT_CREATE_HERE(f, a, h, t)  glt_ult_create(f, a, h)
#define TASK_CREATE_TO(f, a, h, t)   glt_tasklet_create_to(f, a, h, t)
#define TASK_CREATE_HERE(f, a, h, t) glt_tasklet_create(f, a, h)
#define ULT_JOIN(h)                  glt_ult_join(h)
#define ULT_FREE(h)                  glt_ult_free(h)
#define TASK_JOIN(h)                 glt_tasklet_join(h)
#define TASK_FREE(h)                 glt_tasklet_free(h)
#define NUM_THREADS()                glt_get_num_threads()
#define thread_num()                 glt_get_thread_num()
#define team_init(argc, argv)        glt_init(argc, argv)
#define team_finalize()              glt_finalize()
#endif

#undef CHECK /* glt.h's CHECK(x, y) of the original API */
#define CHECK(call) BENCH_CHECK("glt_patterns", call)

static volatile double alpha_v = 1.0;
static double alpha;
static long N, M;
static int T, kind, empty;
static double *vec, *mat;
static unit_t *h; /* N handles (task patterns), T*M (nested_cj) */

typedef struct {
    double *a;
    long lo, hi;
    int t;
} range_t;

static void scal_range(void *arg)
{
    range_t *r = (range_t *)arg;
    if (empty)
        return;
    double *a = r->a;
    for (long i = r->lo; i < r->hi; i++)
        a[i] *= alpha;
}

static void scal_one(void *arg)
{
    if (!empty)
        *(double *)arg *= alpha;
}

static inline void create_to(void (*f)(void *), void *a, unit_t *hp, int t)
{
    if (kind == K_ULT)
        CHECK(ULT_CREATE_TO(f, a, hp, t));
    else
        CHECK(TASK_CREATE_TO(f, a, hp, t));
}

static inline void create_here(void (*f)(void *), void *a, unit_t *hp, int t)
{
    (void)t;
    if (kind == K_ULT)
        CHECK(ULT_CREATE_HERE(f, a, hp, t));
    else
        CHECK(TASK_CREATE_HERE(f, a, hp, t));
}

static inline void join_free(unit_t *hp)
{
    if (kind == K_ULT) {
        CHECK(ULT_JOIN(hp));
        CHECK(ULT_FREE(hp));
    } else {
        CHECK(TASK_JOIN(hp));
        CHECK(TASK_FREE(hp));
    }
}

/* outer ULTs are always ULTs (a tasklet cannot join) */
static inline void outer_create(void (*f)(void *), void *a, unit_t *hp, int t)
{
    CHECK(ULT_CREATE_TO(f, a, hp, t));
}
static inline void outer_join_free(unit_t *hp)
{
    CHECK(ULT_JOIN(hp));
    CHECK(ULT_FREE(hp));
}

static inline void chunk(long n, int parts, int t, long *lo, long *hi)
{
    long base = n / parts, rem = n % parts;
    *lo = t * base + (t < rem ? t : rem);
    *hi = *lo + base + (t < rem ? 1 : 0);
}

static void pattern_for(void)
{
    range_t r[MAX_T];
    unit_t th[MAX_T];
    for (int t = 0; t < T; t++) {
        r[t].a = vec;
        chunk(N, T, t, &r[t].lo, &r[t].hi);
        create_to(scal_range, &r[t], &th[t], t);
    }
    for (int t = 0; t < T; t++)
        join_free(&th[t]);
}

static void pattern_task_single(void)
{
    int t = 0;
    for (long i = 0; i < N; i++) {
        create_to(scal_one, &vec[i], &h[i], t);
        if (++t == T)
            t = 0;
    }
    for (long i = 0; i < N; i++)
        join_free(&h[i]);
}

static void task_region(void *arg)
{
    range_t *r = (range_t *)arg;
    for (long i = r->lo; i < r->hi; i++)
        create_here(scal_one, &vec[i], &h[i], r->t);
    for (long i = r->lo; i < r->hi; i++)
        join_free(&h[i]);
}

static void pattern_task_parallel(void)
{
    range_t r[MAX_T];
    unit_t th[MAX_T];
    for (int t = 0; t < T; t++) {
        r[t].t = t;
        chunk(N, T, t, &r[t].lo, &r[t].hi);
        outer_create(task_region, &r[t], &th[t], t);
    }
    for (int t = 0; t < T; t++)
        outer_join_free(&th[t]);
}

static void outer_rows(void *arg)
{
    range_t *r = (range_t *)arg;
    range_t in[MAX_T];
    unit_t th[MAX_T];
    for (long row = r->lo; row < r->hi; row++) {
        double *a = mat + row * N;
        for (int t = 0; t < T; t++) {
            in[t].a = a;
            chunk(N, T, t, &in[t].lo, &in[t].hi);
            create_to(scal_range, &in[t], &th[t], t);
        }
        for (int t = 0; t < T; t++)
            join_free(&th[t]);
    }
}

static void pattern_nested(void)
{
    range_t r[MAX_T];
    unit_t th[MAX_T];
    for (int t = 0; t < T; t++) {
        chunk(N, T, t, &r[t].lo, &r[t].hi);
        outer_create(outer_rows, &r[t], &th[t], t);
    }
    for (int t = 0; t < T; t++)
        outer_join_free(&th[t]);
}

/* GLT's nested create/join: each outer ULT creates M units on its own thread */
static void cj_outer(void *arg)
{
    range_t *r = (range_t *)arg;
    int me = thread_num();
    unit_t *hh = h + (long)r->t * M;
    for (long k = 0; k < M; k++)
        create_to(scal_one, &vec[(r->t * M + k) % N], &hh[k], me);
    for (long k = 0; k < M; k++)
        join_free(&hh[k]);
}

static void pattern_nested_cj(void)
{
    range_t r[MAX_T];
    unit_t th[MAX_T];
    for (int t = 0; t < T; t++) {
        r[t].t = t;
        outer_create(cj_outer, &r[t], &th[t], t);
    }
    for (int t = 0; t < T; t++)
        outer_join_free(&th[t]);
}

static void (*const pattern_fn[5])(void) = { pattern_for, pattern_task_single,
                                             pattern_task_parallel, pattern_nested,
                                             pattern_nested_cj };

int main(int argc, char **argv)
{
    bench_t b;
    bench_init(&b, argc, argv, 20.0,
               "[--patterns for,task_single,task_parallel,nested,nested_cj]\n"
               "          [--kinds ult,tasklet] [--threads T] [--n 1000] [--m 250] [--empty]\n"
               "       %s --callgrind PATTERN --kinds KIND --iters I [--threads T] [--empty]\n");
    const bench_args_t *a = &b.args;
    const char *pats = bench_opt(a, "--patterns");
    const char *kinds = bench_opt(a, "--kinds");
    const char *cg = bench_opt(a, "--callgrind");
    N = bench_opt_long(a, "--n", 1000);
    M = bench_opt_long(a, "--m", 250);
    long threads = bench_opt_long(a, "--threads", 1);
    empty = bench_flag(a, "--empty");
    if (threads < 1 || threads > MAX_T || N < 1 || M < 1) {
        fprintf(stderr, "glt_patterns: --threads 1..%d, --n and --m positive\n", MAX_T);
        return 2;
    }
    char tbuf[16];
    snprintf(tbuf, sizeof tbuf, "%ld", threads);
    setenv("GLT_NUM_THREADS", tbuf, 1); /* the team of every build */
    setenv("GLT_NUM_POOLS", tbuf, 1);
    unsetenv("GLTO_NUM_THREADS");
    alpha = alpha_v;
    vec = (double *)malloc(sizeof(double) * (size_t)N);
    mat = (double *)malloc(sizeof(double) * (size_t)N * (size_t)N);
    long nh = N > threads * M ? N : threads * M;
    h = (unit_t *)calloc((size_t)nh, sizeof(unit_t));
    if (!vec || !mat || !h) {
        fprintf(stderr, "glt_patterns: out of memory\n");
        return 1;
    }
    for (long i = 0; i < N; i++)
        vec[i] = 1.0 + (double)i;
    for (long i = 0; i < N * N; i++)
        mat[i] = 1.0;

    CHECK(team_init(argc, argv));
    T = NUM_THREADS();
    if (cg) {
        int p = -1;
        for (int i = 0; i < 5; i++)
            if (strcmp(cg, pattern_name[i]) == 0)
                p = i;
        kind = kinds && strcmp(kinds, "tasklet") == 0 ? K_TASKLET : K_ULT;
        long iters = bench_opt_long(a, "--iters", 10);
        if (p < 0) {
            fprintf(stderr, "glt_patterns: unknown pattern %s\n", cg);
            return 2;
        }
        for (long k = 0; k < iters; k++)
            pattern_fn[p]();
    } else {
        int repeats = b.repeats;
        if (!b.machine)
            printf("glt_patterns (%s): N=%ld, M=%ld, %d threads%s, us per execution (median "
                   "of %d)\n\n  pattern        kind          us\n",
                   IMPL, N, M, T, empty ? ", empty kernel" : "", repeats);
        for (int p = 0; p < 5; p++) {
            if (!bench_in_list(pats, pattern_name[p]))
                continue;
            for (int k = 0; k < 2; k++) {
                if (!bench_in_list(kinds, kind_name[k]))
                    continue;
                kind = k;
                double v[BENCH_MAX_REPEATS];
                BENCH_MEASURE(&b, v, 1e3, pattern_fn[p]());
                if (b.machine) {
                    char f[200];
                    bench_fields(f, sizeof f,
                                 "\"pattern\":\"%s\",\"kind\":\"%s\",\"threads\":%d,\"n\":%ld,"
                                 "\"build\":\"%s\",\"empty\":%d",
                                 pattern_name[p], kind_name[k], T, N, IMPL, empty);
                    bench_result(&b, "glt_patterns", f, "time", "us", v, repeats);
                } else {
                    printf("  %-14s %-8s %9.2f\n", pattern_name[p], kind_name[k],
                           bench_median(v, repeats));
                    fflush(stdout);
                }
            }
        }
    }
    CHECK(team_finalize());
    free(vec);
    free(mat);
    free(h);
    return 0;
}
