/* task_get_last_pool: ABT_task_get_last_pool / _id report the pool a tasklet was
 * created in, before and after it runs (id matches ABT_pool_get_id), for the primary
 * pool and for a second xstream's pool; inside the tasklet ABT_self_get_last_pool
 * agrees. */
#include "test.h"

static ABT_pool inside;
static int inside_id = -5;

static void func(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_self_get_last_pool(&inside));
    CHECK_ABT(ABT_self_get_last_pool_id(&inside_id));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pools[2], p;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pools[0]));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pools[1]));

    for (int i = 0; i < 2; i++) {
        int want, id;
        CHECK_ABT(ABT_pool_get_id(pools[i], &want));
        ABT_task k;
        CHECK_ABT(ABT_task_create(pools[i], func, NULL, &k));
        CHECK_ABT(ABT_task_get_last_pool(k, &p));
        CHECK(p == pools[i]);
        CHECK_ABT(ABT_task_get_last_pool_id(k, &id));
        CHECK_EQ_INT(id, want);
        CHECK_ABT(ABT_task_join(k));
        CHECK_ABT(ABT_task_get_last_pool(k, &p));
        CHECK(p == pools[i]);
        CHECK_ABT(ABT_task_get_last_pool_id(k, &id));
        CHECK_EQ_INT(id, want);
        CHECK(inside == pools[i]);
        CHECK_EQ_INT(inside_id, want);
        CHECK_ABT(ABT_task_free(&k));
    }
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
