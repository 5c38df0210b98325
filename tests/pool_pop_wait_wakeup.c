/* pool_pop_wait_wakeup: a caller blocked in ABT_pool_pop_wait_thread on an
 * empty FIFO_WAIT pool with a long timeout is woken as soon as another
 * execution stream pushes a ULT into the pool, and receives that ULT (it does
 * not sleep out the full timeout). */
#include "test.h"
#include <stdatomic.h>

static ABT_pool wait_pool;
static atomic_int pushed, ran;

static void target(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

static void producer(void *arg)
{
    ABT_thread *out = (ABT_thread *)arg;
    if (ABT_thread_create(wait_pool, target, NULL, ABT_THREAD_ATTR_NULL, out) == ABT_SUCCESS)
        atomic_store(&pushed, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    CHECK_ABT(
        ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &wait_pool));
    ABT_xstream xs;
    ABT_pool xpool;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &xpool));

    ABT_thread prod, made = ABT_THREAD_NULL;
    CHECK_ABT(ABT_thread_create(xpool, producer, &made, ABT_THREAD_ATTR_NULL, &prod));

    const double timeout = 100.0;
    ABT_thread got = ABT_THREAD_NULL;
    double t0 = ABT_get_wtime();
    CHECK_ABT(ABT_pool_pop_wait_thread(wait_pool, &got, timeout));
    double el = ABT_get_wtime() - t0;
    CHECK(got != ABT_THREAD_NULL);
    if (el > timeout / 2)
        TEST_FAIL("pop_wait was not woken by the push (%.2f s)", el);

    CHECK_ABT(ABT_thread_free(&prod)); /* producer done: 'made' is set */
    CHECK_EQ_INT(atomic_load(&pushed), 1);
    CHECK(got == made);

    ABT_xstream primary;
    ABT_pool ppool;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));
    CHECK_ABT(ABT_pool_push_thread(ppool, got));
    CHECK_ABT(ABT_thread_free(&made));
    CHECK_EQ_INT(atomic_load(&ran), 1);

    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_pool_free(&wait_pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
