/* self_on_primary_xstream: ABT_self_on_primary_xstream is ABT_TRUE for the main ULT
 * and for ULTs / tasklets running on the primary xstream, ABT_FALSE for ULTs /
 * tasklets on a second xstream; from an external thread ABT_ERR_INV_XSTREAM (output
 * ABT_FALSE); before ABT_init ABT_ERR_UNINITIALIZED (output ABT_FALSE).  Also
 * ABT_self_is_primary is ABT_FALSE for a ULT on the second xstream and fails with
 * ABT_ERR_INV_XSTREAM from an external thread. */
#include "test.h"
#include <pthread.h>

static ABT_bool on[4] = { 9, 9, 9, 9 };
static ABT_bool prim2 = 9;

static void func(void *arg)
{
    CHECK_ABT(ABT_self_on_primary_xstream(&on[(intptr_t)arg]));
    if ((intptr_t)arg == 2)
        CHECK_ABT(ABT_self_is_primary(&prim2));
}

static void *ext(void *arg)
{
    (void)arg;
    ABT_bool b = 9;
    CHECK_ERR(ABT_self_on_primary_xstream(&b), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(b, ABT_FALSE);
    b = 9;
    CHECK_ERR(ABT_self_is_primary(&b), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(b, ABT_FALSE);
    return NULL;
}

int main(int argc, char **argv)
{
    ABT_bool b = 9;
    CHECK_ERR(ABT_self_on_primary_xstream(&b), ABT_ERR_UNINITIALIZED);
    CHECK_EQ_INT(b, ABT_FALSE);
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pool, pool2;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    b = 9;
    CHECK_ABT(ABT_self_on_primary_xstream(&b));
    CHECK_EQ_INT(b, ABT_TRUE);

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
    CHECK_EQ_INT(on[0], ABT_TRUE);
    CHECK_EQ_INT(on[1], ABT_TRUE);
    CHECK_EQ_INT(on[2], ABT_FALSE);
    CHECK_EQ_INT(on[3], ABT_FALSE);
    CHECK_EQ_INT(prim2, ABT_FALSE);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
