/* tool_lifecycle_finalize: ABT_finalize parks the primary ULT while the primary stream's
 * scheduler drains its pools; the primary ULT then reports SUSPEND, RESUME and RUN in
 * that order (no RUN while it is suspended), with ULTs still waiting in the pool and a
 * second stream to join.  The life-cycle checker of tests/lifecycle.h is on whatever
 * the environment and fails the test inside ABT_finalize on a violation. */
#define TEST_LIFECYCLE_ALWAYS 1
#include "test.h"

static void work(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    if (!lc_active()) {
        ABT_finalize();
        TEST_SKIP("the tool interface is off (WEFT_ENABLE_TOOL unset or 0, or -DWEFT_TOOL=OFF)");
    }
    ABT_xstream xs, xs2;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    for (int i = 0; i < 4; i++)
        CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_ABT(ABT_finalize()); /* exits 1 on a life-cycle violation */
    return 0;
}
