/* thread_create_100k_2xstreams: two execution streams (primary + one secondary)
 * share one MPMC pool; 100,000 ULTs are created into it in batches of 1,000 and
 * joined/freed; every ULT runs exactly once, and both xstreams take part (a first
 * "blocker" ULT does not return until the second xstream has run something, so if
 * the blocker occupies the primary xstream, the second one must take work from the
 * shared pool).  The secondary xstream is created with ABT_xstream_create_basic over
 * the primary's own pool. */
#include "test.h"
#include <stdatomic.h>

#define TOTAL 100000
#define BATCH 1000
static atomic_uchar ran[TOTAL];
static atomic_int on_rank[2];

static void func(void *arg)
{
    int rank;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    if (rank == 0 || rank == 1)
        atomic_fetch_add_explicit(&on_rank[rank], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&ran[(intptr_t)arg], 1, memory_order_relaxed);
    if (((intptr_t)arg & 63) == 0)
        CHECK_ABT(ABT_thread_yield());
}

static void blocker(void *arg)
{
    (void)arg;
    int rank;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    if (rank == 0 || rank == 1)
        atomic_fetch_add(&on_rank[rank], 1);
    while (atomic_load(&on_rank[1]) == 0)
        ; /* keep this xstream busy; the other one must pick up work */
}

int main(int argc, char **argv)
{
    const int total = TOTAL / test_scale_div(); /* fewer under sanitizers */
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_pool_access access;
    CHECK_ABT(ABT_pool_get_access(pool, &access));
    if (access != ABT_POOL_ACCESS_MPMC)
        TEST_FAIL("primary pool access is %d, expected MPMC", (int)access);
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 1, &pool, ABT_SCHED_CONFIG_NULL, &xs2));
    int rank2;
    CHECK_ABT(ABT_xstream_get_rank(xs2, &rank2));
    CHECK_EQ_INT(rank2, 1);

    static ABT_thread ts[BATCH];
    ABT_thread b;
    CHECK_ABT(ABT_thread_create(pool, blocker, NULL, ABT_THREAD_ATTR_NULL, &b));
    for (int base = 0; base < total; base += BATCH) {
        for (int i = 0; i < BATCH; i++)
            CHECK_ABT(ABT_thread_create(pool, func, (void *)(intptr_t)(base + i),
                                        ABT_THREAD_ATTR_NULL, &ts[i]));
        if (base == 0)
            CHECK_ABT(ABT_thread_free(&b));
        for (int i = 0; i < BATCH; i++)
            CHECK_ABT(ABT_thread_free(&ts[i]));
    }
    for (int i = 0; i < total; i++)
        if (atomic_load(&ran[i]) != 1)
            TEST_FAIL("ULT %d ran %d times", i, atomic_load(&ran[i]));
    CHECK(atomic_load(&on_rank[1]) > 0);
    CHECK_EQ_INT(atomic_load(&on_rank[0]) + atomic_load(&on_rank[1]), total + 1);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
