/* task_migratable: tasklets are migratable by default; ABT_task_set_migratable
 * toggles it both ways and ABT_task_is_migratable / ABT_thread_is_migratable report
 * it.  Skips if migration is disabled in the library. */
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
    ABT_task k;
    ABT_bool b;
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
    CHECK_ABT(ABT_task_set_migratable(k, ABT_TRUE));
    b = 9;
    CHECK_ABT(ABT_task_is_migratable(k, &b));
    CHECK_EQ_INT(b, ABT_TRUE);
    CHECK_ABT(ABT_task_join(k));
    b = 9;
    CHECK_ABT(ABT_task_is_migratable(k, &b));
    CHECK_EQ_INT(b, ABT_TRUE);
    CHECK_ABT(ABT_task_free(&k));
    CHECK_ABT(ABT_finalize());
    return 0;
}
