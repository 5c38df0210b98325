/* key_destructor_main: a value the primary ULT stores under a key with a destructor
 * is destroyed by ABT_finalize (Argobots frees the primary ULT's key table there);
 * a value stored by a tasklet is destroyed when the tasklet is freed. */
#include "test.h"
#include <stdatomic.h>

static ABT_key key;
static atomic_int calls;
static void *last;

static void dtor(void *v)
{
    atomic_fetch_add(&calls, 1);
    last = v;
}

static void task_func(void *arg) { CHECK_ABT(ABT_key_set(key, arg)); }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_key_create(dtor, &key));

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, task_func, (void *)0x7a, &k));
    CHECK_ABT(ABT_task_join(k));
    CHECK_EQ_INT(atomic_load(&calls), 0);
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&calls), 1);
    CHECK_EQ_PTR(last, (void *)0x7a);

    CHECK_ABT(ABT_key_set(key, (void *)0x3a));
    CHECK_EQ_INT(atomic_load(&calls), 1);
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(atomic_load(&calls), 2);
    CHECK_EQ_PTR(last, (void *)0x3a);
    return 0;
}
