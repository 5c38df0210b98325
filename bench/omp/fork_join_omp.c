/* fork_join_omp - OpenMP twin of bench/abt/fork_join.c: N empty explicit tasks
 * created and waited for (#pragma omp task / taskwait).  The same source is
 * compiled by GCC (libgomp, fork_join_gomp) and by Clang (LLVM libomp,
 * fork_join_libomp).
 *   1 stream            a team of 1 thread creates N tasks and waits for them
 *   2 streams, "one"    a team of 2; one thread (single region) creates the N
 *                       tasks, the team executes them
 *   2 streams, "each"   a team of 2; every thread creates its own N tasks
 * The team is formed once per sample, outside the timed rounds, as the
 * execution streams of the ULT version are.  Phases: create (the task loop;
 * OpenMP runtimes may run a task immediately past their queue cutoff) and join
 * (taskwait); there is no separate free.
 *
 * --n 256,4096 --streams 1,2 --modes one,each, and the common flags of
 * bench/common/bench.h (--json, --csv, --repeats 5, --sample-ms 10). */
#include "bench.h"

#include <omp.h>

__attribute__((noinline)) static void empty_fn(void *arg)
{
    __asm__ __volatile__("" ::"r"(arg) : "memory");
}

static bench_t bench; /* the common flags (bench/common/bench.h) */

/* rounds of N tasks on the calling thread (cut short past BENCH_CAP_FACTOR x
 * the sample target); acc: create ns, join ns, rounds done */
static void rounds_of_tasks(long n, long rounds, double *acc)
{
    uint64_t start = bench_now_ns();
    for (long k = 0; k < rounds; k++) {
        uint64_t t0 = bench_now_ns();
        for (long i = 0; i < n; i++) {
#pragma omp task
            empty_fn(NULL);
        }
        uint64_t t1 = bench_now_ns();
#pragma omp taskwait
        uint64_t t2 = bench_now_ns();
        acc[0] += (double)(t1 - t0);
        acc[1] += (double)(t2 - t1);
        acc[2] += 1;
        if (t2 - start > bench_cap_ns(bench.target_ns))
            break;
    }
}

/* One sample: returns ns per unit for create and join (mean over creators). */
static void sample(long n, int streams, int each, long rounds, double *create, double *join)
{
    double acc[2][3] = { { 0, 0, 0 }, { 0, 0, 0 } };
    if (!each) {
#pragma omp parallel num_threads(streams)
        {
#pragma omp single
            rounds_of_tasks(n, rounds, acc[0]);
        }
        *create = acc[0][0] / (acc[0][2] * (double)n);
        *join = acc[0][1] / (acc[0][2] * (double)n);
    } else {
#pragma omp parallel num_threads(streams)
        {
            int me = omp_get_thread_num();
#pragma omp barrier
            rounds_of_tasks(n, rounds, acc[me]);
        }
        *create = 0.5 * (acc[0][0] / acc[0][2] + acc[1][0] / acc[1][2]) / (double)n;
        *join = 0.5 * (acc[0][1] / acc[0][2] + acc[1][1] / acc[1][2]) / (double)n;
    }
}

int main(int argc, char **argv)
{
    bench_init(&bench, argc, argv, 10.0, "[--n 256,4096] [--streams 1,2] [--modes one,each]\n");
    const bench_args_t *a = &bench.args;
    long ns[16], streams[4];
    int nn = bench_opt_list(a, "--n", "256,4096", ns, 16);
    int nstreams = bench_opt_list(a, "--streams", "1,2", streams, 4);
    const char *modes = bench_opt(a, "--modes");
    int repeats = bench.repeats;

    if (!bench.machine)
        printf("fork_join_omp (%s): N empty OpenMP tasks, ns per task (median of %d)\n\n"
               "     N  streams  mode   create    join   total\n",
               BENCH_IMPL_NAME, repeats);
    for (int s = 0; s < nstreams; s++) {
        int st = (int)streams[s];
        if (st < 1 || st > 2)
            continue;
        for (int each = 0; each < 2; each++) {
            const char *mode = st == 1 ? "-" : each ? "each" : "one";
            if (st == 1 && each)
                continue;
            if (st == 2 && !bench_in_list(modes, mode))
                continue;
            for (int i = 0; i < nn; i++) {
                long n = ns[i];
                double c, j;
                long rounds;
                BENCH_CALIBRATE(bench.target_ns, rounds, sample(n, st, each, 1, &c, &j));
                double v[3][BENCH_MAX_REPEATS];
                for (int r = 0; r < repeats; r++) {
                    sample(n, st, each, rounds, &c, &j);
                    v[1][r] = c;
                    v[2][r] = j;
                    v[0][r] = c + j;
                }
                if (bench.machine) {
                    char f[160];
                    bench_fields(f, sizeof f,
                                 "\"kind\":\"task\",\"n\":%ld,\"streams\":%d,\"mode\":\"%s\"", n,
                                 st, mode);
                    bench_result(&bench, "fork_join", f, "total", "ns_per_unit", v[0], repeats);
                    bench_result(&bench, "fork_join", f, "create", "ns_per_unit", v[1], repeats);
                    bench_result(&bench, "fork_join", f, "join", "ns_per_unit", v[2], repeats);
                } else {
                    printf("%6ld  %7d  %-5s %7.1f %7.1f %7.1f\n", n, st, mode,
                           bench_median(v[1], repeats), bench_median(v[2], repeats),
                           bench_median(v[0], repeats));
                }
            }
        }
    }
    return 0;
}
