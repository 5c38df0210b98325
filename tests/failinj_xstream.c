/* failinj_xstream: execution streams under allocation, mmap and pthread_create failure
 * (tests/failinj.h fails each traced call in turn).
 *
 * Covers ABT_xstream_create (with a user scheduler and with the default one),
 * create_basic, create_with_rank, ABT_xstream_set_main_sched / _basic on the primary and
 * on a secondary stream, join, revive (a refused thread on revive is an error, the stream
 * stays terminated and can be revived again), free, and ULTs run on the new streams.
 * Outputs follow Argobots 1.x: a failed creation sets the stream or scheduler handle to
 * the NULL handle.  Every failed call must report the injected failure; ABT_finalize
 * must leave nothing allocated, mapped or running. */
#include "failinj.h"

static _Atomic int ran;
static void work(void *arg)
{
    atomic_fetch_add(&ran, 1);
    ABT_thread_yield();
}

static void run_on(ABT_xstream xs)
{
    ABT_thread t;
    if (FI_OUT_NULL(t, ABT_THREAD_NULL,
                    ABT_thread_create_on_xstream(xs, work, NULL, ABT_THREAD_ATTR_NULL, &t)))
        FI_MUST(ABT_thread_free(&t));
}

static void program(void)
{
    FI_RETRY(ABT_init(0, NULL));
    ABT_xstream xs[4];
    int n = 0;

    /* default scheduler */
    if (FI_OUT_NULL(xs[n], ABT_XSTREAM_NULL, ABT_xstream_create(ABT_SCHED_NULL, &xs[n])))
        n++;
    /* create_basic with its own pools */
    if (FI_OUT_NULL(xs[n], ABT_XSTREAM_NULL,
                    ABT_xstream_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL,
                                             &xs[n])))
        n++;
    /* a predefined scheduler on an explicit pool, with a rank */
    ABT_pool pool;
    if (FI_OUT_NULL(pool, ABT_POOL_NULL,
                    ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool))) {
        ABT_sched sched;
        if (FI_OUT_NULL(sched, ABT_SCHED_NULL,
                        ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL,
                                               &sched))) {
            if (FI_OUT_NULL(xs[n], ABT_XSTREAM_NULL,
                            ABT_xstream_create_with_rank(sched, 7, &xs[n])))
                n++;
            else
                FI_MUST(ABT_sched_free(&sched)); /* frees its automatic pool */
        } else {
            FI_MUST(ABT_pool_free(&pool));
        }
    }
    for (int i = 0; i < n; i++)
        run_on(xs[i]);

    /* a new main scheduler on the primary stream (on a secondary one: below, while it is
     * terminated) */
    ABT_xstream self;
    FI_MUST(ABT_xstream_self(&self));
    ABT_sched s2;
    if (FI_OUT_NULL(s2, ABT_SCHED_NULL,
                    ABT_sched_create_basic(ABT_SCHED_DEFAULT, 0, NULL, ABT_SCHED_CONFIG_NULL,
                                           &s2))) {
        if (!FI_OK(ABT_xstream_set_main_sched(self, s2)))
            FI_MUST(ABT_sched_free(&s2));
    }
    run_on(self);

    /* join, revive, run again, join, free */
    for (int i = 0; i < n; i++) {
        FI_MUST(ABT_xstream_join(xs[i]));
        if (i == 0)
            FI_OK(ABT_xstream_set_main_sched_basic(xs[i], ABT_SCHED_BASIC, 0, NULL));
        int tries = 0;
        while (!FI_OK(ABT_xstream_revive(xs[i])))
            if (++tries > FI_MAX_BURST)
                FI_FAIL("ABT_xstream_revive keeps failing");
        run_on(xs[i]);
        FI_MUST(ABT_xstream_join(xs[i]));
        FI_MUST(ABT_xstream_free(&xs[i]));
        if (xs[i] != ABT_XSTREAM_NULL)
            FI_FAIL("ABT_xstream_free did not reset the handle");
    }
    FI_MUST(ABT_finalize());
}

int main(void) { return fi_main("failinj_xstream", program); }
