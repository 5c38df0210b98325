/* tests/affinity_test.h - helpers of the CPU-binding tests: the CPUs this process may
 * use, the CPUs a stream is bound to, and a skip when binding is off (weft's default, as
 * Argobots built without --enable-affinity: ABT_ERR_FEATURE_NA; tests/CMakeLists.txt runs
 * these tests with WEFT_ENABLE_AFFINITY=1). */
#ifndef WEFT_AFFINITY_TEST_H
#define WEFT_AFFINITY_TEST_H

#define _GNU_SOURCE
#include <sched.h>

#include "test.h"

#define MAX_CPUS 1024

/* The CPUs the process may run on now, ascending; returns how many. */
static inline int process_cpus(int *cpus, int max)
{
    cpu_set_t set;
    CHECK(sched_getaffinity(0, sizeof(set), &set) == 0);
    int n = 0;
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &set)) {
            if (n < max)
                cpus[n] = i;
            n++;
        }
    return n;
}

/* The binding calls answer ABT_ERR_FEATURE_NA: skip.  (ENABLED_AFFINITY is not the test:
 * it is also false when ABT_SET_AFFINITY=no turns the binding by rank off while the calls
 * work.) */
static inline void skip_without_affinity(void)
{
    ABT_xstream self;
    int n;
    CHECK_ABT(ABT_xstream_self(&self));
    if (ABT_xstream_get_affinity(self, 0, NULL, &n) == ABT_ERR_FEATURE_NA)
        TEST_SKIP("CPU binding is off (WEFT_ENABLE_AFFINITY unset or 0)");
}

/* The CPUs xs is bound to, as ABT_xstream_get_affinity reports them. */
static inline int stream_cpus(ABT_xstream xs, int *cpus, int max)
{
    int n = -1;
    CHECK_ABT(ABT_xstream_get_affinity(xs, max, cpus, &n));
    CHECK(n >= 1);
    return n;
}

#endif
