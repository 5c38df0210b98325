/* internal_idle_shared_cpu: an idle stream that spins on the CPU where a stream it woke
 * sleeps (and may wait to run) moves to another CPU instead (core/sched/idle.c,
 * docs/design/sched.md "Idle streams").  The process starts confined to one CPU, so the
 * primary stream and stream 1 share it; then both threads may use two CPUs.  Rounds of
 * fork_join's "one creator" pattern (the primary ULT creates N ULTs into both streams'
 * pools, joins them all) keep waking the other stream, which a kernel may go on queueing
 * on the waker's CPU forever (it does on the 2-CPU KVM guest this was written on: the
 * two threads never ran in parallel again).  Checked: in the last rounds, stream 1 runs
 * its ULTs on another CPU than the creator's in at least some rounds, and the count of
 * streams woken and not yet running (weft_g.idle_waking) is back to zero at the end. */
#define _GNU_SOURCE
#include "core/runtime.h"

#include <abt.h>
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CHECK(c)                                                          \
    do {                                                                  \
        if (!(c)) {                                                       \
            fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #c); \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

#define N 64

static _Atomic int other_cpu; /* a ULT of stream 1 ran on another CPU than the creator */
static int creator_cpu;

static void unit(void *arg)
{
    int rank = -1;
    ABT_self_get_xstream_rank(&rank);
    if (rank == 1 && sched_getcpu() != creator_cpu)
        atomic_store_explicit(&other_cpu, 1, memory_order_relaxed);
}

/* every thread of the process may run on `set` */
static void set_all_threads(const cpu_set_t *set)
{
    DIR *d = opendir("/proc/self/task");
    CHECK(d != NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            CHECK(sched_setaffinity(atoi(e->d_name), sizeof(*set), set) == 0);
    closedir(d);
}

static int waking_total(void)
{
    int n = 0;
    for (int i = 0; i < WEFT_IDLE_CPU_SLOTS; i++)
        n += atomic_load(&weft_g.idle_waking[i]);
    return n;
}

int main(int argc, char **argv)
{
    cpu_set_t all, one;
    int cpu = sched_getcpu(), other = -1;
    CHECK(sched_getaffinity(0, sizeof(all), &all) == 0);
    for (int i = 0; i < CPU_SETSIZE && other < 0; i++)
        if (i != cpu && CPU_ISSET(i, &all))
            other = i;
    if (cpu < 0 || other < 0) {
        printf("SKIP: needs two CPUs\n");
        return 77;
    }
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    CHECK(sched_setaffinity(0, sizeof(one), &one) == 0);
    unsetenv("ABT_SET_AFFINITY");
    CHECK(ABT_init(argc, argv) == ABT_SUCCESS);
    ABT_xstream xs0, xs1;
    ABT_pool pools[2];
    CHECK(ABT_xstream_self(&xs0) == ABT_SUCCESS);
    CHECK(ABT_xstream_get_main_pools(xs0, 1, &pools[0]) == ABT_SUCCESS);
    CHECK(ABT_xstream_create(ABT_SCHED_NULL, &xs1) == ABT_SUCCESS);
    CHECK(ABT_xstream_get_main_pools(xs1, 1, &pools[1]) == ABT_SUCCESS);
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    CPU_SET(other, &one);
    /* valgrind and sanitizers (WEFT_TEST_SLOW): fewer rounds, and where threads run is
     * not checked (a round there is mostly the tool's own work) */
    bool slow = getenv("WEFT_TEST_SLOW") != NULL;
    int rounds = slow ? 200 : 3000, last = slow ? 100 : 1000;
    ABT_thread th[N];
    int apart = 0;
    for (int r = 0; r < rounds; r++) {
        if (r == 10)
            set_all_threads(&one); /* both threads may now use two CPUs */
        creator_cpu = sched_getcpu();
        atomic_store(&other_cpu, 0);
        for (int i = 0; i < N; i++)
            CHECK(ABT_thread_create(pools[i % 2], unit, NULL, ABT_THREAD_ATTR_NULL, &th[i]) ==
                  ABT_SUCCESS);
        for (int i = 0; i < N; i++)
            CHECK(ABT_thread_free(&th[i]) == ABT_SUCCESS);
        if (r >= rounds - last)
            apart += atomic_load(&other_cpu);
    }
    printf("rounds with stream 1 on another CPU than the creator: %d of the last %d\n", apart,
           last);
    CHECK(ABT_xstream_join(xs1) == ABT_SUCCESS);
    CHECK(ABT_xstream_free(&xs1) == ABT_SUCCESS);
    CHECK(waking_total() == 0);
    CHECK(ABT_finalize() == ABT_SUCCESS);
    CHECK(slow || apart >= last / 10);
    return 0;
}
