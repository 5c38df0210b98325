/* sync_idle_cpu: a stream with a BASIC_WAIT scheduler whose only ULT waits 1 s in
 * ABT_cond_timedwait burns (near) no CPU: under 50 ms for the stream's OS thread, and
 * for the whole process while the primary thread waits in an ABT_xstream_barrier.  The
 * wait ends by time-out at the deadline, not earlier. */
#define _GNU_SOURCE
#include "sync_test.h"

#include <sys/resource.h>

static ABT_mutex mtx;
static ABT_cond cond;
static ABT_xstream_barrier bar;
static double thread_cpu, waited;
static int result;

static double cpu_of(int who)
{
    struct rusage ru;
    CHECK(getrusage(who, &ru) == 0);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static void sleeper(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_xstream_barrier_wait(bar)); /* start together */
    double c0 = cpu_of(RUSAGE_THREAD);
    double t0 = sync_now();
    CHECK_ABT(ABT_mutex_lock(mtx));
    struct timespec ts = sync_abstime(1.0);
    result = ABT_cond_timedwait(cond, mtx, &ts);
    CHECK_ABT(ABT_mutex_unlock(mtx));
    waited = sync_now() - t0;
    thread_cpu = cpu_of(RUSAGE_THREAD) - c0;
    CHECK_ABT(ABT_xstream_barrier_wait(bar));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC_WAIT);
    CHECK_ABT(ABT_mutex_create(&mtx));
    CHECK_ABT(ABT_cond_create(&cond));
    CHECK_ABT(ABT_xstream_barrier_create(2, &bar));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(w.pools[1], sleeper, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_xstream_barrier_wait(bar));
    double p0 = cpu_of(RUSAGE_SELF);
    CHECK_ABT(ABT_xstream_barrier_wait(bar)); /* the primary thread sleeps in the kernel */
    double proc_cpu = cpu_of(RUSAGE_SELF) - p0;
    CHECK_ABT(ABT_thread_free(&t));

    printf("waited %.3f s; CPU: stream thread %.1f ms, process %.1f ms\n", waited, thread_cpu * 1e3,
           proc_cpu * 1e3);
    CHECK_EQ_INT(result, ABT_ERR_COND_TIMEDOUT);
    CHECK(waited >= 0.998);
    bool slow = sync_slow();
    if (!slow) {
        CHECK(thread_cpu < 0.050);
        CHECK(proc_cpu < 0.050);
    }

    CHECK_ABT(ABT_xstream_barrier_free(&bar));
    CHECK_ABT(ABT_cond_free(&cond));
    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    if (slow)
        TEST_SKIP("CPU use not checked under valgrind or a sanitizer");
    return 0;
}
