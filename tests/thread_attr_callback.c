/* thread_attr_callback: a migration callback set on an attribute with
 * ABT_thread_attr_set_callback is inherited by ULTs created with it: when such a ULT
 * migrates itself to another xstream's pool and yields, the callback is called once
 * with the ULT's handle and the registered argument.  ULTs created from the same
 * attribute after the callback is reset to NULL migrate without calling it.  Skips
 * if migration is disabled in the library. */
#include "test.h"
#include <stdatomic.h>

static ABT_pool pool2;
static ABT_xstream xs2;
static atomic_int cb_calls, moved;
static ABT_thread cb_thread;
static void *cb_arg;

static void cb(ABT_thread thread, void *arg)
{
    atomic_fetch_add(&cb_calls, 1);
    cb_thread = thread;
    cb_arg = arg;
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
    if (me == xs2)
        atomic_fetch_add(&moved, 1);
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
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    ABT_thread_attr attr;
    ABT_thread t;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_callback(attr, cb, (void *)0xca11));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(atomic_load(&cb_calls), 1);
    CHECK(cb_thread == t);
    CHECK_EQ_PTR(cb_arg, (void *)0xca11);
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_thread_attr_set_callback(attr, NULL, NULL));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&cb_calls), 1);
    CHECK_EQ_INT(atomic_load(&moved), 2);
    CHECK_ABT(ABT_thread_attr_free(&attr));

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
