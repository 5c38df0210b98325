/* stale_thread_unnamed: the handle of an unnamed ULT (obtained with ABT_self_get_thread
 * inside it) goes stale when the ULT finishes and weft frees it: ABT_thread_get_state,
 * ABT_thread_resume and ABT_thread_cancel then return ABT_ERR_INV_THREAD, also after a
 * new ULT took its descriptor. */
#include "stale_test.h"

static ABT_thread seen;
static void body(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_self_get_thread(&seen));
}

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    CHECK_ABT(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_ABT(ABT_self_yield()); /* runs and frees the unnamed ULT */
    size_t size;
    CHECK_ABT(ABT_pool_get_total_size(pool, &size));
    CHECK_EQ_INT((long)size, 0);
    CHECK(seen != ABT_THREAD_NULL);
    ABT_thread_state st;
    CHECK_ERR(ABT_thread_get_state(seen, &st), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_resume(seen), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_cancel(seen), ABT_ERR_INV_THREAD);

    ABT_thread first = seen, t;
    CHECK_ABT(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ERR(ABT_thread_get_state(first, &st), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_thread_join(t));
    ABT_bool eq;
    CHECK_ABT(ABT_thread_equal(seen, t, &eq)); /* a named ULT's own handle */
    CHECK(eq == ABT_TRUE);
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_finalize());
    return 0;
}
