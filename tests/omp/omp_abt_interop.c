/* OpenMP and abt.h mixed: the program starts weft itself (two streams), then a ULT it
 * creates opens a parallel region, and inside the region threads create and join ULTs
 * of their own; the main ULT opens regions too. */
#include "omp_test.h"

#include <abt.h>
#include <stdint.h>

static long inner_sum;

static void leaf(void *arg)
{
    __atomic_fetch_add(&inner_sum, (long)(intptr_t)arg, __ATOMIC_RELAXED);
}

static void region_in_ult(void *arg)
{
    long *out = arg;
    long s = 0;
#pragma omp parallel num_threads(3) reduction(+ : s)
    {
        ABT_thread t;
        ABT_xstream xs;
        ABT_pool pool;
        CHECK_EQ(ABT_xstream_self(&xs), ABT_SUCCESS);
        CHECK_EQ(ABT_xstream_get_main_pools(xs, 1, &pool), ABT_SUCCESS);
        CHECK_EQ(ABT_thread_create(pool, leaf, (void *)(intptr_t)(omp_get_thread_num() + 1),
                                   ABT_THREAD_ATTR_NULL, &t),
                 ABT_SUCCESS);
        CHECK_EQ(ABT_thread_free(&t), ABT_SUCCESS);
        s += omp_get_thread_num();
    }
    *out = s;
}

int main(int argc, char **argv)
{
    check_runtime_is_weft();
    CHECK_EQ(ABT_init(argc, argv), ABT_SUCCESS);
    ABT_xstream xs2;
    CHECK_EQ(ABT_xstream_create(ABT_SCHED_NULL, &xs2), ABT_SUCCESS);
    ABT_xstream self;
    ABT_pool pool;
    CHECK_EQ(ABT_xstream_self(&self), ABT_SUCCESS);
    CHECK_EQ(ABT_xstream_get_main_pools(self, 1, &pool), ABT_SUCCESS);
    long s = -1;
    ABT_thread t;
    CHECK_EQ(ABT_thread_create(pool, region_in_ult, &s, ABT_THREAD_ATTR_NULL, &t), ABT_SUCCESS);
    CHECK_EQ(ABT_thread_free(&t), ABT_SUCCESS);
    CHECK_EQ(s, 0 + 1 + 2);
    CHECK_EQ(inner_sum, 1 + 2 + 3);
    long m = 0;
#pragma omp parallel num_threads(4) reduction(+ : m)
    m += 1;
    CHECK_EQ(m, 4);
    CHECK_EQ(ABT_xstream_join(xs2), ABT_SUCCESS);
    CHECK_EQ(ABT_xstream_free(&xs2), ABT_SUCCESS);
    CHECK_EQ(ABT_finalize(), ABT_SUCCESS);
    return 0;
}
