/* sync_weft_sleep_idle_cpu: a BASIC_WAIT stream whose only ULT sleeps 1 s in
 * weft_thread_sleep burns under 50 ms of CPU on that stream's thread, and it wakes at
 * the deadline, not before. */
#define _GNU_SOURCE
#include "sync_test.h"

#include <sys/resource.h>
#include <weft.h>

static double thread_cpu, slept;

static double thread_cpu_now(void)
{
    struct rusage ru;
    CHECK(getrusage(RUSAGE_THREAD, &ru) == 0);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static void sleeper(void *arg)
{
    (void)arg;
    double c0 = thread_cpu_now(), t0 = sync_now();
    CHECK_ABT(weft_thread_sleep(1.0));
    slept = sync_now() - t0;
    thread_cpu = thread_cpu_now() - c0;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 0, NULL, ABT_SCHED_CONFIG_NULL, &xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, sleeper, NULL, ABT_THREAD_ATTR_NULL, &t));
    /* the primary thread waits in the kernel meanwhile (an external-style sleep) */
    sync_sleep(1.1);
    CHECK_ABT(ABT_thread_free(&t));
    printf("slept %.3f s using %.1f ms of CPU\n", slept, thread_cpu * 1e3);
    CHECK(slept >= 0.999);
    if (!sync_slow())
        CHECK(thread_cpu < 0.050);
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    if (sync_slow())
        TEST_SKIP("CPU use not checked under valgrind or a sanitizer");
    return 0;
}
