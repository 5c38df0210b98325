/* thread_set_callback: a callback registered with ABT_thread_set_callback is called
 * when the ULT is migrated, with the ULT's handle and the registered argument; here
 * the ULT requests its own migration to the pool of a second xstream
 * (ABT_thread_migrate_to_pool) and yields, then finds itself on that xstream.
 * Registering NULL unregisters it (a second migration calls nothing).  NULL handle:
 * ABT_ERR_INV_THREAD.  Skips if migration is disabled in the library. */
#include "test.h"
#include <stdatomic.h>

static ABT_pool pool1, pool2;
static ABT_xstream xs1, xs2;
static ABT_thread target;
static atomic_int cb_calls;
static int cb_thread_ok, cb_arg_ok, moved, moved_back;

static void cb(ABT_thread thread, void *arg)
{
    atomic_fetch_add(&cb_calls, 1);
    cb_thread_ok = (thread == target);
    cb_arg_ok = (arg == (void *)0xcb);
}

static void func(void *arg)
{
    (void)arg;
    ABT_thread self;
    ABT_xstream me;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_migrate_to_pool(self, pool2));
    CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_self_get_xstream(&me));
    moved = (me == xs2);
    /* Unregister, then migrate back. */
    CHECK_ABT(ABT_thread_set_callback(self, NULL, NULL));
    CHECK_ABT(ABT_thread_migrate_to_pool(self, pool1));
    CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_self_get_xstream(&me));
    moved_back = (me == xs1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_bool enabled = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_MIGRATION, &enabled));
    if (!enabled) {
        ABT_finalize();
        TEST_SKIP("migration disabled");
    }
    CHECK_ABT(ABT_xstream_self(&xs1));
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &pool1));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    CHECK_ABT(ABT_thread_create(pool1, func, NULL, ABT_THREAD_ATTR_NULL, &target));
    CHECK_ABT(ABT_thread_set_callback(target, cb, (void *)0xcb));
    CHECK_ABT(ABT_thread_join(target));
    CHECK_EQ_INT(atomic_load(&cb_calls), 1);
    CHECK(cb_thread_ok);
    CHECK(cb_arg_ok);
    CHECK(moved);
    CHECK(moved_back);
    CHECK_ABT(ABT_thread_free(&target));

    CHECK_ERR(ABT_thread_set_callback(ABT_THREAD_NULL, cb, NULL), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
