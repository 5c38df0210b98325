/* self_get_thread: ABT_self_get_thread returns the calling work unit's handle in the
 * primary ULT (== ABT_thread_self), in a ULT and - unlike ABT_thread_self - in a
 * tasklet; ABT_self_get_thread_id equals ABT_thread_get_id of it.  From an external
 * thread both return ABT_ERR_INV_XSTREAM. */
#include "test.h"
#include <pthread.h>

static ABT_thread seen[2];
static ABT_unit_id seen_id[2];

static void func(void *arg)
{
    int i = (int)(intptr_t)arg;
    CHECK_ABT(ABT_self_get_thread(&seen[i]));
    CHECK_ABT(ABT_self_get_thread_id(&seen_id[i]));
}

static void *ext(void *arg)
{
    (void)arg;
    ABT_thread t;
    ABT_unit_id id;
    CHECK_ERR(ABT_self_get_thread(&t), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_get_thread_id(&id), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread me, me2;
    ABT_unit_id id, id2;
    CHECK_ABT(ABT_self_get_thread(&me));
    CHECK_ABT(ABT_thread_self(&me2));
    CHECK(me == me2);
    CHECK_ABT(ABT_self_get_thread_id(&id));
    CHECK_ABT(ABT_thread_get_id(me, &id2));
    CHECK_EQ_INT(id, id2);

    ABT_thread t;
    ABT_task k;
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_task_create(pool, func, (void *)1, &k));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_task_join(k));
    CHECK(seen[0] == t);
    CHECK(seen[1] == k);
    CHECK_ABT(ABT_thread_get_id(t, &id));
    CHECK_EQ_INT(seen_id[0], id);
    CHECK_ABT(ABT_task_get_id(k, &id));
    CHECK_EQ_INT(seen_id[1], id);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_task_free(&k));

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_ABT(ABT_finalize());
    return 0;
}
