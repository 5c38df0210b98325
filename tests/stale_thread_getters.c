/* stale_thread_getters: the ABT_thread_get_* and ABT_thread_is_* routines refuse a copy of
 * a handle kept after ABT_thread_free (ABT_ERR_INV_THREAD), and ABT_thread_equal compares
 * handles as values: a stale handle equals itself and differs from the handle of the ULT
 * that now uses the same descriptor. */
#include "stale_test.h"

static void body(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_unit_id id_live;
    CHECK_ABT(ABT_thread_get_id(t, &id_live));
    ABT_thread stale = t;
    CHECK_ABT(ABT_thread_free(&t));

    ABT_thread_state st;
    ABT_unit_id id;
    ABT_xstream x;
    ABT_pool p;
    int pid;
    ABT_bool b;
    size_t sz;
    void *addr, *arg;
    void (*fn)(void *);
    ABT_thread_attr attr;
    CHECK_ERR(ABT_thread_get_state(stale, &st), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_id(stale, &id), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_last_xstream(stale, &x), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_last_pool(stale, &p), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_last_pool_id(stale, &pid), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_is_migratable(stale, &b), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_is_primary(stale, &b), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_is_unnamed(stale, &b), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_stacksize(stale, &sz), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_stack(stale, &addr, &sz), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_arg(stale, &arg), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_thread_func(stale, &fn), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_attr(stale, &attr), ABT_ERR_INV_THREAD);
    void *val;
    ABT_key key;
    CHECK_ABT(ABT_key_create(NULL, &key));
    CHECK_ERR(ABT_thread_get_specific(stale, key, &val), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_specific(stale, key, NULL), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_key_free(&key));

    /* equal: a pure comparison of handle values */
    ABT_thread fresh;
    CHECK_ABT(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &fresh));
    CHECK_ABT(ABT_thread_equal(stale, stale, &b));
    CHECK(b == ABT_TRUE);
    CHECK_ABT(ABT_thread_equal(stale, fresh, &b));
    CHECK(b == ABT_FALSE);
    CHECK_ABT(ABT_thread_equal(stale, ABT_THREAD_NULL, &b));
    CHECK(b == ABT_FALSE);
    CHECK_ABT(ABT_thread_get_id(fresh, &id));
    CHECK(id != id_live); /* a new ULT, a new id */
    CHECK_ABT(ABT_thread_free(&fresh));

    CHECK_ABT(ABT_finalize());
    return 0;
}
