/* thread_arg: ABT_thread_get_arg returns the argument given at creation;
 * ABT_thread_set_arg on a ULT that has not started yet changes the argument its
 * function receives; inside a ULT, ABT_self_get_arg returns the current argument and
 * ABT_self_set_arg changes what ABT_thread_get_arg reports afterwards.  The same for
 * tasklets via ABT_task_get_arg.  NULL handles: ABT_ERR_INV_THREAD / _INV_TASK. */
#include "test.h"

static void *received;
static void *self_arg_before, *self_arg_after;

static void func(void *arg)
{
    received = arg;
    CHECK_ABT(ABT_self_get_arg(&self_arg_before));
    CHECK_ABT(ABT_self_set_arg((void *)0xabc));
    CHECK_ABT(ABT_self_get_arg(&self_arg_after));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    void *a;

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0x111, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_get_arg(t, &a));
    CHECK_EQ_PTR(a, (void *)0x111);
    CHECK_ABT(ABT_thread_set_arg(t, (void *)0x222));
    CHECK_ABT(ABT_thread_get_arg(t, &a));
    CHECK_EQ_PTR(a, (void *)0x222);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_PTR(received, (void *)0x222);
    CHECK_EQ_PTR(self_arg_before, (void *)0x222);
    CHECK_EQ_PTR(self_arg_after, (void *)0xabc);
    CHECK_ABT(ABT_thread_get_arg(t, &a));
    CHECK_EQ_PTR(a, (void *)0xabc);
    CHECK_ABT(ABT_thread_free(&t));

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, func, (void *)0x333, &k));
    CHECK_ABT(ABT_task_get_arg(k, &a));
    CHECK_EQ_PTR(a, (void *)0x333);
    CHECK_ABT(ABT_thread_set_arg(k, (void *)0x444));
    CHECK_ABT(ABT_task_join(k));
    CHECK_EQ_PTR(received, (void *)0x444);
    CHECK_EQ_PTR(self_arg_before, (void *)0x444);
    CHECK_ABT(ABT_task_get_arg(k, &a));
    CHECK_EQ_PTR(a, (void *)0xabc);
    CHECK_ABT(ABT_task_free(&k));

    /* The primary ULT has no function and a NULL argument; it may set one. */
    CHECK_ABT(ABT_self_get_arg(&a));
    CHECK_EQ_PTR(a, NULL);
    CHECK_ABT(ABT_self_set_arg((void *)0x555));
    CHECK_ABT(ABT_self_get_arg(&a));
    CHECK_EQ_PTR(a, (void *)0x555);

    CHECK_ERR(ABT_thread_get_arg(ABT_THREAD_NULL, &a), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_arg(ABT_THREAD_NULL, NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_task_get_arg(ABT_TASK_NULL, &a), ABT_ERR_INV_TASK);
    CHECK_ABT(ABT_finalize());
    return 0;
}
