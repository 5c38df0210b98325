// patterns_tbb - oneTBB version of the four OpenMP code patterns with scal
// (see bench/abt/patterns.c), in a task_arena of T threads:
//   for            parallel_for over 1,000 with a static_partitioner
//   task_single    one task_group, the caller runs one task per element
//   task_parallel  parallel_for over T chunks (static), every chunk runs a
//                  task_group with one task per element
//   nested         parallel_for over rows with a nested parallel_for over
//                  columns (both static_partitioner)
// --patterns ... --threads 1,2 --n 1000, and the common flags of
// bench/common/bench.h (--json, --csv, --repeats 5, --sample-ms 20)
#include "bench.h"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

static const char *pattern_name[4] = { "for", "task_single", "task_parallel", "nested" };
static volatile double alpha_v = 1.0;
static double alpha;
static long N;
static double *vec, *mat;
static int T;

static void pattern_for()
{
    tbb::parallel_for(
        tbb::blocked_range<long>(0, N),
        [](const tbb::blocked_range<long> &r) {
            for (long i = r.begin(); i < r.end(); i++)
                vec[i] *= alpha;
        },
        tbb::static_partitioner());
}

static void pattern_task_single()
{
    tbb::task_group g;
    for (long i = 0; i < N; i++)
        g.run([i] { vec[i] *= alpha; });
    g.wait();
}

static void pattern_task_parallel()
{
    tbb::parallel_for(
        0, T,
        [](int t) {
            long base = N / T, rem = N % T;
            long lo = t * base + (t < rem ? t : rem);
            long hi = lo + base + (t < rem ? 1 : 0);
            tbb::task_group g;
            for (long i = lo; i < hi; i++)
                g.run([i] { vec[i] *= alpha; });
            g.wait();
        },
        tbb::static_partitioner());
}

static void pattern_nested()
{
    tbb::parallel_for(
        tbb::blocked_range<long>(0, N),
        [](const tbb::blocked_range<long> &rows) {
            for (long row = rows.begin(); row < rows.end(); row++) {
                double *a = mat + row * N;
                tbb::parallel_for(
                    tbb::blocked_range<long>(0, N),
                    [a](const tbb::blocked_range<long> &c) {
                        for (long j = c.begin(); j < c.end(); j++)
                            a[j] *= alpha;
                    },
                    tbb::static_partitioner());
            }
        },
        tbb::static_partitioner());
}

static void (*const pattern_fn[4])() = { pattern_for, pattern_task_single, pattern_task_parallel,
                                         pattern_nested };

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
    long tmax = 1;
    for (int i = 0; i < nthreads; i++)
        if (threads[i] > tmax)
            tmax = threads[i];
    tbb::global_control gc(tbb::global_control::max_allowed_parallelism, (size_t)tmax);

    if (!b.machine)
        printf("patterns_tbb (oneTBB): scal on %ld elements, us per execution (median of "
               "%d)\n\n  pattern        threads        us\n",
               N, repeats);
    for (int ti = 0; ti < nthreads; ti++) {
        T = (int)threads[ti];
        if (T < 1)
            continue;
        tbb::task_arena arena(T, 1);
        arena.initialize();
        for (int p = 0; p < 4; p++) {
            if (!bench_in_list(pats, pattern_name[p]))
                continue;
            double v[BENCH_MAX_REPEATS];
            /* us per execution */
            arena.execute([&] { BENCH_MEASURE(&b, v, 1e3, pattern_fn[p]()); });
            if (b.machine) {
                char f[160];
                bench_fields(f, sizeof f,
                             "\"pattern\":\"%s\",\"kind\":\"tbb\",\"threads\":%d,\"n\":%ld",
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
