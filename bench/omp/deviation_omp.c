/* deviation_omp - OpenMP twin of bench/abt/deviation.c: one thread creates N
 * empty explicit tasks and waits for them (taskwait) while a fraction D of the
 * tasks executes "#pragma omp taskyield" once.  OpenMP tasks of libgomp and
 * libomp run on the thread's stack (no stack of their own), and a taskyield
 * of a tied task never suspends it in favour of a sibling, so this twin shows
 * what a run-to-completion tasking runtime pays; the yield is a scheduling
 * point only.  Same options as deviation.c (timing and --memory). */
#include "bench.h"

#include <omp.h>

__attribute__((noinline)) static void kernel(int yield_flag)
{
    if (yield_flag) {
#pragma omp taskyield
    }
}

static void one_round(long n, const unsigned char *flags)
{
    for (long i = 0; i < n; i++) {
        int f = flags[i];
#pragma omp task firstprivate(f)
        kernel(f);
    }
#pragma omp taskwait
}

int main(int argc, char **argv)
{
    bench_args_t a = {argc, argv};
    long rss_start = bench_maxrss_kib();
    int memory = bench_flag(&a, "--memory");
    int json = bench_flag(&a, "--json");
    long n = bench_opt_long(&a, "--n", memory ? 65536 : 4096);
    long ds[16];
    int nd = bench_opt_list(&a, "--d", memory ? "0" : "0,1,5,10,25,50,100", ds, 16);
    int repeats = (int)bench_opt_long(&a, "--repeats", 5);
    if (repeats < 1)
        repeats = 1;
    if (repeats > 256)
        repeats = 256;
    double target_ns = bench_opt_double(&a, "--sample-ms", 10.0) * 1e6;
    unsigned char *flags = (unsigned char *)malloc((size_t)n);

    if (memory) {
        long rounds = bench_opt_long(&a, "--rounds", 2);
        bench_pick_fraction(flags, n, (double)ds[0], 0x5eed);
#pragma omp parallel num_threads(1)
        for (long k = 0; k < rounds; k++)
            one_round(n, flags);
        long rss = bench_maxrss_kib();
        if (json) {
            char f[128];
            double v[2] = {(double)rss, (double)rss_start};
            bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld", ds[0], n);
            bench_emit("deviation_memory", f, "maxrss", "KiB", &v[0], 1);
            bench_emit("deviation_memory", f, "maxrss_at_start", "KiB", &v[1], 1);
        } else {
            printf("deviation_omp --memory (%s): N = %ld, D = %ld %%: peak RSS %.1f MiB\n",
                   BENCH_IMPL_NAME, n, ds[0], rss / 1024.0);
        }
        free(flags);
        return 0;
    }
    if (!json)
        printf("deviation_omp (%s): N = %ld tasks, D %% taskyield once, ns per task (median "
               "of %d)\n\n      D   ns/unit\n",
               BENCH_IMPL_NAME, n, repeats);
    /* round-robin over the D values, as in deviation.c */
    unsigned char *fl = (unsigned char *)malloc((size_t)n * (size_t)nd);
    long rounds[16];
    static double v[16][256];
    for (int di = 0; di < nd; di++)
        bench_pick_fraction(fl + (size_t)di * n, n, (double)ds[di], 0x5eed);
#pragma omp parallel num_threads(1)
    {
        for (int di = 0; di < nd; di++)
            BENCH_CALIBRATE(target_ns, rounds[di], one_round(n, fl + (size_t)di * n));
        for (int r = 0; r < repeats; r++) {
            for (int di = 0; di < nd; di++) {
                long done;
                double ns;
                BENCH_TIMED_LOOP(rounds[di], target_ns, done, ns,
                                 one_round(n, fl + (size_t)di * n));
                v[di][r] = ns / ((double)done * (double)n);
            }
        }
    }
    for (int di = 0; di < nd; di++) {
        if (json) {
            char f[128];
            bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld", ds[di], n);
            bench_emit("deviation", f, "total", "ns_per_unit", v[di], repeats);
        } else {
            printf("  %5ld %9.1f\n", ds[di], bench_median(v[di], repeats));
        }
    }
    free(fl);
    free(flags);
    return 0;
}
