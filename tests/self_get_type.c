/* self_get_type: ABT_self_get_type returns ABT_UNIT_TYPE_THREAD in the primary ULT and
 * in ULTs (on the primary and on a second xstream), ABT_UNIT_TYPE_TASK in tasklets;
 * from an external pthread it returns ABT_ERR_INV_XSTREAM and sets the type to
 * ABT_UNIT_TYPE_EXT; before ABT_init and after ABT_finalize it returns
 * ABT_ERR_UNINITIALIZED with ABT_UNIT_TYPE_EXT (Argobots 1.x behaviour). */
#include "test.h"
#include <pthread.h>

static ABT_unit_type seen[4];

static void func(void *arg) { CHECK_ABT(ABT_self_get_type(&seen[(intptr_t)arg])); }

static void *ext(void *arg)
{
    (void)arg;
    ABT_unit_type t = (ABT_unit_type)99;
    CHECK_ERR(ABT_self_get_type(&t), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(t, ABT_UNIT_TYPE_EXT);
    return NULL;
}

int main(int argc, char **argv)
{
    ABT_unit_type t = (ABT_unit_type)99;
    CHECK_ERR(ABT_self_get_type(&t), ABT_ERR_UNINITIALIZED);
    CHECK_EQ_INT(t, ABT_UNIT_TYPE_EXT);

    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pool, pool2;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    t = (ABT_unit_type)99;
    CHECK_ABT(ABT_self_get_type(&t));
    CHECK_EQ_INT(t, ABT_UNIT_TYPE_THREAD);

    ABT_thread u0, u1;
    ABT_task k0, k1;
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0, ABT_THREAD_ATTR_NULL, &u0));
    CHECK_ABT(ABT_task_create(pool, func, (void *)1, &k0));
    CHECK_ABT(ABT_thread_create(pool2, func, (void *)2, ABT_THREAD_ATTR_NULL, &u1));
    CHECK_ABT(ABT_task_create(pool2, func, (void *)3, &k1));
    CHECK_ABT(ABT_thread_free(&u0));
    CHECK_ABT(ABT_task_free(&k0));
    CHECK_ABT(ABT_thread_free(&u1));
    CHECK_ABT(ABT_task_free(&k1));
    CHECK_EQ_INT(seen[0], ABT_UNIT_TYPE_THREAD);
    CHECK_EQ_INT(seen[1], ABT_UNIT_TYPE_TASK);
    CHECK_EQ_INT(seen[2], ABT_UNIT_TYPE_THREAD);
    CHECK_EQ_INT(seen[3], ABT_UNIT_TYPE_TASK);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    t = (ABT_unit_type)99;
    CHECK_ERR(ABT_self_get_type(&t), ABT_ERR_UNINITIALIZED);
    CHECK_EQ_INT(t, ABT_UNIT_TYPE_EXT);
    return 0;
}
