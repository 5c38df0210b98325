/* yield_omp - OpenMP twin of bench/abt/yield.c: two explicit tasks per thread
 * each loop K times over "#pragma omp taskyield"; 1 thread, or 2 threads each
 * with its own pair.  Caveat, and the reason this line is drawn apart in the
 * plots: OpenMP has no ULT-style yield.  libgomp's taskyield is a no-op, and
 * libomp's may run a queued sibling on top of the current task's stack but
 * cannot switch back and forth between the two, so this measures the cost of
 * the taskyield scheduling point, not a ping-pong context switch.
 * --streams 1,2, and the common flags of bench/common/bench.h (--json, --csv,
 * --repeats 5, --sample-ms 10). */
#include "bench.h"

#include <omp.h>

static bench_t bench; /* the common flags (bench/common/bench.h) */

static double pair_run(int streams, long iters)
{
    uint64_t cap = bench_cap_ns(bench.target_ns);
    double per[2] = { 0, 0 };
#pragma omp parallel num_threads(streams)
    {
        int me = omp_get_thread_num();
        uint64_t t0 = 0, t1 = 0;
        long count = 1;
#pragma omp taskgroup
        {
            for (int m = 0; m < 2; m++) {
#pragma omp task firstprivate(m) shared(t0, t1, count)
                {
                    uint64_t s = bench_now_ns();
                    long i = 0;
                    while (i < iters) {
                        long end = i + 4096 < iters ? i + 4096 : iters;
                        for (; i < end; i++) {
#pragma omp taskyield
                        }
                        if (bench_now_ns() - s > cap)
                            break;
                    }
                    uint64_t e = bench_now_ns();
                    if (m == 0) {
                        t0 = s;
                        t1 = e;
                        count = i;
                    }
                }
            }
        }
        per[me] = (double)(t1 - t0) / (2.0 * (double)count);
    }
    return streams == 2 ? 0.5 * (per[0] + per[1]) : per[0];
}

/* The driver's view of pair_run: ctx points to the number of threads. */
static double pair_iters(void *ctx, long iters) { return pair_run(*(int *)ctx, iters); }

int main(int argc, char **argv)
{
    bench_init(&bench, argc, argv, 10.0, "[--streams 1,2]\n");
    const bench_args_t *a = &bench.args;
    long streams[4];
    int nstreams = bench_opt_list(a, "--streams", "1,2", streams, 4);
    int repeats = bench.repeats;
    if (!bench.machine)
        printf("yield_omp (%s): taskyield, ns per call (median of %d)\n\n  streams  ns\n",
               BENCH_IMPL_NAME, repeats);
    for (int s = 0; s < nstreams; s++) {
        int st = (int)streams[s];
        if (st < 1 || st > 2)
            continue;
        double v[BENCH_MAX_REPEATS];
        /* warm-up of 1,000, probe of 100,000; an iteration is 2 taskyields */
        bench_measure_iters(&bench, pair_iters, &st, 1000, 100000, 2.0, v);
        if (bench.machine) {
            char f[96];
            bench_fields(f, sizeof f, "\"op\":\"taskyield\",\"streams\":%d", st);
            bench_result(&bench, "yield", f, "time", "ns_per_yield", v, repeats);
        } else {
            printf("  %7d  %6.1f\n", st, bench_median(v, repeats));
        }
    }
    return 0;
}
