/* thread_get_last_pool: ABT_thread_get_last_pool / _id report the pool a ULT was
 * created in (even before it runs), which matches ABT_pool_get_id; the primary ULT's
 * last pool is the primary xstream's first main pool; a ULT sees the same pool via
 * ABT_self_get_last_pool(_id).  Tasklets: ABT_task_get_last_pool(_id). */
#include "test.h"

static ABT_pool self_pool;
static int self_pool_id = -2;

static void func(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_self_get_last_pool(&self_pool));
    CHECK_ABT(ABT_self_get_last_pool_id(&self_pool_id));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool, pool_b, got;
    int id, got_id;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_get_last_pool(self, &got));
    CHECK(got == pool);
    CHECK_ABT(ABT_pool_get_id(pool, &id));
    CHECK_ABT(ABT_thread_get_last_pool_id(self, &got_id));
    CHECK_EQ_INT(got_id, id);

    /* A second, standalone pool on a second xstream. */
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool_b));
    ABT_xstream xs2;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 1, &pool_b, ABT_SCHED_CONFIG_NULL, &xs2));
    int id_b;
    CHECK_ABT(ABT_pool_get_id(pool_b, &id_b));
    CHECK(id_b != id);

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool_b, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_get_last_pool(t, &got));
    CHECK(got == pool_b);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_get_last_pool(t, &got));
    CHECK(got == pool_b);
    CHECK_ABT(ABT_thread_get_last_pool_id(t, &got_id));
    CHECK_EQ_INT(got_id, id_b);
    CHECK(self_pool == pool_b);
    CHECK_EQ_INT(self_pool_id, id_b);
    CHECK_ABT(ABT_thread_free(&t));

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool_b, func, NULL, &k));
    CHECK_ABT(ABT_task_get_last_pool(k, &got));
    CHECK(got == pool_b);
    CHECK_ABT(ABT_task_join(k));
    CHECK_ABT(ABT_task_get_last_pool_id(k, &got_id));
    CHECK_EQ_INT(got_id, id_b);
    CHECK_ABT(ABT_task_free(&k));

    CHECK_ERR(ABT_thread_get_last_pool(ABT_THREAD_NULL, &got), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_last_pool_id(ABT_THREAD_NULL, &got_id), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_task_get_last_pool(ABT_TASK_NULL, &got), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_last_pool_id(ABT_TASK_NULL, &got_id), ABT_ERR_INV_TASK);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
