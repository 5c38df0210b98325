/* yield_omp - OpenMP twin of bench/abt/yield.c: two explicit tasks per thread
 * each loop K times over "#pragma omp taskyield"; 1 thread, or 2 threads each
 * with its own pair.  Caveat, and the reason this line is drawn apart in the
 * plots: OpenMP has no ULT-style yield.  libgomp's taskyield is a no-op, and
 * libomp's may run a queued sibling on top of the current task's stack but
 * cannot switch back and forth between the two, so this measures the cost of
 * the taskyield scheduling point, not a ping-pong context switch.
 * --json --streams 1,2 --repeats 5 --sample-ms 10 */
#include "bench.h"

#include <omp.h>

static double target_ns = 10e6;

static double pair_run(int streams, long iters)
{
    uint64_t cap = (uint64_t)(BENCH_CAP_FACTOR * target_ns);
    double per[2] = {0, 0};
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

int main(int argc, char **argv)
{
    bench_args_t a = {argc, argv};
    int json = bench_flag(&a, "--json");
    long streams[4];
    int nstreams = bench_opt_list(&a, "--streams", "1,2", streams, 4);
    int repeats = (int)bench_opt_long(&a, "--repeats", 5);
    if (repeats < 1)
        repeats = 1;
    if (repeats > 256)
        repeats = 256;
    target_ns = bench_opt_double(&a, "--sample-ms", 10.0) * 1e6;
    if (!json)
        printf("yield_omp (%s): taskyield, ns per call (median of %d)\n\n  streams  ns\n",
               BENCH_IMPL_NAME, repeats);
    for (int s = 0; s < nstreams; s++) {
        int st = (int)streams[s];
        if (st < 1 || st > 2)
            continue;
        pair_run(st, 1000);
        double per = pair_run(st, 100000);
        long iters = bench_rounds_for(per * 2.0, target_ns, 100000000);
        double v[256];
        for (int r = 0; r < repeats; r++)
            v[r] = pair_run(st, iters);
        if (json) {
            char f[96];
            bench_fields(f, sizeof f, "\"op\":\"taskyield\",\"streams\":%d", st);
            bench_emit("yield", f, "time", "ns_per_yield", v, repeats);
        } else {
            printf("  %7d  %6.1f\n", st, bench_median(v, repeats));
        }
    }
    return 0;
}
