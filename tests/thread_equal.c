/* thread_equal: ABT_thread_equal / ABT_task_equal compare handles: a handle equals
 * itself and the handle ABT_thread_self returns inside that ULT; different ULTs
 * differ; ABT_THREAD_NULL and ABT_TASK_NULL compare equal to each other (both are
 * "no work unit"), but not to a live handle. */
#include "test.h"

static ABT_thread inside[2];
static void func(void *arg) { CHECK_ABT(ABT_thread_self(&inside[(intptr_t)arg])); }
static void task_func(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread a, b;
    ABT_task k;
    ABT_bool r;
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0, ABT_THREAD_ATTR_NULL, &a));
    CHECK_ABT(ABT_thread_create(pool, func, (void *)1, ABT_THREAD_ATTR_NULL, &b));
    CHECK_ABT(ABT_task_create(pool, task_func, NULL, &k));
    CHECK_ABT(ABT_thread_join(a));

    r = 9;
    CHECK_ABT(ABT_thread_equal(a, a, &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    r = 9;
    CHECK_ABT(ABT_thread_equal(a, inside[0], &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    r = 9;
    CHECK_ABT(ABT_thread_equal(a, b, &r));
    CHECK_EQ_INT(r, ABT_FALSE);
    r = 9;
    CHECK_ABT(ABT_thread_equal(a, k, &r));
    CHECK_EQ_INT(r, ABT_FALSE);
    r = 9;
    CHECK_ABT(ABT_task_equal(k, k, &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    r = 9;
    CHECK_ABT(ABT_task_equal(k, a, &r));
    CHECK_EQ_INT(r, ABT_FALSE);
    r = 9;
    CHECK_ABT(ABT_thread_equal(ABT_THREAD_NULL, ABT_THREAD_NULL, &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    r = 9;
    CHECK_ABT(ABT_thread_equal(ABT_THREAD_NULL, ABT_TASK_NULL, &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    r = 9;
    CHECK_ABT(ABT_task_equal(ABT_TASK_NULL, ABT_THREAD_NULL, &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    r = 9;
    CHECK_ABT(ABT_thread_equal(a, ABT_THREAD_NULL, &r));
    CHECK_EQ_INT(r, ABT_FALSE);
    r = 9;
    CHECK_ABT(ABT_task_equal(ABT_TASK_NULL, k, &r));
    CHECK_EQ_INT(r, ABT_FALSE);

    CHECK_ABT(ABT_thread_free(&a));
    CHECK_ABT(ABT_thread_free(&b));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_ABT(ABT_finalize());
    return 0;
}
