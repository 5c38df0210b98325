/* thread_attr_create_free: a new attribute has no user stack (NULL) and the default
 * stack size (ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE), and creates migratable
 * ULTs; ABT_thread_attr_free sets the handle to ABT_THREAD_ATTR_NULL; the attribute
 * is copied at creation, so it may be freed (or changed) while the ULT it created is
 * still waiting to run. */
#include "test.h"

static size_t inside[2];
static void func(void *arg)
{
    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_get_stacksize(self, &inside[(intptr_t)arg]));
}

int main(int argc, char **argv)
{
    ABT_thread_attr attr;
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    size_t def, sz;
    void *addr;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, &def));

    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK(attr != ABT_THREAD_ATTR_NULL);
    addr = (void *)1;
    CHECK_ABT(ABT_thread_attr_get_stack(attr, &addr, &sz));
    CHECK_EQ_PTR(addr, NULL);
    CHECK_EQ_INT(sz, def);
    CHECK_ABT(ABT_thread_attr_get_stacksize(attr, &sz));
    CHECK_EQ_INT(sz, def);

    ABT_thread t1, t2;
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0, attr, &t1));
    ABT_bool mig = ABT_FALSE;
    ABT_bool enabled = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_MIGRATION, &enabled));
    if (enabled) {
        CHECK_ABT(ABT_thread_is_migratable(t1, &mig));
        CHECK_EQ_INT(mig, ABT_TRUE);
    }
    /* Changing the attribute afterwards does not affect t1. */
    CHECK_ABT(ABT_thread_attr_set_stacksize(attr, def * 2));
    CHECK_ABT(ABT_thread_create(pool, func, (void *)1, attr, &t2));
    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK(attr == ABT_THREAD_ATTR_NULL);
    CHECK_ABT(ABT_thread_join(t1));
    CHECK_EQ_INT(inside[0], def);
    CHECK_ABT(ABT_thread_join(t2));
    CHECK_EQ_INT(inside[1], def * 2);
    CHECK_ABT(ABT_thread_free(&t1));
    CHECK_ABT(ABT_thread_free(&t2));

    /* Many create/free cycles. */
    for (int i = 0; i < 100; i++) {
        CHECK_ABT(ABT_thread_attr_create(&attr));
        CHECK_ABT(ABT_thread_attr_free(&attr));
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
