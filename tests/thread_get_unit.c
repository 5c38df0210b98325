/* thread_get_unit: every ULT and tasklet has a unit handle (not ABT_UNIT_NULL);
 * ABT_self_get_unit inside the work unit returns the same unit as
 * ABT_thread_get_unit from outside; two live work units have different units.
 * NULL handles give ABT_ERR_INV_THREAD. */
#include "test.h"

static ABT_unit inside[2];

static void func(void *arg) { CHECK_ABT(ABT_self_get_unit(&inside[(int)(intptr_t)arg])); }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread t;
    ABT_task k;
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_task_create(pool, func, (void *)1, &k));
    ABT_unit ut, uk;
    CHECK_ABT(ABT_thread_get_unit(t, &ut));
    CHECK_ABT(ABT_thread_get_unit(k, &uk));
    CHECK(ut != ABT_UNIT_NULL);
    CHECK(uk != ABT_UNIT_NULL);
    CHECK(ut != uk);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_task_join(k));
    CHECK(inside[0] == ut);
    CHECK(inside[1] == uk);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_task_free(&k));

    ABT_unit u;
    CHECK_ERR(ABT_thread_get_unit(ABT_THREAD_NULL, &u), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_unit(ABT_TASK_NULL, &u), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_finalize());
    return 0;
}
