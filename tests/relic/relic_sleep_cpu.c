/* relic_sleep_cpu: the assistant's CPU use.  After relic_sleep_hint an idle assistant uses
 * under 1% of a core; with no hint it sleeps after its bounded spin (RELIC_SPIN_US, 1 ms
 * here) and also uses under 1%; after relic_wake_up_hint it spins.  The process's CPU
 * time is measured while the main thread sleeps, so it is the assistant's: a sleeping
 * assistant uses none however loaded the machine is.  A spinning one uses what the machine
 * gives it, which a loaded machine makes small; what it cannot change is that a spinner is
 * always runnable.  So the awake check samples the state of the process's other threads
 * (/proc/self/task/N/stat): in at least half of 200 samples one of them must be runnable
 * ("R": on a CPU or waiting in its run queue), where a sleeping assistant is in none.
 * Timing: skipped under WEFT_TEST_SLOW. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
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

/* Whether a thread of the process other than the caller is runnable now. */
static bool other_runnable(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        TEST_SKIP("no /proc/self/task");
    long me = (long)syscall(SYS_gettid);
    bool any = false;
    struct dirent *e;
    while (!any && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || atol(e->d_name) == me)
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[n] = 0;
        const char *st = strrchr(buf, ')'); /* "tid (comm) S ...": comm may hold anything */
        any = st && st[1] == ' ' && st[2] == 'R';
    }
    closedir(d);
    return any;
}

/* The fraction of 200 samples, 0.5 ms apart, in which another thread was runnable. */
static double runnable_fraction(void)
{
    int hits = 0;
    for (int i = 0; i < 200; i++) {
        hits += other_runnable();
        usleep(500);
    }
    return hits / 200.0;
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
    double awake = runnable_fraction();
    printf("awake: runnable in %.1f%% of the samples\n", awake * 100);
    if (awake < 0.5)
        TEST_FAIL("after relic_wake_up_hint the assistant was runnable in only %.1f%% of the "
                  "samples",
                  awake * 100);

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
