/* self_arg: ABT_self_get_arg returns the argument of the calling ULT / tasklet,
 * ABT_self_set_arg replaces it (seen by ABT_thread_get_arg afterwards), and
 * ABT_self_get_thread_func returns the running function.  From an external thread
 * all three return ABT_ERR_INV_XSTREAM (ABT_self_get_arg sets *arg to NULL). */
#include "test.h"
#include <pthread.h>

struct rec {
    void *arg_before, *arg_after;
    void (*fn)(void *);
};
static struct rec r[2];

static void func(void *arg)
{
    int i = (arg == (void *)0x10) ? 0 : 1;
    CHECK_ABT(ABT_self_get_arg(&r[i].arg_before));
    CHECK_ABT(ABT_self_set_arg((void *)(intptr_t)(0x100 + i)));
    CHECK_ABT(ABT_self_get_arg(&r[i].arg_after));
    CHECK_ABT(ABT_self_get_thread_func(&r[i].fn));
}

static void *ext(void *arg)
{
    (void)arg;
    void *a = (void *)1;
    void (*f)(void *);
    CHECK_ERR(ABT_self_get_arg(&a), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_PTR(a, NULL);
    CHECK_ERR(ABT_self_set_arg(NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_get_thread_func(&f), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread t;
    ABT_task k;
    void *a;
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0x10, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_task_create(pool, func, (void *)0x11, &k));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_task_join(k));
    CHECK_EQ_PTR(r[0].arg_before, (void *)0x10);
    CHECK_EQ_PTR(r[0].arg_after, (void *)0x100);
    CHECK(r[0].fn == func);
    CHECK_EQ_PTR(r[1].arg_before, (void *)0x11);
    CHECK_EQ_PTR(r[1].arg_after, (void *)0x101);
    CHECK(r[1].fn == func);
    CHECK_ABT(ABT_thread_get_arg(t, &a));
    CHECK_EQ_PTR(a, (void *)0x100);
    CHECK_ABT(ABT_task_get_arg(k, &a));
    CHECK_EQ_PTR(a, (void *)0x101);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_task_free(&k));

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_ABT(ABT_finalize());
    return 0;
}
