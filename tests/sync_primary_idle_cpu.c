/* sync_primary_idle_cpu: the primary ULT's timed waits are driven by the primary
 * stream's scheduler too.  With the default BASIC scheduler a 0.1 s ABT_cond_timedwait
 * times out, not before its deadline (the idle scheduler spins, as in Argobots; nothing
 * else would end the wait, so a lost deadline fails after TEST_PATIENCE_S); after
 * ABT_xstream_set_main_sched_basic(BASIC_WAIT) a 1 s ABT_cond_timedwait of the primary
 * ULT leaves the process (near) idle: under 50 ms of CPU for the whole second. */
#define _GNU_SOURCE
#include "sync_test.h"

#include <sys/resource.h>

static double cpu_self(void)
{
    struct rusage ru;
    CHECK(getrusage(RUSAGE_SELF, &ru) == 0);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static double timed_wait(ABT_mutex m, ABT_cond c, double sec)
{
    CHECK_ABT(ABT_mutex_lock(m));
    struct timespec ts = sync_abstime(sec);
    double t0 = sync_now();
    CHECK_ERR(ABT_cond_timedwait(c, m, &ts), ABT_ERR_COND_TIMEDOUT);
    double dt = sync_now() - t0;
    CHECK_ABT(ABT_mutex_unlock(m));
    CHECK(dt >= sec - 0.002);
    return dt;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_mutex m;
    ABT_cond c;
    CHECK_ABT(ABT_mutex_create(&m));
    CHECK_ABT(ABT_cond_create(&c));

    double dt = timed_wait(m, c, 0.1); /* BASIC */
    CHECK(dt < 0.1 + TEST_PATIENCE_S);

    ABT_xstream self;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC_WAIT, 0, NULL));
    double c0 = cpu_self();
    dt = timed_wait(m, c, 1.0);
    double used = cpu_self() - c0;
    printf("primary ULT waited %.3f s; process CPU %.1f ms\n", dt, used * 1e3);
    if (!sync_slow())
        CHECK(used < 0.050);

    CHECK_ABT(ABT_cond_free(&c));
    CHECK_ABT(ABT_mutex_free(&m));
    CHECK_ABT(ABT_finalize());
    if (sync_slow())
        TEST_SKIP("CPU use not checked under valgrind or a sanitizer");
    return 0;
}
