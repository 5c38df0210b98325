/* pool_user_def_null: the ABT_pool_user_def routines given ABT_POOL_USER_DEF_NULL return
 * ABT_ERR_INV_POOL_USER_DEF (every setter, and ABT_pool_user_def_free, which leaves the
 * handle as it is); the ABT_pool_config routines given ABT_POOL_CONFIG_NULL return
 * ABT_ERR_INV_POOL_CONFIG.  A valid definition is freed to ABT_POOL_USER_DEF_NULL, a valid
 * config to ABT_POOL_CONFIG_NULL. */
#include "test.h"

static ABT_unit create_unit(ABT_pool pool, ABT_thread t) { return (ABT_unit)t; }
static void free_unit(ABT_pool pool, ABT_unit unit) {}
static ABT_bool is_empty(ABT_pool pool) { return ABT_TRUE; }
static ABT_thread pop(ABT_pool pool, ABT_pool_context ctx) { return ABT_THREAD_NULL; }
static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx) {}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    const ABT_pool_user_def N = ABT_POOL_USER_DEF_NULL;
    CHECK_ERR(ABT_pool_user_def_set_init(N, NULL), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_free(N, NULL), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_get_size(N, NULL), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_pop_wait(N, NULL), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_pop_many(N, NULL), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_push_many(N, NULL), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_print_all(N, NULL), ABT_ERR_INV_POOL_USER_DEF);
    ABT_pool_user_def d = ABT_POOL_USER_DEF_NULL;
    CHECK_ERR(ABT_pool_user_def_free(&d), ABT_ERR_INV_POOL_USER_DEF);
    CHECK(d == ABT_POOL_USER_DEF_NULL);

    CHECK_ABT(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &d));
    CHECK(d != ABT_POOL_USER_DEF_NULL);
    CHECK_ABT(ABT_pool_user_def_free(&d));
    CHECK(d == ABT_POOL_USER_DEF_NULL);

    const ABT_pool_config C = ABT_POOL_CONFIG_NULL;
    int v = 1;
    ABT_pool_config_type type;
    CHECK_ERR(ABT_pool_config_set(C, 0, ABT_POOL_CONFIG_INT, &v), ABT_ERR_INV_POOL_CONFIG);
    CHECK_ERR(ABT_pool_config_get(C, 0, &type, &v), ABT_ERR_INV_POOL_CONFIG);
    ABT_pool_config c = ABT_POOL_CONFIG_NULL;
    CHECK_ERR(ABT_pool_config_free(&c), ABT_ERR_INV_POOL_CONFIG);
    CHECK_ABT(ABT_pool_config_create(&c));
    CHECK(c != ABT_POOL_CONFIG_NULL);
    CHECK_ABT(ABT_pool_config_free(&c));
    CHECK(c == ABT_POOL_CONFIG_NULL);
    CHECK_ABT(ABT_finalize());
    return 0;
}
