/* patterns_omp - OpenMP version of bench/abt/patterns.c, the four code patterns
 * of "Analysis of threading libraries for high performance computing" with the
 * BLAS-1 scal kernel, written with pragmas and compiled by GCC (libgomp,
 * patterns_gomp) and Clang (LLVM libomp, patterns_libomp):
 *   for            #pragma omp parallel for schedule(static) over 1,000
 *   task_single    parallel + single: one thread creates 1,000 tasks
 *   task_parallel  parallel + for: every thread creates the tasks of its chunk
 *   nested         parallel for over 1,000 rows, each with a nested parallel
 *                  for over 1,000 columns (max-active-levels 2)
 * T = num_threads of every parallel region.  Time per pattern execution in
 * microseconds; the runtime's own defaults otherwise (wait policy, binding).
 * --patterns ... --threads 1,2 --n 1000, and the common flags of
 * bench/common/bench.h (--json, --csv, --repeats 5, --sample-ms 20). */
#include "bench.h"

#include <omp.h>

static const char *pattern_name[4] = { "for", "task_single", "task_parallel", "nested" };
static volatile double alpha_v = 1.0;
static double alpha;
static long N;
static double *vec, *mat;
static int T;

static void pattern_for(void)
{
    double *a = vec;
    double al = alpha;
    long n = N;
#pragma omp parallel for num_threads(T) schedule(static)
    for (long i = 0; i < n; i++)
        a[i] *= al;
}

static void pattern_task_single(void)
{
    double *a = vec;
    double al = alpha;
    long n = N;
#pragma omp parallel num_threads(T)
    {
#pragma omp single
        {
            for (long i = 0; i < n; i++) {
#pragma omp task firstprivate(i)
                a[i] *= al;
            }
        }
    }
}

static void pattern_task_parallel(void)
{
    double *a = vec;
    double al = alpha;
    long n = N;
#pragma omp parallel num_threads(T)
    {
#pragma omp for schedule(static)
        for (long i = 0; i < n; i++) {
#pragma omp task firstprivate(i)
            a[i] *= al;
        }
    }
}

static void pattern_nested(void)
{
    double *m = mat;
    double al = alpha;
    long n = N;
    int t = T;
#pragma omp parallel for num_threads(t) schedule(static)
    for (long row = 0; row < n; row++) {
        double *a = m + row * n;
#pragma omp parallel for num_threads(t) schedule(static)
        for (long j = 0; j < n; j++)
            a[j] *= al;
    }
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
    for (long i = 0; i < N; i++)
        vec[i] = 1.0 + (double)i;
    for (long i = 0; i < N * N; i++)
        mat[i] = 1.0;
    omp_set_max_active_levels(2);

    if (!b.machine)
        printf("patterns_omp (%s): OpenMP code patterns with scal on %ld elements, us per "
               "execution (median of %d)\n\n  pattern        threads        us\n",
               BENCH_IMPL_NAME, N, repeats);
    for (int ti = 0; ti < nthreads; ti++) {
        T = (int)threads[ti];
        if (T < 1)
            continue;
        for (int p = 0; p < 4; p++) {
            if (!bench_in_list(pats, pattern_name[p]))
                continue;
            double v[BENCH_MAX_REPEATS];
            BENCH_MEASURE(&b, v, 1e3, pattern_fn[p]()); /* us per execution */
            if (b.machine) {
                char f[160];
                bench_fields(f, sizeof f,
                             "\"pattern\":\"%s\",\"kind\":\"omp\",\"threads\":%d,\"n\":%ld",
                             pattern_name[p], T, N);
                bench_result(&b, "patterns", f, "time", "us", v, repeats);
            } else {
                printf("  %-14s %7d %9.2f\n", pattern_name[p], T, bench_median(v, repeats));
                fflush(stdout);
            }
        }
    }
    free(vec);
    free(mat);
    return 0;
}
