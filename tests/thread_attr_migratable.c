/* thread_attr_migratable: ABT_thread_attr_set_migratable(ABT_FALSE) makes created
 * ULTs non-migratable, ABT_TRUE migratable; the ULT reflects the value at creation
 * time.  ABT_thread_migrate_to_pool on a non-migratable ULT fails with
 * ABT_ERR_INV_THREAD.  Skips if migration is disabled in the library. */
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
    ABT_pool pool, other;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &other));
    ABT_thread_attr attr;
    ABT_thread t1, t2;
    ABT_bool b;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_migratable(attr, ABT_FALSE));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t1));
    CHECK_ABT(ABT_thread_attr_set_migratable(attr, ABT_TRUE));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t2));
    CHECK_ABT(ABT_thread_attr_free(&attr));
    b = 9;
    CHECK_ABT(ABT_thread_is_migratable(t1, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    b = 9;
    CHECK_ABT(ABT_thread_is_migratable(t2, &b));
    CHECK_EQ_INT(b, ABT_TRUE);
    CHECK_ERR(ABT_thread_migrate_to_pool(t1, other), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_thread_free(&t1));
    CHECK_ABT(ABT_thread_free(&t2));
    CHECK_ABT(ABT_pool_free(&other));
    CHECK_ABT(ABT_finalize());
    return 0;
}
