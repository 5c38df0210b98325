/* stale_thread_ops: every routine that acts on a ULT refuses a copy of a handle kept after
 * ABT_thread_free with ABT_ERR_INV_THREAD: cancel, resume, yield_to, revive, migrate,
 * set_associated_pool, set_migratable, set_callback, set_arg, get_unit - and the ULT
 * neither runs again nor lands in a pool (the pool stays empty). */
#include "stale_test.h"

static int runs;
static void body(void *arg)
{
    (void)arg;
    runs++;
}

static ABT_thread g_stale;
static ABT_pool g_pool;
static int in_ult_ret[3];

static void from_ult(void *arg)
{
    (void)arg;
    in_ult_ret[0] = ABT_thread_yield_to(g_stale);
    in_ult_ret[1] = ABT_thread_revive_to(g_pool, body, NULL, &g_stale);
    in_ult_ret[2] = ABT_self_schedule(g_stale, ABT_POOL_NULL);
}

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    g_pool = pool;

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread stale = t;
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(runs, 1);
    g_stale = stale;

    STALE_STEP("cancel");
    CHECK_ERR(ABT_thread_cancel(stale), ABT_ERR_INV_THREAD);
    STALE_STEP("resume");
    CHECK_ERR(ABT_thread_resume(stale), ABT_ERR_INV_THREAD);
    STALE_STEP("revive");
    ABT_thread copy = stale;
    CHECK_ERR(ABT_thread_revive(pool, body, NULL, &copy), ABT_ERR_INV_THREAD);
    STALE_STEP("migrate");
    CHECK_ERR(ABT_thread_migrate_to_pool(stale, pool), ABT_ERR_INV_THREAD);
    STALE_STEP("setters");
    CHECK_ERR(ABT_thread_set_associated_pool(stale, pool), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_migratable(stale, ABT_FALSE), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_callback(stale, NULL, NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_arg(stale, NULL), ABT_ERR_INV_THREAD);
    ABT_unit unit;
    CHECK_ERR(ABT_thread_get_unit(stale, &unit), ABT_ERR_INV_THREAD);

    STALE_STEP("from a ULT: yield_to, revive_to, self_schedule");
    ABT_thread u;
    CHECK_ABT(ABT_thread_create(pool, from_ult, NULL, ABT_THREAD_ATTR_NULL, &u));
    CHECK_ABT(ABT_thread_free(&u));
    CHECK_EQ_INT(in_ult_ret[0], ABT_ERR_INV_THREAD);
    CHECK_EQ_INT(in_ult_ret[1], ABT_ERR_INV_THREAD);
    CHECK_EQ_INT(in_ult_ret[2], ABT_ERR_INV_THREAD);

    /* nothing was pushed anywhere, nothing ran again */
    size_t size;
    CHECK_ABT(ABT_pool_get_total_size(pool, &size));
    CHECK_EQ_INT((long)size, 0);
    CHECK_EQ_INT(runs, 1);

    CHECK_ABT(ABT_finalize());
    return 0;
}
