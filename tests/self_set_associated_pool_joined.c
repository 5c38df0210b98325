/* self_set_associated_pool_joined: a ULT running on a secondary stream changes its
 * associated pool (ABT_self_set_associated_pool, back and forth between two pools, no
 * yield) while the primary ULT is already joining and freeing it.  The joiner reads the
 * target's pool to decide how to wait, so the target's update must be one the joiner may
 * read at any time (no data race: the ThreadSanitizer tree fails on one).  After the join
 * ABT_thread_get_last_pool reports the last pool set.
 * The writer keeps writing for a while after the joiner announced its join, so that the
 * join's read falls among the writes; a slow machine only shortens that overlap. */
#define _GNU_SOURCE
#include "test.h"

#include <stdatomic.h>
#include <time.h>

static ABT_pool pools[2];
static atomic_int joining, writes;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void writer(void *arg)
{
    (void)arg;
    double until = 0;
    for (int i = 0;; i++) {
        CHECK_ABT(ABT_self_set_associated_pool(pools[i & 1]));
        atomic_fetch_add_explicit(&writes, 1, memory_order_relaxed);
        if (until == 0 && atomic_load_explicit(&joining, memory_order_relaxed))
            until = now() + 0.05;
        if (until != 0 && now() > until && (i & 1))
            break; /* ends on pools[1] */
    }
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[0]));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[1]));
    /* the secondary stream's scheduler runs both pools, so the writer runs there whichever
     * pool it names */
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &xs));

    int rounds = test_scale_div() > 1 ? 2 : 6;
    for (int r = 0; r < rounds; r++) {
        atomic_store(&joining, 0);
        atomic_store(&writes, 0);
        ABT_thread t;
        CHECK_ABT(ABT_thread_create(pools[0], writer, NULL, ABT_THREAD_ATTR_NULL, &t));
        /* let it start on the secondary stream (or not: the join then runs it) */
        for (int i = 0; i < 1000 && atomic_load(&writes) == 0; i++)
            ABT_thread_yield();
        atomic_store_explicit(&joining, 1, memory_order_relaxed);
        if (r & 1) {
            CHECK_ABT(ABT_thread_join(t));
            ABT_pool last = ABT_POOL_NULL;
            CHECK_ABT(ABT_thread_get_last_pool(t, &last));
            CHECK(last == pools[1]);
        }
        CHECK_ABT(ABT_thread_free(&t));
        CHECK(t == ABT_THREAD_NULL);
        CHECK(atomic_load(&writes) >= 2);
    }

    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    return 0;
}
