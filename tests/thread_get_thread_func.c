/* thread_get_thread_func: ABT_thread_get_thread_func returns the function a ULT or
 * tasklet was created (or revived) with; ABT_self_get_thread_func inside returns the
 * same; for the primary ULT it is NULL.  NULL handle: ABT_ERR_INV_THREAD. */
#include "test.h"

static void (*seen)(void *);
static void f1(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_self_get_thread_func(&seen));
}
static void f2(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_self_get_thread_func(&seen));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    void (*f)(void *);

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, f1, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_get_thread_func(t, &f));
    CHECK(f == f1);
    CHECK_ABT(ABT_thread_join(t));
    CHECK(seen == f1);
    CHECK_ABT(ABT_thread_revive(pool, f2, NULL, &t));
    CHECK_ABT(ABT_thread_get_thread_func(t, &f));
    CHECK(f == f2);
    CHECK_ABT(ABT_thread_join(t));
    CHECK(seen == f2);
    CHECK_ABT(ABT_thread_free(&t));

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, f1, NULL, &k));
    CHECK_ABT(ABT_thread_get_thread_func(k, &f));
    CHECK(f == f1);
    seen = NULL;
    CHECK_ABT(ABT_task_join(k));
    CHECK(seen == f1);
    CHECK_ABT(ABT_task_free(&k));

    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    f = f1;
    CHECK_ABT(ABT_thread_get_thread_func(self, &f));
    CHECK(f == NULL);
    f = f1;
    CHECK_ABT(ABT_self_get_thread_func(&f));
    CHECK(f == NULL);

    CHECK_ERR(ABT_thread_get_thread_func(ABT_THREAD_NULL, &f), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_finalize());
    return 0;
}
