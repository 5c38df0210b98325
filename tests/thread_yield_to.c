/* thread_yield_to: ABT_thread_yield_to(B) switches directly to B, which is waiting
 * in the pool behind other ULTs; the caller goes back to the end of its pool.  With
 * X, Y, Z queued in that order and X yielding to Z, the run order is X Z Y X'.
 * Errors: yielding to itself, to ABT_THREAD_NULL, or to a tasklet gives
 * ABT_ERR_INV_THREAD. */
#include "test.h"
#include <stdatomic.h>

static ABT_thread x, y, z;
static char order[8];
static atomic_int pos;
static int err_self = -1, err_null = -1, err_task = -1;
static ABT_task task;

static void rec(char c) { order[atomic_fetch_add(&pos, 1)] = c; }

static void fx(void *arg)
{
    (void)arg;
    rec('X');
    err_self = ABT_thread_yield_to(x);
    err_null = ABT_thread_yield_to(ABT_THREAD_NULL);
    err_task = ABT_thread_yield_to(task);
    CHECK_ABT(ABT_thread_yield_to(z));
    rec('x');
}
static void fy(void *arg)
{
    (void)arg;
    rec('Y');
}
static void fz(void *arg)
{
    (void)arg;
    rec('Z');
}
static void ftask(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool, pool2;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    /* The tasklet lives in a pool nobody runs until the end. */
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool2));
    CHECK_ABT(ABT_task_create(pool2, ftask, NULL, &task));

    CHECK_ABT(ABT_thread_create(pool, fx, NULL, ABT_THREAD_ATTR_NULL, &x));
    CHECK_ABT(ABT_thread_create(pool, fy, NULL, ABT_THREAD_ATTR_NULL, &y));
    CHECK_ABT(ABT_thread_create(pool, fz, NULL, ABT_THREAD_ATTR_NULL, &z));
    CHECK_ABT(ABT_thread_join(x));
    CHECK_ABT(ABT_thread_join(y));
    CHECK_ABT(ABT_thread_join(z));
    order[atomic_load(&pos)] = 0;
    if (strcmp(order, "XZYx") != 0)
        TEST_FAIL("order %s, expected XZYx", order);
    CHECK_EQ_INT(err_self, ABT_ERR_INV_THREAD);
    CHECK_EQ_INT(err_null, ABT_ERR_INV_THREAD);
    CHECK_EQ_INT(err_task, ABT_ERR_INV_THREAD);
    /* Main ULT yielding to itself. */
    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ERR(ABT_thread_yield_to(self), ABT_ERR_INV_THREAD);

    CHECK_ABT(ABT_thread_free(&x));
    CHECK_ABT(ABT_thread_free(&y));
    CHECK_ABT(ABT_thread_free(&z));

    /* Run the parked tasklet by moving the pool onto a temporary xstream. */
    ABT_xstream xs2;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 1, &pool2, ABT_SCHED_CONFIG_NULL, &xs2));
    CHECK_ABT(ABT_task_free(&task));
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_pool_free(&pool2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
