/* thread_attr_stacksize_bound: a stack size no stack can have is refused with
 * ABT_ERR_INV_ARG by ABT_thread_attr_set_stacksize and ABT_thread_attr_set_stack (it
 * used to wrap to 0 when rounded up), and the attribute keeps its previous size; the
 * largest accepted size (1 TiB) is kept as given. */
#include "test.h"

#include <stdint.h>

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_thread_attr attr;
    size_t sz;
    void *addr;
    static char stack[4096] __attribute__((aligned(16)));
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_stacksize(attr, 65536));
    static const size_t bad[] = { SIZE_MAX, SIZE_MAX - 7, ((size_t)1 << 40) + 16, (size_t)1 << 63 };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        CHECK_ERR(ABT_thread_attr_set_stacksize(attr, bad[i]), ABT_ERR_INV_ARG);
        CHECK_ERR(ABT_thread_attr_set_stack(attr, stack, bad[i]), ABT_ERR_INV_ARG);
        CHECK_ERR(ABT_thread_attr_set_stack(attr, NULL, bad[i]), ABT_ERR_INV_ARG);
        CHECK_ABT(ABT_thread_attr_get_stack(attr, &addr, &sz));
        CHECK_EQ_PTR(addr, NULL);
        CHECK_EQ_INT(sz, 65536);
    }
    CHECK_ABT(ABT_thread_attr_set_stacksize(attr, (size_t)1 << 40));
    CHECK_ABT(ABT_thread_attr_get_stacksize(attr, &sz));
    CHECK(sz == (size_t)1 << 40);
    CHECK_ABT(ABT_thread_attr_set_stack(attr, stack, sizeof(stack)));
    CHECK_ABT(ABT_thread_attr_get_stack(attr, &addr, &sz));
    CHECK_EQ_PTR(addr, stack);
    CHECK_EQ_INT(sz, sizeof(stack));
    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_ABT(ABT_finalize());
    return 0;
}
