/* task_equal: ABT_task_equal is true for the same tasklet (including the handle
 * ABT_task_self returns inside it), false for different tasklets and for a tasklet
 * vs. ABT_TASK_NULL, and true for ABT_TASK_NULL vs. ABT_THREAD_NULL. */
#include "test.h"

static ABT_task inside[2];
static void func(void *arg) { CHECK_ABT(ABT_task_self(&inside[(intptr_t)arg])); }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_task a, b;
    ABT_bool r;
    CHECK_ABT(ABT_task_create(pool, func, (void *)0, &a));
    CHECK_ABT(ABT_task_create(pool, func, (void *)1, &b));
    CHECK_ABT(ABT_task_join(a));
    r = 9;
    CHECK_ABT(ABT_task_equal(a, inside[0], &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    r = 9;
    CHECK_ABT(ABT_task_equal(a, a, &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    r = 9;
    CHECK_ABT(ABT_task_equal(a, b, &r));
    CHECK_EQ_INT(r, ABT_FALSE);
    r = 9;
    CHECK_ABT(ABT_task_equal(a, ABT_TASK_NULL, &r));
    CHECK_EQ_INT(r, ABT_FALSE);
    r = 9;
    CHECK_ABT(ABT_task_equal(ABT_TASK_NULL, ABT_TASK_NULL, &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    r = 9;
    CHECK_ABT(ABT_task_equal(ABT_TASK_NULL, ABT_THREAD_NULL, &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    CHECK_ABT(ABT_task_free(&a));
    CHECK_ABT(ABT_task_free(&b));
    CHECK_ABT(ABT_finalize());
    return 0;
}
