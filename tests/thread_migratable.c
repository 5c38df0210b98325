/* thread_migratable: ULTs created without an attribute, or with a default attribute,
 * are migratable; ABT_thread_attr_set_migratable(ABT_FALSE) creates a non-migratable
 * ULT; ABT_thread_set_migratable toggles it and ABT_thread_is_migratable reports it;
 * tasklets are migratable by default (ABT_task_set/is_migratable).  The primary ULT
 * is not migratable and ABT_thread_set_migratable on it succeeds without effect
 * (Argobots 1.x).  Skips if migration is disabled in the library. */
#include "test.h"

static void func(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_bool enabled = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_MIGRATION, &enabled));
    if (!enabled) {
        ABT_finalize();
        TEST_SKIP("migration disabled");
    }
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_bool b;

    ABT_thread t1, t2, t3;
    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t1));
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t2));
    CHECK_ABT(ABT_thread_attr_set_migratable(attr, ABT_FALSE));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t3));
    CHECK_ABT(ABT_thread_attr_free(&attr));

    b = 9;
    CHECK_ABT(ABT_thread_is_migratable(t1, &b));
    CHECK_EQ_INT(b, ABT_TRUE);
    b = 9;
    CHECK_ABT(ABT_thread_is_migratable(t2, &b));
    CHECK_EQ_INT(b, ABT_TRUE);
    b = 9;
    CHECK_ABT(ABT_thread_is_migratable(t3, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    CHECK_ABT(ABT_thread_set_migratable(t3, ABT_TRUE));
    b = 9;
    CHECK_ABT(ABT_thread_is_migratable(t3, &b));
    CHECK_EQ_INT(b, ABT_TRUE);
    CHECK_ABT(ABT_thread_set_migratable(t1, ABT_FALSE));
    b = 9;
    CHECK_ABT(ABT_thread_is_migratable(t1, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    CHECK_ABT(ABT_thread_free(&t1));
    CHECK_ABT(ABT_thread_free(&t2));
    CHECK_ABT(ABT_thread_free(&t3));

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, func, NULL, &k));
    b = 9;
    CHECK_ABT(ABT_task_is_migratable(k, &b));
    CHECK_EQ_INT(b, ABT_TRUE);
    CHECK_ABT(ABT_task_set_migratable(k, ABT_FALSE));
    b = 9;
    CHECK_ABT(ABT_task_is_migratable(k, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    b = 9;
    CHECK_ABT(ABT_thread_is_migratable(k, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    CHECK_ABT(ABT_task_free(&k));

    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    b = 9;
    CHECK_ABT(ABT_thread_is_migratable(self, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    CHECK_ABT(ABT_thread_set_migratable(self, ABT_TRUE));
    b = 9;
    CHECK_ABT(ABT_thread_is_migratable(self, &b));
    CHECK_EQ_INT(b, ABT_FALSE);

    CHECK_ERR(ABT_thread_set_migratable(ABT_THREAD_NULL, ABT_TRUE), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_is_migratable(ABT_THREAD_NULL, &b), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_task_set_migratable(ABT_TASK_NULL, ABT_TRUE), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_is_migratable(ABT_TASK_NULL, &b), ABT_ERR_INV_TASK);
    CHECK_ABT(ABT_finalize());
    return 0;
}
