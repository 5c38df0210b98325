/* task_null_handles: every ABT_task_* routine that takes a tasklet handle returns
 * ABT_ERR_INV_TASK for ABT_TASK_NULL and for ABT_THREAD_NULL (1.x accepts either as
 * "no work unit"); ABT_task_free leaves the handle unchanged on error.  The macro
 * aliases ABT_task_is_unnamed / _set_specific / _get_specific are the thread
 * routines and return ABT_ERR_INV_THREAD. */
#include "test.h"

static void dummy(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_key key;
    CHECK_ABT(ABT_key_create(NULL, &key));

    ABT_task nulls[2] = { ABT_TASK_NULL, ABT_THREAD_NULL };
    for (int i = 0; i < 2; i++) {
        ABT_task n = nulls[i];
        ABT_task copy = n;
        ABT_xstream x;
        ABT_task_state st;
        ABT_pool p;
        int id;
        ABT_bool b;
        uint64_t uid;
        void *v;
        CHECK_ERR(ABT_task_free(&copy), ABT_ERR_INV_TASK);
        CHECK(copy == n);
        CHECK_ERR(ABT_task_join(n), ABT_ERR_INV_TASK);
        CHECK_ERR(ABT_task_cancel(n), ABT_ERR_INV_TASK);
        CHECK_ERR(ABT_task_get_xstream(n, &x), ABT_ERR_INV_TASK);
        CHECK_ERR(ABT_task_get_state(n, &st), ABT_ERR_INV_TASK);
        CHECK_ERR(ABT_task_get_last_pool(n, &p), ABT_ERR_INV_TASK);
        CHECK_ERR(ABT_task_get_last_pool_id(n, &id), ABT_ERR_INV_TASK);
        CHECK_ERR(ABT_task_set_migratable(n, ABT_TRUE), ABT_ERR_INV_TASK);
        CHECK_ERR(ABT_task_is_migratable(n, &b), ABT_ERR_INV_TASK);
        CHECK_ERR(ABT_task_get_id(n, &uid), ABT_ERR_INV_TASK);
        CHECK_ERR(ABT_task_get_arg(n, &v), ABT_ERR_INV_TASK);
        copy = n;
        CHECK_ERR(ABT_task_revive(pool, dummy, NULL, &copy), ABT_ERR_INV_TASK);
        CHECK_ERR(ABT_task_is_unnamed(n, &b), ABT_ERR_INV_THREAD);
        CHECK_ERR(ABT_task_set_specific(n, key, NULL), ABT_ERR_INV_THREAD);
        CHECK_ERR(ABT_task_get_specific(n, key, &v), ABT_ERR_INV_THREAD);
    }
    CHECK_ABT(ABT_key_free(&key));
    CHECK_ABT(ABT_finalize());
    return 0;
}
