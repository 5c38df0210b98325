/* relic_weft: Relic with weft units as main threads.
 *  1. A ULT on a stream is the main thread of the stream's thread-bound Relic; a tasklet on
 *     the same stream may submit and wait too (it runs on the same OS thread).
 *  2. The pending batch belongs to the unit that opened it: another ULT of the same stream
 *     calling relic_wait gets RELIC_ERR_THREAD while the opener is suspended, and the
 *     opener's own wait then succeeds.
 *  3. An explicit handle created by a ULT belongs to that ULT: after the ULT migrates to
 *     another stream between submit and wait, submit_on and wait_on still work there and
 *     every task ran; another ULT using the handle gets RELIC_ERR_THREAD. */
#include <stdatomic.h>

#include "relic_test.h"

static void inc(void *arg)
{
    atomic_fetch_add_explicit((_Atomic int *)arg, 1, memory_order_relaxed);
}

static void spin_task(void *arg) /* a task long enough for the batch to stay pending */
{
    while (!atomic_load((_Atomic int *)arg))
        ;
}

/* ---- 1 and 2 ---- */
static _Atomic int counter, a_submitted, b_done, release_task;
static int b_wait_err, t_err;

static void ult_a(void *arg)
{
    CHECK_RELIC(relic_init());
    CHECK_RELIC(relic_submit(spin_task, &release_task));
    CHECK_RELIC(relic_submit(inc, &counter));
    atomic_store(&a_submitted, 1);
    while (!atomic_load(&b_done))
        ABT_thread_yield(); /* ult_b runs on this stream meanwhile */
    atomic_store(&release_task, 1);
    CHECK_RELIC(relic_wait());
    CHECK_EQ_INT(atomic_load(&counter), 1);
}

static void ult_b(void *arg)
{
    while (!atomic_load(&a_submitted))
        ABT_thread_yield();
    b_wait_err = relic_wait();
    atomic_store(&b_done, 1);
}

static void tasklet_main(void *arg)
{
    for (int i = 0; i < 10; i++)
        if ((t_err = relic_submit(inc, &counter)) != RELIC_SUCCESS)
            return;
    t_err = relic_wait();
}

static void ult_finalize(void *arg) { CHECK_RELIC(relic_finalize()); }

/* ---- 3 ---- */
static relic_t handle;
static ABT_pool pools[2];
static int ranks[2], other_err[2];
static _Atomic int mig_counter, handle_ready, other_done;

static void ult_mover(void *arg)
{
    CHECK_RELIC(relic_create(&handle));
    ABT_self_get_xstream_rank(&ranks[0]);
    for (int i = 0; i < 50; i++)
        CHECK_RELIC(relic_submit_on(handle, inc, &mig_counter));
    atomic_store(&handle_ready, 1);
    ABT_thread self;
    ABT_self_get_thread(&self);
    CHECK_ABT(ABT_thread_migrate_to_pool(self, pools[1]));
    ABT_thread_yield(); /* the move happens here */
    ABT_self_get_xstream_rank(&ranks[1]);
    for (int i = 0; i < 50; i++)
        CHECK_RELIC(relic_submit_on(handle, inc, &mig_counter));
    while (!atomic_load(&other_done))
        ABT_thread_yield();
    CHECK_RELIC(relic_wait_on(handle));
    CHECK_EQ_INT(atomic_load(&mig_counter), 100);
    CHECK_RELIC(relic_destroy(handle));
}

static void ult_other(void *arg)
{
    while (!atomic_load(&handle_ready))
        ABT_thread_yield();
    other_err[0] = relic_submit_on(handle, inc, &mig_counter);
    other_err[1] = relic_wait_on(handle);
    atomic_store(&other_done, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    ABT_xstream self_xs;
    CHECK_ABT(ABT_xstream_self(&self_xs));
    CHECK_ABT(ABT_xstream_get_main_pools(self_xs, 1, &pools[0]));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pools[1]));

    ABT_thread a, b, t, f;
    CHECK_ABT(ABT_thread_create(pools[1], ult_a, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_ABT(ABT_thread_create(pools[1], ult_b, NULL, ABT_THREAD_ATTR_NULL, &b));
    CHECK_ABT(ABT_thread_free(&a));
    CHECK_ABT(ABT_thread_free(&b));
    CHECK_RELIC_ERR(b_wait_err, RELIC_ERR_THREAD);
    CHECK_ABT(ABT_task_create(pools[1], tasklet_main, NULL, &t));
    CHECK_ABT(ABT_task_free(&t));
    CHECK_RELIC(t_err);
    CHECK_EQ_INT(atomic_load(&counter), 11);
    CHECK_ABT(ABT_thread_create(pools[1], ult_finalize, NULL, ABT_THREAD_ATTR_NULL, &f));
    CHECK_ABT(ABT_thread_free(&f));

    ABT_thread m, o;
    CHECK_ABT(ABT_thread_create(pools[0], ult_mover, NULL, ABT_THREAD_ATTR_NULL, &m));
    CHECK_ABT(ABT_thread_create(pools[1], ult_other, NULL, ABT_THREAD_ATTR_NULL, &o));
    CHECK_ABT(ABT_thread_free(&m));
    CHECK_ABT(ABT_thread_free(&o));
    CHECK_EQ_INT(ranks[0], 0);
    CHECK_EQ_INT(ranks[1], 1);
    CHECK_RELIC_ERR(other_err[0], RELIC_ERR_THREAD);
    CHECK_RELIC_ERR(other_err[1], RELIC_ERR_THREAD);

    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    return 0;
}
