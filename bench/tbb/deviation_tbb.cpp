// deviation_tbb - oneTBB twin of bench/abt/deviation.c.  oneTBB tasks run to
// completion and have no yield, so only D = 0 exists: N empty tasks in a
// task_group on a one-thread arena (the "RtC" reference line of the paper's
// Fig. 10/22), and its peak memory with --memory (Fig. 24).  A D > 0 request
// is reported on stderr and skipped.  Same options as deviation.c (common flags:
// bench/common/bench.h).
#include "bench.h"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

__attribute__((noinline)) static void kernel(void *arg)
{
    __asm__ __volatile__("" ::"r"(arg) : "memory");
}

static void one_round(long n)
{
    tbb::task_group g;
    for (long i = 0; i < n; i++)
        g.run([] { kernel(nullptr); });
    g.wait();
}

int main(int argc, char **argv)
{
    bench_t b;
    bench_init(&b, argc, argv, 10.0,
               "[--n 4096] [--d 0]\n"
               "       %s --memory [--n 65536] [--d 0] [--rounds 2]\n");
    const bench_args_t *a = &b.args;
    long rss_start = bench_maxrss_kib();
    int memory = bench_flag(a, "--memory");
    long n = bench_opt_long(a, "--n", memory ? 65536 : 4096);
    long ds[16];
    int nd = bench_opt_list(a, "--d", "0", ds, 16);
    int repeats = b.repeats;
    tbb::global_control gc(tbb::global_control::max_allowed_parallelism, 1);
    tbb::task_arena arena(1, 1);

    for (int di = 0; di < nd; di++) {
        if (ds[di] != 0) {
            fprintf(stderr, "deviation_tbb: D = %ld %% skipped: oneTBB tasks cannot yield\n",
                    ds[di]);
            continue;
        }
        if (memory) {
            long rounds = bench_opt_long(a, "--rounds", 2);
            arena.execute([&] {
                for (long k = 0; k < rounds; k++)
                    one_round(n);
            });
            long rss = bench_maxrss_kib();
            if (b.machine) {
                char f[128];
                bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld", ds[di], n);
                bench_result_maxrss(&b, "deviation_memory", f, rss, rss_start);
            } else {
                printf("deviation_tbb --memory: N = %ld, D = 0 %%: peak RSS %.1f MiB\n", n,
                       rss / 1024.0);
            }
            continue;
        }
        double v[BENCH_MAX_REPEATS];
        arena.execute([&] { BENCH_MEASURE(&b, v, n, one_round(n)); });
        if (b.machine) {
            char f[128];
            bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld", ds[di], n);
            bench_result(&b, "deviation", f, "total", "ns_per_unit", v, repeats);
        } else {
            printf("deviation_tbb: N = %ld, D = 0 %%: %.1f ns per task\n", n,
                   bench_median(v, repeats));
        }
    }
    return 0;
}
