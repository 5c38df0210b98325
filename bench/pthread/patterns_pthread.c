/* patterns_pthread - Pthreads version of the four OpenMP code patterns with
 * scal (see bench/abt/patterns.c), as in the paper's Section 5.1: one OS
 * thread per work unit, and the process restricted to min(T, CPUs) CPUs (the
 * paper's taskset):
 *   for            T threads, one chunk each
 *   task_single    the main thread creates one thread per element (1,000)
 *   task_parallel  T threads, each creating one thread per element of its chunk
 *   nested         T threads over the rows; every row forks T threads over
 *                  the columns
 * --patterns ... --threads 1,2 --n 1000, and the common flags of
 * bench/common/bench.h (--json, --csv, --repeats 5, --sample-ms 20). */
#include "bench.h"

#include <pthread.h>
#include <sched.h>

#define MAX_T 64
static const char *pattern_name[4] = { "for", "task_single", "task_parallel", "nested" };
static volatile double alpha_v = 1.0;
static double alpha;
static long N;
static double *vec, *mat;
static pthread_t *th;
static int T;

typedef struct {
    double *a;
    long lo, hi;
} range_t;

static void chunk(long n, int parts, int t, long *lo, long *hi)
{
    long base = n / parts, rem = n % parts;
    *lo = t * base + (t < rem ? t : rem);
    *hi = *lo + base + (t < rem ? 1 : 0);
}

static void *scal_range(void *arg)
{
    range_t *r = (range_t *)arg;
    for (long i = r->lo; i < r->hi; i++)
        r->a[i] *= alpha;
    return NULL;
}

static void *scal_one(void *arg)
{
    *(double *)arg *= alpha;
    return NULL;
}

static void spawn(pthread_t *t, void *(*fn)(void *), void *arg)
{
    while (pthread_create(t, NULL, fn, arg) != 0)
        sched_yield(); /* transient EAGAIN under heavy oversubscription */
}

static void pattern_for(void)
{
    range_t r[MAX_T];
    pthread_t t[MAX_T];
    for (int i = 0; i < T; i++) {
        r[i].a = vec;
        chunk(N, T, i, &r[i].lo, &r[i].hi);
        spawn(&t[i], scal_range, &r[i]);
    }
    for (int i = 0; i < T; i++)
        pthread_join(t[i], NULL);
}

static void pattern_task_single(void)
{
    for (long i = 0; i < N; i++)
        spawn(&th[i], scal_one, &vec[i]);
    for (long i = 0; i < N; i++)
        pthread_join(th[i], NULL);
}

static void *task_region(void *arg)
{
    range_t *r = (range_t *)arg;
    for (long i = r->lo; i < r->hi; i++)
        spawn(&th[i], scal_one, &vec[i]);
    for (long i = r->lo; i < r->hi; i++)
        pthread_join(th[i], NULL);
    return NULL;
}

static void pattern_task_parallel(void)
{
    range_t r[MAX_T];
    pthread_t t[MAX_T];
    for (int i = 0; i < T; i++) {
        chunk(N, T, i, &r[i].lo, &r[i].hi);
        spawn(&t[i], task_region, &r[i]);
    }
    for (int i = 0; i < T; i++)
        pthread_join(t[i], NULL);
}

static void *outer_region(void *arg)
{
    range_t *r = (range_t *)arg;
    range_t in[MAX_T];
    pthread_t t[MAX_T];
    for (long row = r->lo; row < r->hi; row++) {
        for (int i = 0; i < T; i++) {
            in[i].a = mat + row * N;
            chunk(N, T, i, &in[i].lo, &in[i].hi);
            spawn(&t[i], scal_range, &in[i]);
        }
        for (int i = 0; i < T; i++)
            pthread_join(t[i], NULL);
    }
    return NULL;
}

static void pattern_nested(void)
{
    range_t r[MAX_T];
    pthread_t t[MAX_T];
    for (int i = 0; i < T; i++) {
        chunk(N, T, i, &r[i].lo, &r[i].hi);
        spawn(&t[i], outer_region, &r[i]);
    }
    for (int i = 0; i < T; i++)
        pthread_join(t[i], NULL);
}

static void (*const pattern_fn[4])(void) = { pattern_for, pattern_task_single,
                                             pattern_task_parallel, pattern_nested };

int main(int argc, char **argv)
{
    bench_t b;
    bench_init(&b, argc, argv, 20.0,
               "[--patterns for,task_single,task_parallel,nested] [--threads 1,2]\n"
               "          [--n 1000]\n");
    const bench_args_t *a = &b.args;
    const char *pats = bench_opt(a, "--patterns");
    long threads[16];
    int nthreads = bench_opt_list(a, "--threads", "1,2", threads, 16);
    N = bench_opt_long(a, "--n", 1000);
    int repeats = b.repeats;
    alpha = alpha_v;
    vec = (double *)malloc(sizeof(double) * (size_t)N);
    mat = (double *)malloc(sizeof(double) * (size_t)N * (size_t)N);
    th = (pthread_t *)calloc((size_t)N, sizeof(pthread_t));
    for (long i = 0; i < N; i++)
        vec[i] = 1.0 + (double)i;
    for (long i = 0; i < N * N; i++)
        mat[i] = 1.0;
    cpu_set_t all;
    sched_getaffinity(0, sizeof all, &all);

    if (!b.machine)
        printf("patterns_pthread: scal on %ld elements, us per execution (median of %d)\n\n"
               "  pattern        threads        us\n",
               N, repeats);
    for (int ti = 0; ti < nthreads; ti++) {
        T = (int)threads[ti];
        if (T < 1 || T > MAX_T)
            continue;
        /* restrict to min(T, available) CPUs, like the paper's taskset */
        cpu_set_t set;
        CPU_ZERO(&set);
        int got = 0;
        for (int c = 0; c < CPU_SETSIZE && got < T; c++)
            if (CPU_ISSET(c, &all)) {
                CPU_SET(c, &set);
                got++;
            }
        sched_setaffinity(0, sizeof set, &set);
        for (int p = 0; p < 4; p++) {
            if (!bench_in_list(pats, pattern_name[p]))
                continue;
            double v[BENCH_MAX_REPEATS];
            BENCH_MEASURE(&b, v, 1e3, pattern_fn[p]()); /* us per execution */
            if (b.machine) {
                char f[160];
                bench_fields(f, sizeof f,
                             "\"pattern\":\"%s\",\"kind\":\"pthread\",\"threads\":%d,\"n\":%ld",
                             pattern_name[p], T, N);
                bench_result(&b, "patterns", f, "time", "us", v, repeats);
            } else {
                printf("  %-14s %7d %9.2f\n", pattern_name[p], T, bench_median(v, repeats));
                fflush(stdout);
            }
        }
    }
    sched_setaffinity(0, sizeof all, &all);
    free(vec);
    free(mat);
    free(th);
    return 0;
}
