/* thread_join_not_started: joining a ULT that is still READY in the pool (never ran:
 * single xstream, the main ULT has not yielded) makes the main ULT block until the
 * ULT has been scheduled and finished. */
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
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread t[3];
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    CHECK_EQ_INT(atomic_load(&done), 0);
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(t[2], &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_READY);
    /* Join the last one first: it needs the two others to be scheduled before it. */
    CHECK_ABT(ABT_thread_join(t[2]));
    CHECK_ABT(ABT_thread_get_state(t[2], &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK(atomic_load(&done) >= 1);
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));
    CHECK_EQ_INT(atomic_load(&done), 3);
    CHECK_ABT(ABT_finalize());
    return 0;
}
