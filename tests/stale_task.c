/* stale_task: a copy of a tasklet handle kept after ABT_task_free is refused with
 * ABT_ERR_INV_TASK by ABT_task_join, ABT_task_free, ABT_task_cancel, ABT_task_revive and
 * the ABT_task_get_* routines (no hang, no double free); ABT_task_equal compares values. */
#include "stale_test.h"

static int runs;
static void body(void *arg)
{
    (void)arg;
    runs++;
}

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_task t;
    CHECK_ABT(ABT_task_create(pool, body, NULL, &t));
    ABT_task stale = t;
    CHECK_ABT(ABT_task_free(&t));
    CHECK(t == ABT_TASK_NULL);
    CHECK_EQ_INT(runs, 1);

    STALE_STEP("task join/free/cancel/revive");
    CHECK_ERR(ABT_task_join(stale), ABT_ERR_INV_TASK);
    ABT_task copy = stale;
    CHECK_ERR(ABT_task_free(&copy), ABT_ERR_INV_TASK);
    CHECK(copy == stale);
    CHECK_ERR(ABT_task_cancel(stale), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_revive(pool, body, NULL, &copy), ABT_ERR_INV_TASK);
    /* the ABT_thread_* routines accept tasklets, and refuse a stale one */
    CHECK_ERR(ABT_thread_join(stale), ABT_ERR_INV_THREAD);

    STALE_STEP("task getters");
    ABT_task_state st;
    ABT_xstream x;
    ABT_pool p;
    int pid;
    ABT_bool b;
    uint64_t id;
    void *arg;
    CHECK_ERR(ABT_task_get_state(stale, &st), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_xstream(stale, &x), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_last_pool(stale, &p), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_last_pool_id(stale, &pid), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_is_migratable(stale, &b), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_set_migratable(stale, ABT_TRUE), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_id(stale, &id), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_arg(stale, &arg), ABT_ERR_INV_TASK);

    ABT_task fresh;
    CHECK_ABT(ABT_task_create(pool, body, NULL, &fresh));
    CHECK_ABT(ABT_task_equal(stale, stale, &b));
    CHECK(b == ABT_TRUE);
    CHECK_ABT(ABT_task_equal(stale, fresh, &b));
    CHECK(b == ABT_FALSE);
    CHECK_ABT(ABT_task_join(fresh));
    CHECK_ABT(ABT_task_free(&fresh));
    CHECK_EQ_INT(runs, 2);
    size_t size;
    CHECK_ABT(ABT_pool_get_total_size(pool, &size));
    CHECK_EQ_INT((long)size, 0);

    CHECK_ABT(ABT_finalize());
    return 0;
}
