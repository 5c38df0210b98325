/* thread_join_suspended: the main ULT joins a ULT that suspends itself
 * (ABT_self_suspend -> state BLOCKED); another ULT resumes it with ABT_thread_resume;
 * the target then finishes and the join returns.  Resuming a ULT that is not
 * BLOCKED gives ABT_ERR_THREAD. */
#include "test.h"
#include <stdatomic.h>

static ABT_thread target;
static atomic_int phase;

static void func_target(void *arg)
{
    (void)arg;
    atomic_store(&phase, 1);
    CHECK_ABT(ABT_self_suspend());
    CHECK_EQ_INT(atomic_load(&phase), 2);
    atomic_store(&phase, 3);
}

static void func_waker(void *arg)
{
    (void)arg;
    ABT_thread_state st;
    for (;;) {
        CHECK_ABT(ABT_thread_get_state(target, &st));
        if (st == ABT_THREAD_STATE_BLOCKED)
            break;
        CHECK_ABT(ABT_thread_yield());
    }
    CHECK_EQ_INT(atomic_load(&phase), 1);
    atomic_store(&phase, 2);
    CHECK_ABT(ABT_thread_resume(target));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread waker;
    CHECK_ABT(ABT_thread_create(pool, func_target, NULL, ABT_THREAD_ATTR_NULL, &target));
    /* READY target cannot be resumed. */
    CHECK_ERR(ABT_thread_resume(target), ABT_ERR_THREAD);
    CHECK_ABT(ABT_thread_create(pool, func_waker, NULL, ABT_THREAD_ATTR_NULL, &waker));
    CHECK_ABT(ABT_thread_join(target));
    CHECK_EQ_INT(atomic_load(&phase), 3);
    CHECK_ABT(ABT_thread_free(&waker));
    /* TERMINATED target cannot be resumed either. */
    CHECK_ERR(ABT_thread_resume(target), ABT_ERR_THREAD);
    CHECK_ABT(ABT_thread_free(&target));
    CHECK_ABT(ABT_finalize());
    return 0;
}
