/* task_specific: tasklets have their own key values: ABT_task_set_specific before a
 * tasklet runs is seen inside through ABT_key_get / ABT_self_get_specific; a value
 * the tasklet sets with ABT_key_set is read with ABT_task_get_specific after the
 * join; the key's destructor runs for it when the tasklet is freed. */
#include "test.h"
#include <stdatomic.h>

static ABT_key key_in, key_out;
static void *seen_a, *seen_b;
static atomic_int dtor_calls;
static void *dtor_value;

static void dtor(void *v)
{
    atomic_fetch_add(&dtor_calls, 1);
    dtor_value = v;
}

static void func(void *arg)
{
    CHECK_ABT(ABT_key_get(key_in, &seen_a));
    CHECK_ABT(ABT_self_get_specific(key_in, &seen_b));
    CHECK_ABT(ABT_key_set(key_out, arg));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_key_create(NULL, &key_in));
    CHECK_ABT(ABT_key_create(dtor, &key_out));

    ABT_task k;
    void *v;
    CHECK_ABT(ABT_task_create(pool, func, (void *)0x77, &k));
    CHECK_ABT(ABT_task_set_specific(k, key_in, (void *)0x66));
    CHECK_ABT(ABT_task_join(k));
    CHECK_EQ_PTR(seen_a, (void *)0x66);
    CHECK_EQ_PTR(seen_b, (void *)0x66);
    CHECK_ABT(ABT_task_get_specific(k, key_out, &v));
    CHECK_EQ_PTR(v, (void *)0x77);
    CHECK_EQ_INT(atomic_load(&dtor_calls), 0);
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&dtor_calls), 1);
    CHECK_EQ_PTR(dtor_value, (void *)0x77);

    CHECK_ABT(ABT_key_free(&key_in));
    CHECK_ABT(ABT_key_free(&key_out));
    CHECK_ABT(ABT_finalize());
    return 0;
}
