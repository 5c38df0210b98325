/* task_revive: a terminated tasklet can be revived with a new function and argument
 * into the same or another pool (here a second xstream's); the handle is unchanged.
 * Reviving a tasklet that has not run yet gives ABT_ERR_INV_TASK; NULL handle:
 * ABT_ERR_INV_TASK; NULL pool: ABT_ERR_INV_POOL. */
#include "test.h"
#include <stdatomic.h>

static atomic_int r1, r2;
static ABT_xstream ran_on;

static void f1(void *arg)
{
    CHECK(arg == (void *)1);
    atomic_fetch_add(&r1, 1);
}
static void f2(void *arg)
{
    CHECK(arg == (void *)2);
    CHECK_ABT(ABT_self_get_xstream(&ran_on));
    atomic_fetch_add(&r2, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pool, pool2, lp;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, f1, (void *)1, &k));
    /* Not yet terminated. */
    CHECK_ERR(ABT_task_revive(pool, f1, (void *)1, &k), ABT_ERR_INV_TASK);
    CHECK_ABT(ABT_task_join(k));
    ABT_task before = k;
    CHECK_ABT(ABT_task_revive(pool, f1, (void *)1, &k));
    CHECK(k == before);
    CHECK_ABT(ABT_task_join(k));
    CHECK_EQ_INT(atomic_load(&r1), 2);
    CHECK_ABT(ABT_task_revive(pool2, f2, (void *)2, &k));
    CHECK_ABT(ABT_task_join(k));
    CHECK_EQ_INT(atomic_load(&r2), 1);
    CHECK(ran_on == xs2);
    CHECK_ABT(ABT_task_get_last_pool(k, &lp));
    CHECK(lp == pool2);
    CHECK_ERR(ABT_task_revive(ABT_POOL_NULL, f1, (void *)1, &k), ABT_ERR_INV_POOL);
    /* ABT_thread_revive accepts tasklets too. */
    CHECK_ABT(ABT_thread_revive(pool, f1, (void *)1, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&r1), 3);

    ABT_task n = ABT_TASK_NULL;
    CHECK_ERR(ABT_task_revive(pool, f1, (void *)1, &n), ABT_ERR_INV_TASK);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
