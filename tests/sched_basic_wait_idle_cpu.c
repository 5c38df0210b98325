/* sched_basic_wait_idle_cpu: an execution stream whose BASIC_WAIT scheduler
 * has nothing to do blocks instead of spinning: over ~0.4 s of idle wall time
 * the whole process consumes only a small fraction of one CPU (rusage).  The
 * stream still wakes up for new work and can be joined promptly afterwards. */
#include "test.h"
#include <stdatomic.h>
#include <sys/resource.h>
#include <time.h>

static atomic_int ran;

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_pool pool;
    ABT_xstream xs;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool));
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &pool, ABT_SCHED_CONFIG_NULL, &xs));

    /* Make sure the stream is up and its scheduler is running. */
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&ran), 1);

    /* Idle period: the primary sleeps in the kernel (this sleep is the
     * measurement window, not synchronisation). */
    double cpu0 = cpu_seconds(), wall0 = ABT_get_wtime();
    struct timespec req = { 0, 400 * 1000 * 1000 };
    while (nanosleep(&req, &req) != 0)
        ;
    double cpu = cpu_seconds() - cpu0, wall = ABT_get_wtime() - wall0;
    /* A spinning scheduler would burn ~wall seconds. */
    if (cpu > 0.1 * wall)
        TEST_FAIL("idle BASIC_WAIT stream used %.3f s CPU in %.3f s wall", cpu, wall);

    /* Still wakes up for new work. */
    CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&ran), 2);

    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    return 0;
}
