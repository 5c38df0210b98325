/* yield_pthread - Pthreads twin of bench/abt/yield.c: two OS threads pinned to
 * the same CPU each loop K times over sched_yield(), so the kernel switches
 * between them; on 2 streams a second pair runs on a second CPU.
 * ns per yield = loop time / (2 K), median of the samples.
 * --streams 1,2, and the common flags of bench/common/bench.h (--json, --csv,
 * --repeats 5, --sample-ms 10). */
#include "bench.h"

#include <pthread.h>
#include <sched.h>

typedef struct {
    int cpu;
    long iters, done;
    uint64_t cap_ns;
    pthread_barrier_t *bar;
    uint64_t t0, t1;
} member_t;

static void *member_fn(void *arg)
{
    member_t *m = (member_t *)arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(m->cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    pthread_barrier_wait(m->bar);
    m->t0 = bench_now_ns();
    long i = 0;
    while (i < m->iters) {
        long end = i + 1024 < m->iters ? i + 1024 : m->iters;
        for (; i < end; i++)
            sched_yield();
        if (bench_now_ns() - m->t0 > m->cap_ns)
            break;
    }
    m->done = i;
    m->t1 = bench_now_ns();
    return NULL;
}

static int cpu_of(int idx)
{
    cpu_set_t set;
    sched_getaffinity(0, sizeof set, &set);
    int seen = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set) && seen++ == idx)
            return c;
    return 0;
}

static bench_t bench; /* the common flags (bench/common/bench.h) */

static double run_pairs(int pairs, long iters)
{
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, (unsigned)(2 * pairs));
    member_t m[4];
    pthread_t th[4];
    for (int i = 0; i < 2 * pairs; i++) {
        m[i].cpu = cpu_of(i / 2);
        m[i].iters = iters;
        m[i].cap_ns = bench_cap_ns(bench.target_ns);
        m[i].bar = &bar;
        pthread_create(&th[i], NULL, member_fn, &m[i]);
    }
    double sum = 0;
    for (int i = 0; i < 2 * pairs; i++)
        pthread_join(th[i], NULL);
    for (int p = 0; p < pairs; p++) {
        /* the pair's loop time: from the first start to the last end */
        uint64_t s = m[2 * p].t0 < m[2 * p + 1].t0 ? m[2 * p].t0 : m[2 * p + 1].t0;
        uint64_t e = m[2 * p].t1 > m[2 * p + 1].t1 ? m[2 * p].t1 : m[2 * p + 1].t1;
        sum += (double)(e - s) / (double)(m[2 * p].done + m[2 * p + 1].done);
    }
    pthread_barrier_destroy(&bar);
    return sum / pairs;
}

/* The driver's view of run_pairs: ctx points to the number of pairs. */
static double pairs_iters(void *ctx, long iters) { return run_pairs(*(int *)ctx, iters); }

int main(int argc, char **argv)
{
    bench_init(&bench, argc, argv, 10.0, "[--streams 1,2]\n");
    const bench_args_t *a = &bench.args;
    long streams[4];
    int nstreams = bench_opt_list(a, "--streams", "1,2", streams, 4);
    int repeats = bench.repeats;
    if (!bench.machine)
        printf("yield_pthread: two threads on one CPU over sched_yield, ns per yield (median "
               "of %d)\n\n  streams  ns/yield\n",
               repeats);
    for (int s = 0; s < nstreams; s++) {
        int st = (int)streams[s];
        if (st < 1 || st > 2)
            continue;
        double v[BENCH_MAX_REPEATS];
        /* warm-up of 1,000, probe of 20,000; an iteration is 2 yields */
        bench_measure_iters(&bench, pairs_iters, &st, 1000, 20000, 2.0, v);
        if (bench.machine) {
            char f[96];
            bench_fields(f, sizeof f, "\"op\":\"sched_yield\",\"streams\":%d", st);
            bench_result(&bench, "yield", f, "time", "ns_per_yield", v, repeats);
        } else {
            printf("  %7d  %8.1f\n", st, bench_median(v, repeats));
        }
    }
    return 0;
}
