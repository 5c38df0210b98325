/* thread_cancel: ABT_thread_cancel on a ULT that has not started makes it terminate
 * without running; on a ULT that loops over ABT_thread_yield forever it makes the ULT
 * terminate at its next scheduling point (join returns, state TERMINATED, the code after
 * the loop never runs); on a finished ULT it is a no-op.  Cancelling the primary ULT or
 * a NULL handle gives ABT_ERR_INV_THREAD. */
#include "test.h"
#include <stdatomic.h>

static atomic_int ran_fresh, looping, after_loop;

static void fresh(void *arg) { atomic_fetch_add(&ran_fresh, 1); }

static void spinner(void *arg)
{
    atomic_store(&looping, 1);
    for (;;)
        ABT_thread_yield();
    atomic_store(&after_loop, 1); /* never reached */
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_bool on;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_THREAD_CANCEL, &on));
    CHECK_EQ_INT(on, ABT_TRUE);
    ABT_xstream xs, xs2;
    ABT_pool pool, pool2;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, fresh, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_cancel(t));
    CHECK_ABT(ABT_thread_join(t));
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(t, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_cancel(t)); /* finished: nothing to do */
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&ran_fresh), 0);

    /* a running, yielding ULT on the primary stream and one on a second stream */
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));
    ABT_pool where[2] = { pool, pool2 };
    for (int i = 0; i < 2; i++) {
        atomic_store(&looping, 0);
        CHECK_ABT(ABT_thread_create(where[i], spinner, NULL, ABT_THREAD_ATTR_NULL, &t));
        while (!atomic_load(&looping))
            CHECK_ABT(ABT_thread_yield());
        CHECK_ABT(ABT_thread_cancel(t));
        CHECK_ABT(ABT_thread_join(t));
        CHECK_ABT(ABT_thread_get_state(t, &st));
        CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
        CHECK_ABT(ABT_thread_free(&t));
    }
    CHECK_EQ_INT(atomic_load(&after_loop), 0);

    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ERR(ABT_thread_cancel(self), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_cancel(ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
