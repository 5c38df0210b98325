/* task_is_unnamed: ABT_task_is_unnamed (a macro alias of ABT_thread_is_unnamed) is
 * ABT_FALSE for a tasklet created with an output handle and ABT_TRUE for one created
 * with NULL (checked inside it through ABT_task_self); ABT_self_is_unnamed agrees. */
#include "test.h"
#include <stdatomic.h>

static atomic_int ok_named, ok_unnamed;

static void func(void *arg)
{
    int want = (int)(intptr_t)arg;
    ABT_task self;
    ABT_bool a = 9, b = 9;
    CHECK_ABT(ABT_task_self(&self));
    CHECK_ABT(ABT_task_is_unnamed(self, &a));
    CHECK_ABT(ABT_self_is_unnamed(&b));
    if (a == b && a == (want ? ABT_TRUE : ABT_FALSE))
        atomic_fetch_add(want ? &ok_unnamed : &ok_named, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_task k;
    ABT_bool b = 9;
    CHECK_ABT(ABT_task_create(pool, func, (void *)0, &k));
    CHECK_ABT(ABT_task_is_unnamed(k, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    CHECK_ABT(ABT_task_create(pool, func, (void *)1, NULL));
    CHECK_ABT(ABT_task_free(&k));
    while (atomic_load(&ok_unnamed) == 0)
        CHECK_ABT(ABT_thread_yield());
    CHECK_EQ_INT(atomic_load(&ok_named), 1);
    CHECK_EQ_INT(atomic_load(&ok_unnamed), 1);
    CHECK_ABT(ABT_finalize());
    return 0;
}
