/* key_many_keys: with a tiny key table (ABT_KEY_TABLE_SIZE=2 in the environment
 * before ABT_init, so keys share buckets) 100 keys can all hold distinct values in
 * each of several ULTs on two xstreams at once, read back correctly after yields, and
 * every non-NULL value is destroyed exactly once when its ULT is freed.  Keys freed
 * before their values are still correct for the other keys. */
#include "test.h"
#include <stdatomic.h>

#define NKEYS 100
#define NULTS 6
static ABT_key keys[NKEYS];
static atomic_int dtor_calls;
static atomic_long dtor_sum;
static atomic_int good;

static void dtor(void *v)
{
    atomic_fetch_add(&dtor_calls, 1);
    atomic_fetch_add(&dtor_sum, (long)(intptr_t)v);
}

static intptr_t val(int ult, int key) { return (intptr_t)(1 + ult * 1000 + key); }

static void func(void *arg)
{
    int u = (int)(intptr_t)arg;
    for (int k = 0; k < NKEYS; k++)
        CHECK_ABT(ABT_key_set(keys[k], (void *)val(u, k)));
    int ok = 1;
    for (int round = 0; round < 3; round++) {
        CHECK_ABT(ABT_thread_yield());
        for (int k = NKEYS - 1; k >= 0; k--) {
            void *v;
            CHECK_ABT(ABT_key_get(keys[k], &v));
            if ((intptr_t)v != val(u, k))
                ok = 0;
        }
    }
    if (ok)
        atomic_fetch_add(&good, 1);
}

int main(int argc, char **argv)
{
    setenv("ABT_KEY_TABLE_SIZE", "2", 1);
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pools[0]));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pools[1]));
    for (int k = 0; k < NKEYS; k++)
        CHECK_ABT(ABT_key_create(dtor, &keys[k]));

    ABT_thread t[NULTS];
    for (int u = 0; u < NULTS; u++)
        CHECK_ABT(ABT_thread_create(pools[u % 2], func, (void *)(intptr_t)u, ABT_THREAD_ATTR_NULL,
                                    &t[u]));
    for (int u = 0; u < NULTS; u++)
        CHECK_ABT(ABT_thread_join(t[u]));
    CHECK_EQ_INT(atomic_load(&good), NULTS);
    /* Read another ULT's values from outside. */
    for (int k = 0; k < NKEYS; k++) {
        void *v;
        CHECK_ABT(ABT_thread_get_specific(t[NULTS - 1], keys[k], &v));
        CHECK_EQ_INT((intptr_t)v, val(NULTS - 1, k));
    }
    CHECK_EQ_INT(atomic_load(&dtor_calls), 0);
    long want = 0;
    for (int u = 0; u < NULTS; u++)
        for (int k = 0; k < NKEYS; k++)
            want += val(u, k);
    for (int u = 0; u < NULTS; u++)
        CHECK_ABT(ABT_thread_free(&t[u]));
    CHECK_EQ_INT(atomic_load(&dtor_calls), NULTS * NKEYS);
    CHECK_EQ_INT(atomic_load(&dtor_sum), want);

    /* Free half the keys; the others still work. */
    for (int k = 0; k < NKEYS; k += 2)
        CHECK_ABT(ABT_key_free(&keys[k]));
    for (int k = 1; k < NKEYS; k += 2)
        CHECK_ABT(ABT_key_set(keys[k], (void *)(intptr_t)k));
    for (int k = 1; k < NKEYS; k += 2) {
        void *v;
        CHECK_ABT(ABT_key_get(keys[k], &v));
        CHECK_EQ_INT((intptr_t)v, k);
        CHECK_ABT(ABT_key_set(keys[k], NULL));
        CHECK_ABT(ABT_key_free(&keys[k]));
    }

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(atomic_load(&dtor_calls), NULTS * NKEYS);
    return 0;
}
