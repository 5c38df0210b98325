/* thread_join_finished: joining a ULT that has already terminated returns at once
 * (state TERMINATED before the join), on both a same-xstream ULT and one that ran on
 * a second xstream. */
#include "test.h"
#include <stdatomic.h>

static atomic_int done;

static void func(void *arg)
{
    (void)arg;
    atomic_fetch_add(&done, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    /* Let it run to completion without joining. */
    while (atomic_load(&done) < 1)
        CHECK_ABT(ABT_thread_yield());
    ABT_thread_state st;
    do {
        CHECK_ABT(ABT_thread_get_state(t, &st));
        if (st != ABT_THREAD_STATE_TERMINATED)
            CHECK_ABT(ABT_thread_yield());
    } while (st != ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_thread_create_on_xstream(xs2, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    do {
        CHECK_ABT(ABT_thread_get_state(t, &st));
    } while (st != ABT_THREAD_STATE_TERMINATED);
    CHECK_EQ_INT(atomic_load(&done), 2);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
