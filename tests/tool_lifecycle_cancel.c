/* tool_lifecycle_cancel: a unit cancelled while it waits in a pool reports CANCEL (from
 * the ready state) and then no FINISH: its life cycle goes READY -CANCEL-> finished, so a
 * join then reports JOIN and a free FREE.  Checked for a ULT that never ran, a ULT that
 * yielded first, and a tasklet, in a pool that no scheduler serves until the cancel
 * request is made; the life-cycle checker of tests/lifecycle.h is on whatever the
 * environment. */
#define TEST_LIFECYCLE_ALWAYS 1
#include "test.h"

static ABT_thread self_handle;

static void work(void *arg) { (void)arg; }
static void yielder(void *arg)
{
    ABT_pool *q = arg;
    /* move to Q (served by nobody) and yield: it waits there, ready */
    CHECK_ABT(ABT_self_set_associated_pool(*q));
    ABT_thread_yield();
    TEST_FAIL("a cancelled ULT resumed");
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    if (!lc_active()) {
        ABT_finalize();
        TEST_SKIP("the tool interface is off (WEFT_ENABLE_TOOL unset or 0, or -DWEFT_TOOL=OFF)");
    }
    CHECK_ABT(ABT_thread_self(&self_handle));
    ABT_xstream xs;
    ABT_pool main_pool, Q;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &main_pool));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &Q));

    ABT_thread u[3];
    CHECK_ABT(ABT_thread_create(Q, work, NULL, ABT_THREAD_ATTR_NULL, &u[0]));
    CHECK_ABT(ABT_task_create(Q, work, NULL, &u[1]));
    CHECK_ABT(ABT_thread_create(main_pool, yielder, &Q, ABT_THREAD_ATTR_NULL, &u[2]));
    size_t n = 0;
    while (n < 3) { /* let the yielder park itself in Q */
        ABT_thread_yield();
        CHECK_ABT(ABT_pool_get_size(Q, &n));
    }
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_thread_cancel(u[i]));
    /* the primary ULT's scheduler now serves Q too: the cancel requests take effect */
    ABT_thread drain;
    for (;;) {
        CHECK_ABT(ABT_pool_get_size(Q, &n));
        if (n == 0)
            break;
        CHECK_ABT(ABT_pool_pop_thread(Q, &drain));
        CHECK_ABT(ABT_pool_push_thread(main_pool, drain));
        ABT_thread_yield();
    }
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_thread_join(u[i]));
    LC_CHECK_TAIL(u[0], "CREATE CANCEL JOIN");
    LC_CHECK_TAIL(u[1], "CREATE CANCEL JOIN");
    LC_CHECK_TAIL(u[2], "CREATE RUN YIELD CANCEL JOIN");
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_thread_free(&u[i]));
    CHECK_EQ_INT(lc_violations(), 0);
    CHECK_ABT(ABT_pool_free(&Q));
    CHECK_ABT(ABT_finalize());
    return 0;
}
