// fork_join_tbb - oneTBB twin of bench/abt/fork_join.c: N empty tasks spawned
// into a tbb::task_group and waited for, inside a task_arena of `streams`
// threads (the arena and its worker threads are set up once, outside the
// timed rounds).
//   1 stream            arena of 1 thread: the caller runs N tasks
//   2 streams, "one"    arena of 2: the caller spawns N tasks, both threads run them
//   2 streams, "each"   arena of 2: every thread spawns and waits for its own N
// Phases: create (task_group::run loop) and join (task_group::wait).
// --n 256,4096 --streams 1,2 --modes one,each, and the common flags of
// bench/common/bench.h (--json, --csv, --repeats 5, --sample-ms 10)
#include "bench.h"

#include <atomic>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

__attribute__((noinline)) static void empty_fn(void *arg)
{
    __asm__ __volatile__("" ::"r"(arg) : "memory");
}

static bench_t bench; /* the common flags (bench/common/bench.h) */

// acc: create ns, join ns, rounds done
static void rounds_of_tasks(long n, long rounds, double *acc)
{
    uint64_t start = bench_now_ns();
    for (long k = 0; k < rounds; k++) {
        tbb::task_group g;
        uint64_t t0 = bench_now_ns();
        for (long i = 0; i < n; i++)
            g.run([] { empty_fn(nullptr); });
        uint64_t t1 = bench_now_ns();
        g.wait();
        uint64_t t2 = bench_now_ns();
        acc[0] += (double)(t1 - t0);
        acc[1] += (double)(t2 - t1);
        acc[2] += 1;
        if (t2 - start > bench_cap_ns(bench.target_ns))
            break;
    }
}

static void sample(tbb::task_arena &arena, long n, int streams, bool each, long rounds,
                   double *create, double *join)
{
    double acc[2][3] = { { 0, 0, 0 }, { 0, 0, 0 } };
    if (!each) {
        arena.execute([&] { rounds_of_tasks(n, rounds, acc[0]); });
        *create = acc[0][0] / (acc[0][2] * (double)n);
        *join = acc[0][1] / (acc[0][2] * (double)n);
    } else {
        std::atomic<int> arrived{ 0 };
        arena.execute([&] {
            tbb::parallel_for(
                0, streams,
                [&](int me) {
                    arrived.fetch_add(1);
                    while (arrived.load() < streams)
                        ;
                    rounds_of_tasks(n, rounds, acc[me]);
                },
                tbb::static_partitioner());
        });
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
    tbb::global_control gc(tbb::global_control::max_allowed_parallelism, 2);

    if (!bench.machine)
        printf("fork_join_tbb (%s): N empty tasks in a task_group, ns per task (median of "
               "%d)\n\n     N  streams  mode   create    join   total\n",
               BENCH_IMPL_NAME, repeats);
    for (int s = 0; s < nstreams; s++) {
        int st = (int)streams[s];
        if (st < 1 || st > 2)
            continue;
        tbb::task_arena arena(st, st == 1 ? 1 : 1);
        arena.initialize();
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
                BENCH_CALIBRATE(bench.target_ns, rounds, sample(arena, n, st, each, 1, &c, &j));
                double v[3][BENCH_MAX_REPEATS];
                for (int r = 0; r < repeats; r++) {
                    sample(arena, n, st, each, rounds, &c, &j);
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
