/* task_cancel: ABT_task_cancel on a tasklet that is still waiting in its pool makes
 * it terminate without running its function; it can be joined (state TERMINATED)
 * and freed; the other tasklets in the pool still run.  NULL handle:
 * ABT_ERR_INV_TASK.  Skips if tasklet cancellation is disabled in the library. */
#include "test.h"
#include <stdatomic.h>

static atomic_int runs[3];
static void func(void *arg) { atomic_fetch_add(&runs[(intptr_t)arg], 1); }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_bool enabled = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_TASK_CANCEL, &enabled));
    if (!enabled) {
        ABT_finalize();
        TEST_SKIP("tasklet cancellation disabled");
    }
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_task k[3];
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_task_create(pool, func, (void *)(intptr_t)i, &k[i]));
    CHECK_ABT(ABT_task_cancel(k[1]));
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_task_join(k[i]));
    ABT_task_state st;
    CHECK_ABT(ABT_task_get_state(k[1], &st));
    CHECK_EQ_INT(st, ABT_TASK_STATE_TERMINATED);
    CHECK_EQ_INT(atomic_load(&runs[0]), 1);
    CHECK_EQ_INT(atomic_load(&runs[1]), 0);
    CHECK_EQ_INT(atomic_load(&runs[2]), 1);
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_task_free(&k[i]));

    CHECK_ERR(ABT_task_cancel(ABT_TASK_NULL), ABT_ERR_INV_TASK);
    CHECK_ABT(ABT_finalize());
    return 0;
}
