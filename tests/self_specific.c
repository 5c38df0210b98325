/* self_specific: ABT_self_set_specific / ABT_self_get_specific are per work unit:
 * concurrent ULTs on two xstreams each keep their own value across yields; the
 * values are the same as through ABT_key_set/ABT_key_get; tasklets have their own.
 * ABT_KEY_NULL gives ABT_ERR_INV_KEY; from an external thread ABT_ERR_INV_XSTREAM. */
#include "test.h"
#include <stdatomic.h>
#include <pthread.h>

#define N 8
static ABT_key key;
static atomic_int good;

static void func(void *arg)
{
    void *v;
    CHECK_ABT(ABT_self_get_specific(key, &v));
    CHECK_EQ_PTR(v, NULL);
    CHECK_ABT(ABT_self_set_specific(key, arg));
    int ok = 1;
    for (int i = 0; i < 20; i++) {
        CHECK_ABT(ABT_thread_yield());
        CHECK_ABT(ABT_self_get_specific(key, &v));
        if (v != arg)
            ok = 0;
        CHECK_ABT(ABT_key_get(key, &v));
        if (v != arg)
            ok = 0;
    }
    CHECK_ERR(ABT_self_set_specific(ABT_KEY_NULL, arg), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_self_get_specific(ABT_KEY_NULL, &v), ABT_ERR_INV_KEY);
    if (ok)
        atomic_fetch_add(&good, 1);
}

static void task_func(void *arg)
{
    void *v;
    CHECK_ABT(ABT_self_get_specific(key, &v));
    CHECK_EQ_PTR(v, NULL);
    CHECK_ABT(ABT_key_set(key, arg));
    CHECK_ABT(ABT_self_get_specific(key, &v));
    if (v == arg)
        atomic_fetch_add(&good, 1);
}

static void *ext(void *arg)
{
    (void)arg;
    void *v;
    CHECK_ERR(ABT_self_set_specific(key, NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_get_specific(key, &v), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pools[0]));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pools[1]));
    CHECK_ABT(ABT_key_create(NULL, &key));

    ABT_thread t[N];
    ABT_task k[N];
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_thread_create(pools[i % 2], func, (void *)(intptr_t)(0x1000 + i),
                                    ABT_THREAD_ATTR_NULL, &t[i]));
        CHECK_ABT(ABT_task_create(pools[i % 2], task_func, (void *)(intptr_t)(0x2000 + i), &k[i]));
    }
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_thread_free(&t[i]));
        CHECK_ABT(ABT_task_free(&k[i]));
    }
    CHECK_EQ_INT(atomic_load(&good), 2 * N);

    void *v;
    CHECK_ABT(ABT_self_get_specific(key, &v));
    CHECK_EQ_PTR(v, NULL);
    CHECK_ABT(ABT_self_set_specific(key, (void *)0x99));
    CHECK_ABT(ABT_key_get(key, &v));
    CHECK_EQ_PTR(v, (void *)0x99);
    CHECK_ABT(ABT_self_set_specific(key, NULL));

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_ABT(ABT_key_free(&key));
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
