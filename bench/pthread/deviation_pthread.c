/* deviation_pthread - Pthreads twin of bench/abt/deviation.c: N OS threads
 * (16 KiB stacks, like the ULTs) created and then joined, while a fraction D
 * of them calls sched_yield() once.  Timing at N = 4096; --memory at N =
 * 65536 reports the peak RSS.  The kernel's limit on memory mappings
 * (vm.max_map_count, 65530 by default; every thread stack is one mapping plus
 * its guard) may stop creation before N: the program then joins what it
 * created, reports "created" and the peak RSS reached.
 * Same options as deviation.c (common flags: bench/common/bench.h). */
#include "bench.h"

#include <pthread.h>
#include <sched.h>

static void *kernel(void *yield_flag)
{
    if (yield_flag != NULL)
        sched_yield();
    return NULL;
}

static char flag_target;

/* returns how many threads were created */
static long one_round(long n, const unsigned char *flags, pthread_t *th, const pthread_attr_t *attr)
{
    long created = 0;
    for (long i = 0; i < n; i++) {
        if (pthread_create(&th[i], attr, kernel, flags[i] ? (void *)&flag_target : NULL) != 0)
            break;
        created++;
    }
    for (long i = 0; i < created; i++)
        pthread_join(th[i], NULL);
    return created;
}

int main(int argc, char **argv)
{
    bench_t b;
    bench_init(&b, argc, argv, 10.0,
               "[--n 4096] [--d 0,1,5,10,25,50,100] [--stacksize 16384]\n"
               "       %s --memory [--n 65536] --d PCT [--rounds 2]\n");
    const bench_args_t *a = &b.args;
    long rss_start = bench_maxrss_kib();
    int memory = bench_flag(a, "--memory");
    long n = bench_opt_long(a, "--n", memory ? 65536 : 4096);
    long ds[16];
    int nd = bench_opt_list(a, "--d", memory ? "0" : "0,1,5,10,25,50,100", ds, 16);
    int repeats = b.repeats;
    long stacksize = bench_opt_long(a, "--stacksize", 16384);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)stacksize);
    pthread_t *th = (pthread_t *)calloc((size_t)n, sizeof(pthread_t));
    unsigned char *flags = (unsigned char *)malloc((size_t)n);

    if (memory) {
        long rounds = bench_opt_long(a, "--rounds", 2), created = n;
        bench_pick_fraction(flags, n, (double)ds[0], 0x5eed);
        for (long k = 0; k < rounds; k++) {
            long c = one_round(n, flags, th, &attr);
            if (c < created)
                created = c;
        }
        long rss = bench_maxrss_kib();
        if (b.machine) {
            char f[160];
            bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld,\"created\":%ld", ds[0], n, created);
            bench_result_maxrss(&b, "deviation_memory", f, rss, rss_start);
        } else {
            printf("deviation_pthread --memory: N = %ld (%ld created), D = %ld %%: peak RSS "
                   "%.1f MiB\n",
                   n, created, ds[0], rss / 1024.0);
        }
        return 0;
    }
    if (!b.machine)
        printf("deviation_pthread: N = %ld threads, D %% sched_yield once, ns per thread "
               "(median of %d)\n\n      D   ns/unit\n",
               n, repeats);
    /* round-robin over the D values, as in deviation.c */
    unsigned char *fl = (unsigned char *)malloc((size_t)n * (size_t)nd);
    long rounds[16];
    static double v[16][BENCH_MAX_REPEATS];
    for (int di = 0; di < nd; di++) {
        bench_pick_fraction(fl + (size_t)di * n, n, (double)ds[di], 0x5eed);
        BENCH_CALIBRATE(b.target_ns, rounds[di], one_round(n, fl + (size_t)di * n, th, &attr));
    }
    for (int r = 0; r < repeats; r++) {
        for (int di = 0; di < nd; di++) {
            BENCH_SAMPLE(&b, rounds[di], v[di][r], n, one_round(n, fl + (size_t)di * n, th, &attr));
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
    free(th);
    free(flags);
    return 0;
}
