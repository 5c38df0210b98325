/* thread_revive_to: ABT_thread_revive_to revives a terminated ULT and makes the
 * calling ULT yield to it immediately, so on a single xstream it has run by the time
 * the call returns.  Reviving a ULT that has not terminated gives ABT_ERR_INV_THREAD,
 * and so does reviving a tasklet (not yieldable). */
#include "test.h"
#include <stdatomic.h>

static atomic_int runs;
static int last_arg;

static void func(void *arg)
{
    last_arg = (int)(intptr_t)arg;
    atomic_fetch_add(&runs, 1);
}

static atomic_int gate;
static void waiter(void *arg)
{
    (void)arg;
    while (!atomic_load(&gate))
        CHECK_ABT(ABT_thread_yield());
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, func, (void *)1, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(atomic_load(&runs), 1);
    for (int i = 2; i <= 5; i++) {
        CHECK_ABT(ABT_thread_revive_to(pool, func, (void *)(intptr_t)i, &t));
        CHECK_EQ_INT(atomic_load(&runs), i);
        CHECK_EQ_INT(last_arg, i);
        ABT_thread_state st;
        CHECK_ABT(ABT_thread_get_state(t, &st));
        CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    }
    CHECK_ABT(ABT_thread_free(&t));

    ABT_thread w;
    CHECK_ABT(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &w));
    CHECK_ERR(ABT_thread_revive_to(pool, func, NULL, &w), ABT_ERR_INV_THREAD);
    atomic_store(&gate, 1);
    CHECK_ABT(ABT_thread_free(&w));

    ABT_task task;
    CHECK_ABT(ABT_task_create(pool, func, (void *)7, &task));
    CHECK_ABT(ABT_task_join(task));
    CHECK_ERR(ABT_thread_revive_to(pool, func, (void *)8, &task), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_task_free(&task));
    CHECK_EQ_INT(atomic_load(&runs), 6);

    CHECK_ABT(ABT_finalize());
    return 0;
}
