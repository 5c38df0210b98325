/* task_self: inside a tasklet, ABT_task_self returns its handle and ABT_task_self_id
 * equals ABT_task_get_id; ABT_self_get_thread also works in a tasklet (same handle).
 * In a ULT (and the primary ULT), ABT_task_self / _self_id return ABT_ERR_INV_TASK
 * and the handle is set to ABT_TASK_NULL; from an external thread,
 * ABT_ERR_INV_XSTREAM; before ABT_init, ABT_ERR_UNINITIALIZED. */
#include "test.h"
#include <pthread.h>

static ABT_task seen, seen2;
static ABT_unit_id seen_id;
static int ult_rc1 = -1, ult_rc2 = -1, ult_null;

static void tfunc(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_task_self(&seen));
    CHECK_ABT(ABT_task_self_id(&seen_id));
    CHECK_ABT(ABT_self_get_thread(&seen2));
}

static void ufunc(void *arg)
{
    (void)arg;
    ABT_task k = (ABT_task)&k;
    ABT_unit_id id;
    ult_rc1 = ABT_task_self(&k);
    ult_null = (k == ABT_TASK_NULL);
    ult_rc2 = ABT_task_self_id(&id);
}

static void *ext(void *arg)
{
    (void)arg;
    ABT_task k;
    ABT_unit_id id;
    CHECK_ERR(ABT_task_self(&k), ABT_ERR_INV_XSTREAM);
    CHECK(k == ABT_TASK_NULL);
    CHECK_ERR(ABT_task_self_id(&id), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    ABT_task k;
    ABT_unit_id id;
    CHECK_ERR(ABT_task_self(&k), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_task_self_id(&id), ABT_ERR_UNINITIALIZED);
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    CHECK_ABT(ABT_task_create(pool, tfunc, NULL, &k));
    CHECK_ABT(ABT_task_join(k));
    CHECK(seen == k);
    CHECK(seen2 == k);
    CHECK_ABT(ABT_task_get_id(k, &id));
    CHECK_EQ_INT(id, seen_id);
    CHECK_ABT(ABT_task_free(&k));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, ufunc, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(ult_rc1, ABT_ERR_INV_TASK);
    CHECK(ult_null);
    CHECK_EQ_INT(ult_rc2, ABT_ERR_INV_TASK);

    k = (ABT_task)&k;
    CHECK_ERR(ABT_task_self(&k), ABT_ERR_INV_TASK);
    CHECK(k == ABT_TASK_NULL);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_ABT(ABT_finalize());
    return 0;
}
