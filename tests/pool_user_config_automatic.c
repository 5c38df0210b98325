/* pool_user_config_automatic: ABT_pool_create honours ABT_pool_config_automatic.  A user
 * pool created with the key set to a non-zero value is freed (its free callback runs)
 * when the last scheduler using it is freed; without the key (ABT_POOL_CONFIG_NULL, or
 * the key set to 0) the pool outlives its scheduler and is freed by ABT_pool_free. */
#include "test.h"

static int n_free;
static ABT_unit create_unit(ABT_pool pool, ABT_thread t) { return (ABT_unit)t; }
static void free_unit(ABT_pool pool, ABT_unit unit) {}
static ABT_bool is_empty(ABT_pool pool) { return ABT_TRUE; }
static ABT_thread pop(ABT_pool pool, ABT_pool_context ctx) { return ABT_THREAD_NULL; }
static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx) { TEST_FAIL("push"); }
static void pool_free(ABT_pool pool) { n_free++; }

static ABT_pool make_pool(ABT_pool_user_def def, int automatic)
{
    ABT_pool_config cfg = ABT_POOL_CONFIG_NULL;
    if (automatic >= 0) {
        CHECK_ABT(ABT_pool_config_create(&cfg));
        CHECK_ABT(ABT_pool_config_set(cfg, ABT_pool_config_automatic.key,
                                      ABT_pool_config_automatic.type, &automatic));
    }
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create(def, cfg, &pool));
    if (cfg != ABT_POOL_CONFIG_NULL)
        CHECK_ABT(ABT_pool_config_free(&cfg));
    return pool;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool_user_def def;
    CHECK_ABT(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &def));
    CHECK_ABT(ABT_pool_user_def_set_free(def, pool_free));

    /* automatic: goes with its (last) scheduler */
    ABT_pool pool = make_pool(def, 1);
    ABT_sched s1, s2;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &s1));
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &s2));
    CHECK_ABT(ABT_sched_free(&s1));
    CHECK_EQ_INT(n_free, 0);
    CHECK_ABT(ABT_sched_free(&s2));
    CHECK_EQ_INT(n_free, 1);

    /* not automatic: no config, or the key set to 0 */
    for (int k = 0; k < 2; k++) {
        pool = make_pool(def, k == 0 ? -1 : 0);
        CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &s1));
        CHECK_ABT(ABT_sched_free(&s1));
        CHECK_EQ_INT(n_free, 1 + k);
        CHECK_ABT(ABT_pool_free(&pool));
        CHECK_EQ_INT(n_free, 2 + k);
    }
    CHECK_ABT(ABT_pool_user_def_free(&def));
    CHECK_ABT(ABT_finalize());
    return 0;
}
