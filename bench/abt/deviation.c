/* deviation - the deviation microbenchmark of "Analyzing the performance
 * trade-off in implementing user-level threads" (TPDS 2020, Fig. 9): fork N
 * empty ULTs on one stream and join them, while n randomly chosen ULTs out of
 * N yield once (a "deviation"); D = n / N.
 *
 * Timing mode (Fig. 10 / Fig. 22): N = 4096, ns per fork-join (create + join +
 * free) for D = 0, 1, 5, 10, 25, 50, 100 %.
 * Memory mode (Fig. 24): --memory, N = 65536, one D per process (ru_maxrss is a
 * high-water mark), prints the peak resident set size.
 *
 * The units chosen to yield are the same in every implementation (fixed seed).
 * ULT stacks use the library default (16 KiB in Argobots 1.x) unless
 * --stacksize is given.
 *
 * --n 4096 --d 0,1,5,10,25,50,100 [--stacksize BYTES]
 * --memory --n 65536 --d 10 [--rounds 2]
 * and the common flags of bench/common/bench.h (--json, --csv, --repeats 5,
 * --sample-ms 10). */
#include "bench.h"

#include <abt.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        int rc_ = (call);                                                                  \
        if (rc_ != ABT_SUCCESS) {                                                          \
            fprintf(stderr, "deviation: %s failed: %d (line %d)\n", #call, rc_, __LINE__); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

static void kernel(void *yield_flag)
{
    if (yield_flag != NULL)
        ABT_thread_yield();
}

static char flag_target; /* any non-NULL address */

static void one_round(ABT_pool pool, ABT_thread_attr attr, long n, const unsigned char *flags,
                      ABT_thread *h)
{
    for (long i = 0; i < n; i++)
        ABT_thread_create(pool, kernel, flags[i] ? (void *)&flag_target : NULL, attr, &h[i]);
    for (long i = 0; i < n; i++)
        ABT_thread_join(h[i]);
    for (long i = 0; i < n; i++)
        ABT_thread_free(&h[i]);
}

int main(int argc, char **argv)
{
    bench_t b;
    bench_init(&b, argc, argv, 10.0,
               "[--n 4096] [--d 0,1,5,10,25,50,100] [--stacksize BYTES]\n"
               "       %s --memory [--n 65536] --d PCT [--rounds 2]\n");
    const bench_args_t *a = &b.args;
    long rss_start = bench_maxrss_kib();
    int memory = bench_flag(a, "--memory");
    long n = bench_opt_long(a, "--n", memory ? 65536 : 4096);
    long ds[16];
    int nd = bench_opt_list(a, "--d", memory ? "0" : "0,1,5,10,25,50,100", ds, 16);
    int repeats = b.repeats;
    long stacksize = bench_opt_long(a, "--stacksize", 0);

    CHECK(ABT_init(0, NULL));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK(ABT_xstream_self(&xs));
    CHECK(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread_attr attr = ABT_THREAD_ATTR_NULL;
    if (stacksize > 0) {
        CHECK(ABT_thread_attr_create(&attr));
        CHECK(ABT_thread_attr_set_stacksize(attr, (size_t)stacksize));
    }
    ABT_thread *h = (ABT_thread *)calloc((size_t)n, sizeof(ABT_thread));
    unsigned char *flags = (unsigned char *)malloc((size_t)n);

    if (memory) {
        long rounds = bench_opt_long(a, "--rounds", 2);
        bench_pick_fraction(flags, n, (double)ds[0], 0x5eed);
        for (long k = 0; k < rounds; k++)
            one_round(pool, attr, n, flags, h);
        long rss = bench_maxrss_kib();
        if (b.machine) {
            char f[128];
            bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld", ds[0], n);
            bench_result_maxrss(&b, "deviation_memory", f, rss, rss_start);
        } else {
            printf("deviation --memory (%s): N = %ld, D = %ld %%: peak RSS %.1f MiB "
                   "(%.1f MiB at start)\n",
                   BENCH_IMPL_NAME, n, ds[0], rss / 1024.0, rss_start / 1024.0);
        }
    } else {
        if (!b.machine)
            printf("deviation (%s): N = %ld ULTs forked and joined on one stream, D %% of "
                   "them yield once\nns per fork-join (create + join + free), median of %d\n\n"
                   "      D   ns/unit     min     max\n",
                   BENCH_IMPL_NAME, n, repeats);
        /* Samples are taken round-robin over the D values (repeat r of every D,
         * then repeat r + 1), so that a drift of the machine during the run
         * shifts the whole curve instead of bending it. */
        unsigned char *fl = (unsigned char *)malloc((size_t)n * (size_t)nd);
        long rounds[16];
        static double v[16][BENCH_MAX_REPEATS];
        for (int di = 0; di < nd; di++) {
            bench_pick_fraction(fl + (size_t)di * n, n, (double)ds[di], 0x5eed);
            BENCH_CALIBRATE(b.target_ns, rounds[di],
                            one_round(pool, attr, n, fl + (size_t)di * n, h));
        }
        for (int r = 0; r < repeats; r++) {
            for (int di = 0; di < nd; di++) {
                BENCH_SAMPLE(&b, rounds[di], v[di][r], n,
                             one_round(pool, attr, n, fl + (size_t)di * n, h));
            }
        }
        for (int di = 0; di < nd; di++) {
            if (b.machine) {
                char f[128];
                bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld", ds[di], n);
                bench_result(&b, "deviation", f, "total", "ns_per_unit", v[di], repeats);
            } else {
                printf("  %5ld %9.1f %7.1f %7.1f\n", ds[di], bench_median(v[di], repeats),
                       bench_min(v[di], repeats), bench_max(v[di], repeats));
            }
        }
        free(fl);
    }
    if (attr != ABT_THREAD_ATTR_NULL)
        ABT_thread_attr_free(&attr);
    free(h);
    free(flags);
    CHECK(ABT_finalize());
    return 0;
}
