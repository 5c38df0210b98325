/* wakeup - wake-up latency of an idle execution stream: the time from a push of a ULT
 * into the pool of a stream that has nothing to do to the moment that ULT starts on it.
 *   --idle-us T   how long the stream stays idle before each push (default 2000: longer
 *                 than the idle spin, ABT_SCHED_SPIN_NSEC, so the stream sleeps and the
 *                 push must wake it; 0 measures a stream that is still spinning)
 *   --sched basic|basic_wait|prio|randws   the secondary stream's scheduler
 *   --from stream|external   who pushes: the primary ULT, or an external pthread
 *   --samples N   pushes measured (default 200)
 * Prints the median and the 99th percentile in microseconds (--json / --csv: every
 * sample, through the common driver of bench/common/bench.h).
 * The primary stream stays busy in nanosleep between pushes, so only the woken stream's
 * path is measured. */
#include "bench.h"

#include <abt.h>
#include <pthread.h>
#include <stdatomic.h>

#define CHECK(call) BENCH_CHECK("wakeup", call)

static _Atomic uint64_t started_ns;
static ABT_pool target;
static long idle_us = 2000, nsamples = 200;
static double *lat_us;

static void woken(void *arg)
{
    (void)arg;
    atomic_store_explicit(&started_ns, bench_now_ns(), memory_order_release);
}

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static void *measure(void *arg)
{
    (void)arg;
    for (long i = 0; i < nsamples; i++) {
        atomic_store(&started_ns, 0);
        sleep_us(idle_us);
        uint64_t t0 = bench_now_ns();
        ABT_thread t;
        CHECK(ABT_thread_create(target, woken, NULL, ABT_THREAD_ATTR_NULL, &t));
        uint64_t t1;
        while ((t1 = atomic_load_explicit(&started_ns, memory_order_acquire)) == 0)
            ;
        lat_us[i] = (double)(t1 - t0) * 1e-3;
        CHECK(ABT_thread_free(&t));
    }
    return NULL;
}

static double percentile(double *v, long n, double pct)
{
    qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
    long k = (long)(pct / 100.0 * (double)(n - 1) + 0.5);
    return v[k];
}

int main(int argc, char **argv)
{
    bench_t b;
    bench_init(&b, argc, argv, 0.0,
               "[--idle-us 2000] [--sched basic|basic_wait|prio|randws]\n"
               "       [--from stream|external] [--samples 200]\n"
               "(--repeats and --sample-ms do not apply: every push is one sample)\n");
    const bench_args_t *a = &b.args;
    idle_us = bench_opt_long(a, "--idle-us", 2000);
    nsamples = bench_opt_long(a, "--samples", 200);
    if (nsamples < 1)
        nsamples = 1;
    const char *sched_s = bench_opt(a, "--sched");
    const char *from_s = bench_opt(a, "--from");
    if (!sched_s)
        sched_s = "basic";
    if (!from_s)
        from_s = "stream";
    ABT_sched_predef predef = ABT_SCHED_BASIC;
    if (!strcmp(sched_s, "basic_wait"))
        predef = ABT_SCHED_BASIC_WAIT;
    else if (!strcmp(sched_s, "prio"))
        predef = ABT_SCHED_PRIO;
    else if (!strcmp(sched_s, "randws"))
        predef = ABT_SCHED_RANDWS;
    lat_us = (double *)malloc(sizeof(double) * (size_t)nsamples);

    CHECK(ABT_init(0, NULL));
    ABT_xstream xs;
    CHECK(ABT_xstream_create_basic(predef, 0, NULL, ABT_SCHED_CONFIG_NULL, &xs));
    CHECK(ABT_xstream_get_main_pools(xs, 1, &target));
    if (!strcmp(from_s, "external")) {
        pthread_t th;
        pthread_create(&th, NULL, measure, NULL);
        pthread_join(th, NULL);
    } else {
        measure(NULL);
    }
    CHECK(ABT_xstream_free(&xs));
    CHECK(ABT_finalize());

    char f[160];
    bench_fields(f, sizeof(f), "\"sched\":\"%s\",\"from\":\"%s\",\"idle_us\":%ld", sched_s, from_s,
                 idle_us);
    bench_result(&b, "wakeup", f, "latency", "us", lat_us, (int)nsamples);
    if (!b.machine) {
        double med = percentile(lat_us, nsamples, 50.0);
        double p99 = percentile(lat_us, nsamples, 99.0);
        printf("wakeup  sched %-10s from %-8s idle %6ld us: median %8.1f us  p99 %8.1f us  "
               "(%ld samples)\n",
               sched_s, from_s, idle_us, med, p99, nsamples);
    }
    free(lat_us);
    return 0;
}
