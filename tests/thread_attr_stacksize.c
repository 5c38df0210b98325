/* thread_attr_stacksize: ABT_thread_attr_set_stacksize / _get_stacksize round-trip
 * (also visible through ABT_thread_attr_get_stack, with a NULL address); a ULT
 * created with the attribute reports that size via ABT_thread_get_stacksize and can
 * use it (touches most of a 1 MiB stack). */
#include "test.h"

#define BIG (1024 * 1024)
static int used_ok;

static void func(void *arg)
{
    (void)arg;
    volatile char buf[BIG - 64 * 1024];
    for (size_t i = 0; i < sizeof(buf); i += 512)
        buf[i] = (char)i;
    int ok = 1;
    for (size_t i = 0; i < sizeof(buf); i += 512)
        if (buf[i] != (char)i)
            ok = 0;
    used_ok = ok;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread_attr attr;
    size_t sz;
    void *addr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    static const size_t sizes[] = { 8192, 32 * 1024, 100 * 1024, BIG };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        CHECK_ABT(ABT_thread_attr_set_stacksize(attr, sizes[i]));
        CHECK_ABT(ABT_thread_attr_get_stacksize(attr, &sz));
        CHECK_EQ_INT(sz, sizes[i]);
        addr = (void *)1;
        CHECK_ABT(ABT_thread_attr_get_stack(attr, &addr, &sz));
        CHECK_EQ_PTR(addr, NULL);
        CHECK_EQ_INT(sz, sizes[i]);
    }
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t));
    CHECK_ABT(ABT_thread_get_stacksize(t, &sz));
    CHECK_EQ_INT(sz, BIG);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK(used_ok);
    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_ABT(ABT_finalize());
    return 0;
}
