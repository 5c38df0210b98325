/* key_destructor: a key's destructor is called with the value when a ULT that holds
 * a non-NULL value for it is freed - exactly once per such ULT, not at join time
 * (the value is still readable with ABT_thread_get_specific after the join), and not
 * for ULTs whose value is NULL or was reset to NULL.  Each key's destructor gets its
 * own value.  Unnamed ULTs' values are destroyed when they finish (checked after
 * ABT_finalize), and so are values of ULTs on a second xstream. */
#include "test.h"
#include <stdatomic.h>

#define N 10
static ABT_key ka, kb, knone;
static atomic_int a_calls, b_calls, a_sum, b_sum, bad;

static void dtor_a(void *v)
{
    if (v == NULL)
        atomic_fetch_add(&bad, 1);
    atomic_fetch_add(&a_calls, 1);
    atomic_fetch_add(&a_sum, (int)(intptr_t)v);
}
static void dtor_b(void *v)
{
    if (v == NULL)
        atomic_fetch_add(&bad, 1);
    atomic_fetch_add(&b_calls, 1);
    atomic_fetch_add(&b_sum, (int)(intptr_t)v);
}

/* arg: 1..N sets ka=arg, kb=100*arg; 0 sets ka then resets it to NULL. */
static void func(void *arg)
{
    int i = (int)(intptr_t)arg;
    if (i > 0) {
        CHECK_ABT(ABT_key_set(ka, (void *)(intptr_t)i));
        CHECK_ABT(ABT_self_set_specific(kb, (void *)(intptr_t)(100 * i)));
        CHECK_ABT(ABT_key_set(knone, (void *)(intptr_t)i));
    } else {
        CHECK_ABT(ABT_key_set(ka, (void *)1));
        CHECK_ABT(ABT_key_set(ka, NULL));
        CHECK_ABT(ABT_key_set(kb, NULL));
    }
    CHECK_ABT(ABT_thread_yield());
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pool, pool2;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));
    CHECK_ABT(ABT_key_create(dtor_a, &ka));
    CHECK_ABT(ABT_key_create(dtor_b, &kb));
    CHECK_ABT(ABT_key_create(NULL, &knone));

    ABT_thread t[N + 1];
    for (int i = 0; i <= N; i++)
        CHECK_ABT(ABT_thread_create(i % 2 ? pool2 : pool, func, (void *)(intptr_t)i,
                                    ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i <= N; i++)
        CHECK_ABT(ABT_thread_join(t[i]));
    CHECK_EQ_INT(atomic_load(&a_calls), 0);
    CHECK_EQ_INT(atomic_load(&b_calls), 0);
    void *v;
    CHECK_ABT(ABT_thread_get_specific(t[3], ka, &v));
    CHECK_EQ_PTR(v, (void *)3);
    CHECK_ABT(ABT_thread_get_specific(t[3], kb, &v));
    CHECK_EQ_PTR(v, (void *)300);

    CHECK_ABT(ABT_thread_free(&t[0]));
    CHECK_EQ_INT(atomic_load(&a_calls), 0);
    CHECK_EQ_INT(atomic_load(&b_calls), 0);
    CHECK_ABT(ABT_thread_free(&t[1]));
    CHECK_EQ_INT(atomic_load(&a_calls), 1);
    CHECK_EQ_INT(atomic_load(&b_calls), 1);
    for (int i = 2; i <= N; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));
    CHECK_EQ_INT(atomic_load(&a_calls), N);
    CHECK_EQ_INT(atomic_load(&b_calls), N);
    CHECK_EQ_INT(atomic_load(&a_sum), N * (N + 1) / 2);
    CHECK_EQ_INT(atomic_load(&b_sum), 100 * N * (N + 1) / 2);

    /* Unnamed ULTs. */
    for (int i = 1; i <= N; i++)
        CHECK_ABT(ABT_thread_create(i % 2 ? pool2 : pool, func, (void *)(intptr_t)i,
                                    ABT_THREAD_ATTR_NULL, NULL));
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(atomic_load(&a_calls), 2 * N);
    CHECK_EQ_INT(atomic_load(&b_calls), 2 * N);
    CHECK_EQ_INT(atomic_load(&a_sum), N * (N + 1));
    CHECK_EQ_INT(atomic_load(&bad), 0);
    return 0;
}
