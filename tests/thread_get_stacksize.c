/* thread_get_stacksize: a ULT created without an attribute has the default stack
 * size (ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE); a ULT created with an
 * attribute reports exactly the size set by ABT_thread_attr_set_stacksize (queried
 * both from outside and by the ULT about itself); the primary ULT and tasklets have
 * no runtime-managed stack and report 0.  NULL handle: ABT_ERR_INV_THREAD. */
#include "test.h"

static size_t inside;
static void func(void *arg)
{
    (void)arg;
    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_get_stacksize(self, &inside));
}
static void task_func(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    size_t def = 0, sz = 1;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, &def));
    CHECK(def > 0);

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_get_stacksize(t, &sz));
    CHECK_EQ_INT(sz, def);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(inside, def);
    CHECK_ABT(ABT_thread_free(&t));

    static const size_t sizes[] = { 64 * 1024, 32768 + 4096, 256 * 1024 };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        ABT_thread_attr attr;
        CHECK_ABT(ABT_thread_attr_create(&attr));
        CHECK_ABT(ABT_thread_attr_set_stacksize(attr, sizes[i]));
        CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t));
        CHECK_ABT(ABT_thread_attr_free(&attr));
        CHECK_ABT(ABT_thread_get_stacksize(t, &sz));
        CHECK_EQ_INT(sz, sizes[i]);
        CHECK_ABT(ABT_thread_join(t));
        CHECK_EQ_INT(inside, sizes[i]);
        CHECK_ABT(ABT_thread_free(&t));
    }

    /* An attribute left at its default size. */
    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t));
    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_ABT(ABT_thread_get_stacksize(t, &sz));
    CHECK_EQ_INT(sz, def);
    CHECK_ABT(ABT_thread_free(&t));

    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    sz = 1;
    CHECK_ABT(ABT_thread_get_stacksize(self, &sz));
    CHECK_EQ_INT(sz, 0);

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, task_func, NULL, &k));
    sz = 1;
    CHECK_ABT(ABT_thread_get_stacksize(k, &sz));
    CHECK_EQ_INT(sz, 0);
    CHECK_ABT(ABT_task_free(&k));

    CHECK_ERR(ABT_thread_get_stacksize(ABT_THREAD_NULL, &sz), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_finalize());
    return 0;
}
