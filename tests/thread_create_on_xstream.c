/* thread_create_on_xstream: a ULT created with ABT_thread_create_on_xstream runs on
 * that execution stream (ABT_self_get_xstream / rank inside the ULT), lands in the
 * first main pool of that xstream, and ABT_thread_get_last_xstream reports it.
 * ABT_XSTREAM_NULL is rejected with ABT_ERR_INV_XSTREAM and the handle is set to
 * ABT_THREAD_NULL. */
#include "test.h"
#include <stdatomic.h>

static ABT_xstream seen_xs;
static int seen_rank = -1;
static ABT_pool seen_pool;

static void func(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_self_get_xstream(&seen_xs));
    CHECK_ABT(ABT_self_get_xstream_rank(&seen_rank));
    CHECK_ABT(ABT_self_get_last_pool(&seen_pool));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs2;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    int rank2;
    CHECK_ABT(ABT_xstream_get_rank(xs2, &rank2));
    ABT_pool pool2;
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create_on_xstream(xs2, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK(seen_xs == xs2);
    CHECK_EQ_INT(seen_rank, rank2);
    CHECK(seen_pool == pool2);

    ABT_xstream last;
    CHECK_ABT(ABT_thread_get_last_xstream(t, &last));
    CHECK(last == xs2);
    ABT_pool lp;
    CHECK_ABT(ABT_thread_get_last_pool(t, &lp));
    CHECK(lp == pool2);
    CHECK_ABT(ABT_thread_free(&t));

    t = (ABT_thread)&t; /* garbage that must be overwritten */
    CHECK_ERR(ABT_thread_create_on_xstream(ABT_XSTREAM_NULL, func, NULL, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_INV_XSTREAM);
    CHECK(t == ABT_THREAD_NULL);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
