/* tests/affinity_test.h - helpers of the CPU-binding tests: the CPUs this process may
 * use, the CPUs a stream is bound to, and a skip when the library has no affinity
 * support (an Argobots built without it answers ABT_ERR_FEATURE_NA). */
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

static inline void skip_without_affinity(void)
{
    ABT_bool on = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_AFFINITY, &on));
    ABT_xstream self;
    int n;
    CHECK_ABT(ABT_xstream_self(&self));
    if (!on || ABT_xstream_get_affinity(self, 0, NULL, &n) == ABT_ERR_FEATURE_NA)
        TEST_SKIP("no affinity support");
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
