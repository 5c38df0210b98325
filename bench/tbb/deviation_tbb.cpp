// deviation_tbb - oneTBB twin of bench/abt/deviation.c.  oneTBB tasks run to
// completion and have no yield, so only D = 0 exists: N empty tasks in a
// task_group on a one-thread arena (the "RtC" reference line of the paper's
// Fig. 10/22), and its peak memory with --memory (Fig. 24).  A D > 0 request
// is reported on stderr and skipped.  Same options as deviation.c.
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
    bench_args_t a = {argc, argv};
    long rss_start = bench_maxrss_kib();
    int memory = bench_flag(&a, "--memory");
    int json = bench_flag(&a, "--json");
    long n = bench_opt_long(&a, "--n", memory ? 65536 : 4096);
    long ds[16];
    int nd = bench_opt_list(&a, "--d", "0", ds, 16);
    int repeats = (int)bench_opt_long(&a, "--repeats", 5);
    if (repeats < 1)
        repeats = 1;
    if (repeats > 256)
        repeats = 256;
    double target_ns = bench_opt_double(&a, "--sample-ms", 10.0) * 1e6;
    tbb::global_control gc(tbb::global_control::max_allowed_parallelism, 1);
    tbb::task_arena arena(1, 1);

    for (int di = 0; di < nd; di++) {
        if (ds[di] != 0) {
            fprintf(stderr, "deviation_tbb: D = %ld %% skipped: oneTBB tasks cannot yield\n",
                    ds[di]);
            continue;
        }
        if (memory) {
            long rounds = bench_opt_long(&a, "--rounds", 2);
            arena.execute([&] {
                for (long k = 0; k < rounds; k++)
                    one_round(n);
            });
            long rss = bench_maxrss_kib();
            if (json) {
                char f[128];
                double v[2] = {(double)rss, (double)rss_start};
                bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld", ds[di], n);
                bench_emit("deviation_memory", f, "maxrss", "KiB", &v[0], 1);
                bench_emit("deviation_memory", f, "maxrss_at_start", "KiB", &v[1], 1);
            } else {
                printf("deviation_tbb --memory: N = %ld, D = 0 %%: peak RSS %.1f MiB\n", n,
                       rss / 1024.0);
            }
            continue;
        }
        double v[256];
        arena.execute([&] {
            long rounds;
            BENCH_CALIBRATE(target_ns, rounds, one_round(n));
            for (int r = 0; r < repeats; r++) {
                long done;
                double ns;
                BENCH_TIMED_LOOP(rounds, target_ns, done, ns, one_round(n));
                v[r] = ns / ((double)done * (double)n);
            }
        });
        if (json) {
            char f[128];
            bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld", ds[di], n);
            bench_emit("deviation", f, "total", "ns_per_unit", v, repeats);
        } else {
            printf("deviation_tbb: N = %ld, D = 0 %%: %.1f ns per task\n", n,
                   bench_median(v, repeats));
        }
    }
    return 0;
}
