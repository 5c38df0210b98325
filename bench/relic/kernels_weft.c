/* bench/relic/kernels_weft.c - the paper's kernels (kernels.h) on weft: two execution
 * streams (the primary, running the driver as its main ULT, and one more); one instance is
 * a ULT (or, built with KERNELS_TASKLET, a tasklet) pushed to the second stream's pool,
 * the other runs in the main ULT, which then joins the unit (ABT_thread_free). */
#include <abt.h>

#include "kernels.h"

static ABT_xstream xs2;
static ABT_pool pool2;

static void fw_run(void (*body)(void *), void *ctx)
{
    ABT_init(0, NULL);
    ABT_xstream_create(ABT_SCHED_NULL, &xs2);
    ABT_xstream_get_main_pools(xs2, 1, &pool2);
    body(ctx);
    ABT_xstream_join(xs2);
    ABT_xstream_free(&xs2);
    ABT_finalize();
}

static void fw_pair(kern_fn fn, void *a, void *b)
{
    ABT_thread t;
#ifdef KERNELS_TASKLET
    ABT_task_create(pool2, fn, a, &t);
#else
    ABT_thread_create(pool2, fn, a, ABT_THREAD_ATTR_NULL, &t);
#endif
    fn(b);
    ABT_thread_free(&t);
}
