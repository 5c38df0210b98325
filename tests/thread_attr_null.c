/* thread_attr_null: all eight ABT_thread_attr_* routines return
 * ABT_ERR_INV_THREAD_ATTR for ABT_THREAD_ATTR_NULL (free leaves the handle as is);
 * ABT_thread_create with ABT_THREAD_ATTR_NULL is the default and works. */
#include "test.h"

static void cb(ABT_thread t, void *a)
{
    (void)t;
    (void)a;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_thread_attr n = ABT_THREAD_ATTR_NULL;
    void *addr;
    size_t sz;
    static char stack[4096] __attribute__((aligned(64)));
    CHECK_ERR(ABT_thread_attr_free(&n), ABT_ERR_INV_THREAD_ATTR);
    CHECK(n == ABT_THREAD_ATTR_NULL);
    CHECK_ERR(ABT_thread_attr_set_stack(n, stack, sizeof(stack)), ABT_ERR_INV_THREAD_ATTR);
    CHECK_ERR(ABT_thread_attr_get_stack(n, &addr, &sz), ABT_ERR_INV_THREAD_ATTR);
    CHECK_ERR(ABT_thread_attr_set_stacksize(n, 16384), ABT_ERR_INV_THREAD_ATTR);
    CHECK_ERR(ABT_thread_attr_get_stacksize(n, &sz), ABT_ERR_INV_THREAD_ATTR);
    ABT_bool mig = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_MIGRATION, &mig));
    if (mig) {
        CHECK_ERR(ABT_thread_attr_set_callback(n, cb, NULL), ABT_ERR_INV_THREAD_ATTR);
        CHECK_ERR(ABT_thread_attr_set_migratable(n, ABT_TRUE), ABT_ERR_INV_THREAD_ATTR);
    }
    ABT_thread_attr a;
    CHECK_ABT(ABT_thread_attr_create(&a));
    CHECK_ABT(ABT_thread_attr_free(&a));
    CHECK_ERR(ABT_thread_attr_get_stacksize(a, &sz), ABT_ERR_INV_THREAD_ATTR);
    CHECK_ABT(ABT_finalize());
    return 0;
}
