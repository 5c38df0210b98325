/* relic_placement: where the assistant runs.  With the main thread pinned to CPU m and
 * other CPUs online, the assistant is pinned to a CPU other than m (an SMT sibling of m
 * when /sys lists one) and really runs there; a second Relic of the same thread gets
 * another CPU when there is a free one; RELIC_ASSISTANT_CPU=-1 leaves it unpinned; an
 * assistant forced onto the main thread's CPU (RELIC_ASSISTANT_CPU=m) still runs every
 * task, both sides sleeping instead of spinning. */
#include "relic_test.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

static void where(void *arg) { atomic_store((_Atomic int *)arg, sched_getcpu()); }

static void inc(void *arg) { (*(int *)arg)++; }

/* The CPUs of a Linux CPU list file, as flags. */
static int read_list(const char *path, bool *set, int n)
{
    memset(set, 0, sizeof(bool) * (size_t)n);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int count = 0, a, b;
    char sep;
    while (fscanf(f, "%d", &a) == 1) {
        b = a;
        if (fscanf(f, "%c", &sep) == 1 && sep == '-') {
            if (fscanf(f, "%d", &b) != 1)
                break;
            if (fscanf(f, "%c", &sep) != 1)
                sep = '\n';
        }
        for (int c = a; c <= b && c < n; c++, count++)
            set[c] = true;
        if (sep != ',')
            break;
    }
    fclose(f);
    return count;
}

int main(void)
{
    static bool online[CPU_SETSIZE], sib[CPU_SETSIZE];
    int ncpu = read_list("/sys/devices/system/cpu/online", online, CPU_SETSIZE);
    if (ncpu < 2)
        TEST_SKIP("one online CPU");
    int m = sched_getcpu();
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(m, &one);
    CHECK(pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0);

    CHECK_RELIC(relic_init());
    int a = relic_assistant_cpu(relic_self());
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", m);
    int nsib = read_list(path, sib, CPU_SETSIZE);
    printf("main pinned to cpu %d (%d SMT threads), assistant pinned to cpu %d\n", m, nsib, a);
    CHECK(a >= 0 && a != m && online[a]);
    if (nsib > 1)
        CHECK(sib[a]);
    /* Wait for the task outside relic_wait (which may run a task still unclaimed in the
     * waiting thread): then the assistant ran it. */
    _Atomic int seen = -1;
    CHECK_RELIC(relic_submit(where, (void *)&seen));
    while (atomic_load(&seen) == -1)
        sched_yield();
    CHECK_RELIC(relic_wait());
    CHECK_EQ_INT(atomic_load(&seen), a);

    relic_t h;
    CHECK_RELIC(relic_create(&h));
    int b = relic_assistant_cpu(h);
    printf("second Relic's assistant: cpu %d\n", b);
    CHECK(b >= 0 && b != m);
    if (ncpu >= 3)
        CHECK(b != a);
    CHECK_RELIC(relic_destroy(h));
    CHECK_RELIC(relic_finalize());

    setenv("RELIC_ASSISTANT_CPU", "-1", 1);
    CHECK_RELIC(relic_init());
    CHECK_EQ_INT(relic_assistant_cpu(relic_self()), -1);
    CHECK_RELIC(relic_finalize());

    char cpu[16];
    snprintf(cpu, sizeof cpu, "%d", m);
    setenv("RELIC_ASSISTANT_CPU", cpu, 1);
    CHECK_RELIC(relic_init());
    CHECK_EQ_INT(relic_assistant_cpu(relic_self()), m);
    int x = 0, n = 2000 / test_scale_div();
    for (int i = 0; i < n; i++) {
        CHECK_RELIC(relic_submit(inc, &x));
        if (i % 10 == 9)
            CHECK_RELIC(relic_wait());
    }
    CHECK_RELIC(relic_finalize());
    CHECK_EQ_INT(x, n);
    return 0;
}
