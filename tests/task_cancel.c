/* task_cancel: ABT_task_cancel on a tasklet that is running (spinning on a second
 * xstream) returns ABT_SUCCESS; the request cannot interrupt a tasklet, whose
 * timing is unspecified, but the tasklet still terminates: ABT_task_join returns and
 * the state is TERMINATED, and it can be freed.  NULL handles give ABT_ERR_INV_TASK.
 * (Cancelling a tasklet that is not running is undefined in Argobots and not
 * tested.)  Skips if tasklet cancellation is disabled in the library. */
#include "test.h"
#include <stdatomic.h>

static atomic_int started, go, finished;

static void func(void *arg)
{
    (void)arg;
    atomic_store(&started, 1);
    while (!atomic_load(&go))
        ;
    atomic_store(&finished, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_bool enabled = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_TASK_CANCEL, &enabled));
    if (!enabled) {
        ABT_finalize();
        TEST_SKIP("tasklet cancellation disabled");
    }
    ABT_xstream xs2;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));

    ABT_task k;
    CHECK_ABT(ABT_task_create_on_xstream(xs2, func, NULL, &k));
    while (!atomic_load(&started))
        ;
    CHECK_ABT(ABT_task_cancel(k));
    atomic_store(&go, 1);
    CHECK_ABT(ABT_task_join(k));
    ABT_task_state st;
    CHECK_ABT(ABT_task_get_state(k, &st));
    CHECK_EQ_INT(st, ABT_TASK_STATE_TERMINATED);
    CHECK_EQ_INT(atomic_load(&finished), 1);
    CHECK_ABT(ABT_task_free(&k));

    CHECK_ERR(ABT_task_cancel(ABT_TASK_NULL), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_cancel(ABT_THREAD_NULL), ABT_ERR_INV_TASK);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
