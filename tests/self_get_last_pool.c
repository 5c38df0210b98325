/* self_get_last_pool: ABT_self_get_last_pool / _id return the pool the calling work
 * unit belongs to: the primary xstream's first main pool for the main ULT, the
 * creation pool for ULTs and tasklets (on the primary and on a second xstream); ids
 * match ABT_pool_get_id.  From an external thread: ABT_ERR_INV_XSTREAM (the id
 * output is set to -1). */
#include "test.h"
#include <pthread.h>

static ABT_pool seen[3];
static int seen_id[3];

static void func(void *arg)
{
    int i = (int)(intptr_t)arg;
    CHECK_ABT(ABT_self_get_last_pool(&seen[i]));
    CHECK_ABT(ABT_self_get_last_pool_id(&seen_id[i]));
}

static void *ext(void *arg)
{
    (void)arg;
    ABT_pool p;
    int id = 5;
    CHECK_ERR(ABT_self_get_last_pool(&p), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_get_last_pool_id(&id), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(id, -1);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pool, pool2, p;
    int id, id2, got;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));
    CHECK_ABT(ABT_pool_get_id(pool, &id));
    CHECK_ABT(ABT_pool_get_id(pool2, &id2));
    CHECK(id != id2);

    CHECK_ABT(ABT_self_get_last_pool(&p));
    CHECK(p == pool);
    CHECK_ABT(ABT_self_get_last_pool_id(&got));
    CHECK_EQ_INT(got, id);

    ABT_thread t0, t1;
    ABT_task k;
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0, ABT_THREAD_ATTR_NULL, &t0));
    CHECK_ABT(ABT_thread_create(pool2, func, (void *)1, ABT_THREAD_ATTR_NULL, &t1));
    CHECK_ABT(ABT_task_create(pool2, func, (void *)2, &k));
    CHECK_ABT(ABT_thread_free(&t0));
    CHECK_ABT(ABT_thread_free(&t1));
    CHECK_ABT(ABT_task_free(&k));
    CHECK(seen[0] == pool);
    CHECK_EQ_INT(seen_id[0], id);
    CHECK(seen[1] == pool2);
    CHECK_EQ_INT(seen_id[1], id2);
    CHECK(seen[2] == pool2);
    CHECK_EQ_INT(seen_id[2], id2);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
