/* relic_sleep_cpu: the assistant's CPU use.  After relic_sleep_hint an idle assistant uses
 * under 1% of a core; with no hint it sleeps after its bounded spin (RELIC_SPIN_US, 1 ms
 * here) and also uses under 1%; after relic_wake_up_hint it spins (near 100% of a core on
 * an idle machine; checked above 5%, as the spinning assistant of a loaded machine gets
 * only its share of a CPU, and that is still five times the sleeping bound).  The process's CPU
 * time is measured while the main thread sleeps, so it is the assistant's.  Timing: skipped under
 * WEFT_TEST_SLOW. */
#include <time.h>
#include <unistd.h>

#include "relic_test.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The fraction of a core used while the main thread sleeps `ms`. */
static double busy_fraction(int ms)
{
    double c0 = cpu_s(), w0 = wall_s();
    usleep((useconds_t)ms * 1000);
    return (cpu_s() - c0) / (wall_s() - w0);
}

static void inc(void *arg) { (*(int *)arg)++; }

int main(void)
{
    if (getenv("WEFT_TEST_SLOW"))
        TEST_SKIP("CPU-time check under a sanitizer or valgrind");
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        TEST_SKIP("one CPU: the assistant never spins");
    setenv("RELIC_SPIN_US", "1000", 1);
    int x = 0;
    CHECK_RELIC(relic_init());

    relic_wake_up_hint();
    CHECK_RELIC(relic_submit(inc, &x));
    CHECK_RELIC(relic_wait());
    double awake = busy_fraction(100);
    printf("awake: %.1f%% of a core\n", awake * 100);
    if (awake < 0.05)
        TEST_FAIL("after relic_wake_up_hint the assistant used only %.1f%% of a core", awake * 100);

    relic_sleep_hint();
    CHECK_RELIC(relic_submit(inc, &x)); /* wakes it: it runs, then sleeps again */
    CHECK_RELIC(relic_wait());
    usleep(5000);
    double asleep = busy_fraction(300);
    printf("after relic_sleep_hint: %.2f%% of a core\n", asleep * 100);
    if (asleep >= 0.01)
        TEST_FAIL("after relic_sleep_hint the assistant used %.2f%% of a core", asleep * 100);

    CHECK_RELIC(relic_finalize());
    CHECK_RELIC(relic_init()); /* no hint: bounded spin, then sleep */
    CHECK_RELIC(relic_submit(inc, &x));
    CHECK_RELIC(relic_wait());
    usleep(20000);
    double idle = busy_fraction(300);
    printf("idle, no hint: %.2f%% of a core\n", idle * 100);
    if (idle >= 0.01)
        TEST_FAIL("an idle assistant past its spin used %.2f%% of a core", idle * 100);
    CHECK_RELIC(relic_finalize());
    CHECK_EQ_INT(x, 3);
    return 0;
}
