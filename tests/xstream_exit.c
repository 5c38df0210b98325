/* xstream_exit: ABT_xstream_exit called by a ULT on a secondary stream does
 * not return; the ULT terminates and the stream terminates on its own (state
 * TERMINATED without any join request), after which join/free succeed.
 * Called by the primary ULT it fails (ABT_ERR_INV_XSTREAM; the docs also list
 * ABT_ERR_INV_THREAD for this case, both accepted); called by a non-primary
 * ULT on the primary stream it fails with ABT_ERR_INV_XSTREAM. */
#include "test.h"
#include <sched.h>
#include <stdatomic.h>

static atomic_int before_exit, after_exit, exit_ret_on_primary = -1;

static void exiting_ult(void *arg)
{
    (void)arg;
    atomic_store(&before_exit, 1);
    ABT_xstream_exit();
    atomic_store(&after_exit, 1); /* must not be reached */
}

static void ult_on_primary(void *arg)
{
    (void)arg;
    atomic_store(&exit_ret_on_primary, ABT_xstream_exit());
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream xs;
    ABT_pool pool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, exiting_ult, NULL, ABT_THREAD_ATTR_NULL, &t));

    /* Wait (bounded) until the stream terminates by itself. */
    ABT_xstream_state st = ABT_XSTREAM_STATE_RUNNING;
    double start = ABT_get_wtime();
    while (1) {
        CHECK_ABT(ABT_xstream_get_state(xs, &st));
        if (st == ABT_XSTREAM_STATE_TERMINATED)
            break;
        if (ABT_get_wtime() - start > 30.0)
            TEST_FAIL("execution stream did not terminate after ABT_xstream_exit");
        ABT_thread_yield();
        sched_yield();
    }
    CHECK_EQ_INT(atomic_load(&before_exit), 1);
    CHECK_EQ_INT(atomic_load(&after_exit), 0);

    ABT_thread_state ts;
    CHECK_ABT(ABT_thread_get_state(t, &ts));
    CHECK_EQ_INT(ts, ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));

    /* Primary ULT. */
    int ret = ABT_xstream_exit();
    if (ret != ABT_ERR_INV_XSTREAM && ret != ABT_ERR_INV_THREAD)
        TEST_FAIL("ABT_xstream_exit on primary ULT returned %d (%s)", ret, test_errname(ret));

    /* Non-primary ULT on the primary stream. */
    ABT_xstream primary;
    ABT_pool ppool;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));
    CHECK_ABT(ABT_thread_create(ppool, ult_on_primary, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&exit_ret_on_primary), ABT_ERR_INV_XSTREAM);

    CHECK_ABT(ABT_finalize());
    return 0;
}
