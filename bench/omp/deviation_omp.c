/* deviation_omp - OpenMP twin of bench/abt/deviation.c: one thread creates N
 * empty explicit tasks and waits for them (taskwait) while a fraction D of the
 * tasks executes "#pragma omp taskyield" once.  OpenMP tasks of libgomp and
 * libomp run on the thread's stack (no stack of their own), and a taskyield
 * of a tied task never suspends it in favour of a sibling, so this twin shows
 * what a run-to-completion tasking runtime pays; the yield is a scheduling
 * point only.  Same options as deviation.c (timing and --memory; common flags:
 * bench/common/bench.h). */
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
    bench_t b;
    bench_init(&b, argc, argv, 10.0,
               "[--n 4096] [--d 0,1,5,10,25,50,100]\n"
               "       %s --memory [--n 65536] --d PCT [--rounds 2]\n");
    const bench_args_t *a = &b.args;
    long rss_start = bench_maxrss_kib();
    int memory = bench_flag(a, "--memory");
    long n = bench_opt_long(a, "--n", memory ? 65536 : 4096);
    long ds[16];
    int nd = bench_opt_list(a, "--d", memory ? "0" : "0,1,5,10,25,50,100", ds, 16);
    int repeats = b.repeats;
    unsigned char *flags = (unsigned char *)malloc((size_t)n);

    if (memory) {
        long rounds = bench_opt_long(a, "--rounds", 2);
        bench_pick_fraction(flags, n, (double)ds[0], 0x5eed);
#pragma omp parallel num_threads(1)
        for (long k = 0; k < rounds; k++)
            one_round(n, flags);
        long rss = bench_maxrss_kib();
        if (b.machine) {
            char f[128];
            bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld", ds[0], n);
            bench_result_maxrss(&b, "deviation_memory", f, rss, rss_start);
        } else {
            printf("deviation_omp --memory (%s): N = %ld, D = %ld %%: peak RSS %.1f MiB\n",
                   BENCH_IMPL_NAME, n, ds[0], rss / 1024.0);
        }
        free(flags);
        return 0;
    }
    if (!b.machine)
        printf("deviation_omp (%s): N = %ld tasks, D %% taskyield once, ns per task (median "
               "of %d)\n\n      D   ns/unit\n",
               BENCH_IMPL_NAME, n, repeats);
    /* round-robin over the D values, as in deviation.c */
    unsigned char *fl = (unsigned char *)malloc((size_t)n * (size_t)nd);
    long rounds[16];
    static double v[16][BENCH_MAX_REPEATS];
    for (int di = 0; di < nd; di++)
        bench_pick_fraction(fl + (size_t)di * n, n, (double)ds[di], 0x5eed);
#pragma omp parallel num_threads(1)
    {
        for (int di = 0; di < nd; di++)
            BENCH_CALIBRATE(b.target_ns, rounds[di], one_round(n, fl + (size_t)di * n));
        for (int r = 0; r < repeats; r++) {
            for (int di = 0; di < nd; di++)
                BENCH_SAMPLE(&b, rounds[di], v[di][r], n, one_round(n, fl + (size_t)di * n));
        }
    }
    for (int di = 0; di < nd; di++) {
        if (b.machine) {
            char f[128];
            bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld", ds[di], n);
            bench_result(&b, "deviation", f, "total", "ns_per_unit", v[di], repeats);
        } else {
            printf("  %5ld %9.1f\n", ds[di], bench_median(v[di], repeats));
        }
    }
    free(fl);
    free(flags);
    return 0;
}
