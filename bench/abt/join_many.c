/* join_many - joining N ULTs one by one versus with one join_many call.
 *   loop   ABT_thread_create x N, ABT_thread_join x N, ABT_thread_free x N
 *   many   ABT_thread_create x N, ABT_thread_join_many(N), ABT_thread_free_many(N)
 * on one stream, into the caller's pool; ns per unit for each phase.
 *
 * Reproduces: Argobots (TPDS 2018) Fig. 4, "JoinMany" against "SchedBypass"
 * (join_many chains the N joins with N + 1 context switches instead of 2 N).
 *
 * --n 256,4096, and the common flags of bench/common/bench.h (--json, --csv,
 * --repeats 5, --sample-ms 10)
 * --callgrind loop|many --n N --iters I   (no timing; see fork_join) */
#include "bench.h"

#include <abt.h>

#define CHECK(call) BENCH_CHECK("join_many", call)

static void empty_fn(void *arg) { (void)arg; }

/* phases: create, join, free (ns, accumulated) */
static void one_round(int many, ABT_pool pool, long n, ABT_thread *h, double *acc)
{
    uint64_t t0 = acc ? bench_now_ns() : 0;
    for (long i = 0; i < n; i++)
        ABT_thread_create(pool, empty_fn, NULL, ABT_THREAD_ATTR_NULL, &h[i]);
    uint64_t t1 = acc ? bench_now_ns() : 0;
    if (many) {
        ABT_thread_join_many((int)n, h);
    } else {
        for (long i = 0; i < n; i++)
            ABT_thread_join(h[i]);
    }
    uint64_t t2 = acc ? bench_now_ns() : 0;
    if (many) {
        ABT_thread_free_many((int)n, h);
    } else {
        for (long i = 0; i < n; i++)
            ABT_thread_free(&h[i]);
    }
    if (acc) {
        uint64_t t3 = bench_now_ns();
        acc[0] += (double)(t1 - t0);
        acc[1] += (double)(t2 - t1);
        acc[2] += (double)(t3 - t2);
    }
}

int main(int argc, char **argv)
{
    bench_t b;
    bench_init(&b, argc, argv, 10.0,
               "[--n 256,4096]\n"
               "       %s --callgrind loop|many --n N --iters I\n");
    const bench_args_t *a = &b.args;
    CHECK(ABT_init(0, NULL));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK(ABT_xstream_self(&xs));
    CHECK(ABT_xstream_get_main_pools(xs, 1, &pool));

    const char *cg = bench_opt(a, "--callgrind");
    if (cg) {
        long n = bench_opt_long(a, "--n", 256), iters = bench_opt_long(a, "--iters", 10);
        ABT_thread *h = (ABT_thread *)calloc((size_t)n, sizeof(ABT_thread));
        for (long k = 0; k < iters; k++)
            one_round(strcmp(cg, "many") == 0, pool, n, h, NULL);
        free(h);
        CHECK(ABT_finalize());
        return 0;
    }

    long ns[16];
    int nn = bench_opt_list(a, "--n", "256,4096", ns, 16);
    int repeats = b.repeats;
    long nmax = 1;
    for (int i = 0; i < nn; i++)
        if (ns[i] > nmax)
            nmax = ns[i];
    ABT_thread *h = (ABT_thread *)calloc((size_t)nmax, sizeof(ABT_thread));

    if (!b.machine)
        printf("join_many (%s): ns per ULT, median of %d\n\n"
               "     N  variant     create     join     free    total\n",
               BENCH_IMPL_NAME, repeats);
    for (int i = 0; i < nn; i++) {
        long n = ns[i];
        for (int many = 0; many < 2; many++) {
            long rounds;
            BENCH_CALIBRATE(b.target_ns, rounds, one_round(many, pool, n, h, NULL));
            double s[4][BENCH_MAX_REPEATS];
            for (int r = 0; r < repeats; r++) {
                double acc[3] = { 0, 0, 0 };
                long done;
                double ns;
                BENCH_TIMED_LOOP(rounds, b.target_ns, done, ns, one_round(many, pool, n, h, acc));
                (void)ns;
                double units = (double)done * (double)n;
                s[1][r] = acc[0] / units;
                s[2][r] = acc[1] / units;
                s[3][r] = acc[2] / units;
                s[0][r] = s[1][r] + s[2][r] + s[3][r];
            }
            const char *variant = many ? "many" : "loop";
            if (b.machine) {
                static const char *metric[4] = { "total", "create", "join", "free" };
                char f[128];
                bench_fields(f, sizeof f, "\"variant\":\"%s\",\"n\":%ld", variant, n);
                for (int m = 0; m < 4; m++)
                    bench_result(&b, "join_many", f, metric[m], "ns_per_unit", s[m], repeats);
            } else {
                printf("%6ld  %-8s %8.1f %8.1f %8.1f %8.1f\n", n, variant,
                       bench_median(s[1], repeats), bench_median(s[2], repeats),
                       bench_median(s[3], repeats), bench_median(s[0], repeats));
            }
        }
    }
    free(h);
    CHECK(ABT_finalize());
    return 0;
}
