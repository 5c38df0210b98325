/* thread_is_unnamed: a ULT created with an output handle is named (ABT_FALSE, both
 * via ABT_thread_is_unnamed and ABT_self_is_unnamed); one created with a NULL output
 * handle is unnamed (ABT_TRUE, checked from inside the ULT); the same for tasklets
 * (ABT_task_is_unnamed).  Argobots 1.2 reports the primary ULT as unnamed too
 * (ABT_TRUE). */
#include "test.h"
#include <stdatomic.h>

static atomic_int named_ok, unnamed_ok, task_named_ok, task_unnamed_ok;

static void ult(void *arg)
{
    int want_unnamed = (int)(intptr_t)arg;
    ABT_bool a = 9, b = 9;
    ABT_thread self;
    CHECK_ABT(ABT_self_is_unnamed(&a));
    CHECK_ABT(ABT_self_get_thread(&self));
    CHECK_ABT(ABT_thread_is_unnamed(self, &b));
    if (a == b && a == (want_unnamed ? ABT_TRUE : ABT_FALSE))
        atomic_fetch_add(want_unnamed ? &unnamed_ok : &named_ok, 1);
}

static void tasklet(void *arg)
{
    int want_unnamed = (int)(intptr_t)arg;
    ABT_bool a = 9, b = 9;
    ABT_task self;
    CHECK_ABT(ABT_self_is_unnamed(&a));
    CHECK_ABT(ABT_task_self(&self));
    CHECK_ABT(ABT_task_is_unnamed(self, &b));
    if (a == b && a == (want_unnamed ? ABT_TRUE : ABT_FALSE))
        atomic_fetch_add(want_unnamed ? &task_unnamed_ok : &task_named_ok, 1);
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
    ABT_bool b;
    CHECK_ABT(ABT_thread_create(pool, ult, (void *)0, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_is_unnamed(t, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    CHECK_ABT(ABT_thread_create(pool, ult, (void *)1, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_ABT(ABT_task_create(pool, tasklet, (void *)0, &k));
    CHECK_ABT(ABT_task_is_unnamed(k, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    CHECK_ABT(ABT_task_create(pool, tasklet, (void *)1, NULL));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_task_free(&k));
    while (atomic_load(&unnamed_ok) + atomic_load(&task_unnamed_ok) < 2)
        CHECK_ABT(ABT_thread_yield());
    CHECK_EQ_INT(atomic_load(&named_ok), 1);
    CHECK_EQ_INT(atomic_load(&unnamed_ok), 1);
    CHECK_EQ_INT(atomic_load(&task_named_ok), 1);
    CHECK_EQ_INT(atomic_load(&task_unnamed_ok), 1);

    /* Argobots 1.2: the primary ULT is not "named". */
    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    b = 9;
    CHECK_ABT(ABT_thread_is_unnamed(self, &b));
    CHECK_EQ_INT(b, ABT_TRUE);
    b = 9;
    CHECK_ABT(ABT_self_is_unnamed(&b));
    CHECK_EQ_INT(b, ABT_TRUE);

    CHECK_ERR(ABT_thread_is_unnamed(ABT_THREAD_NULL, &b), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_task_is_unnamed(ABT_TASK_NULL, &b), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_finalize());
    return 0;
}
