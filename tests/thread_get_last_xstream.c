/* thread_get_last_xstream: a ULT that has not run yet has no xstream
 * (ABT_XSTREAM_NULL); after running it reports the xstream it ran on (primary or a
 * second one); the primary ULT reports the primary xstream; a tasklet likewise via
 * ABT_task_get_xstream. */
#include "test.h"

static void func(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2, got;
    ABT_pool pool, pool2;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_get_last_xstream(self, &got));
    CHECK(got == xs);

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_get_last_xstream(t, &got));
    CHECK(got == ABT_XSTREAM_NULL);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_get_last_xstream(t, &got));
    CHECK(got == xs);
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_thread_create(pool2, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_get_last_xstream(t, &got));
    CHECK(got == xs2);
    CHECK_ABT(ABT_thread_free(&t));

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool2, func, NULL, &k));
    CHECK_ABT(ABT_task_join(k));
    CHECK_ABT(ABT_task_get_xstream(k, &got));
    CHECK(got == xs2);
    CHECK_ABT(ABT_thread_get_last_xstream(k, &got));
    CHECK(got == xs2);
    CHECK_ABT(ABT_task_free(&k));

    CHECK_ERR(ABT_thread_get_last_xstream(ABT_THREAD_NULL, &got), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_task_get_xstream(ABT_TASK_NULL, &got), ABT_ERR_INV_TASK);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
