/* thread_attr_set_stack: a ULT created with a user-provided stack
 * (ABT_thread_attr_set_stack) runs on that memory (a local variable's address lies
 * inside it) and can yield; ABT_thread_attr_get_stack returns the same address and
 * size; ABT_thread_attr_set_stack(attr, NULL, size) goes back to a runtime stack of
 * that size.  A stack address not aligned to 8 bytes gives ABT_ERR_INV_ARG.  The
 * user stack may be reused after the ULT is freed.  A user stack of the default size,
 * which a free without a join takes the fast way, works the same, whether its ULT
 * yields or returns at once. */
#include "test.h"
#include <stdint.h>

#define SSZ (64 * 1024)
static void *stack_lo;
static int inside_ok;

static void func(void *arg)
{
    (void)arg;
    volatile int local = 0;
    uintptr_t p = (uintptr_t)&local, lo = (uintptr_t)stack_lo;
    CHECK_ABT(ABT_thread_yield());
    inside_ok = (p >= lo && p < lo + SSZ);
    (void)local;
}

/* on a user stack of `dflt` bytes: arg 1 yields first */
static size_t dflt;
static int sized_ok;
static void func_sized(void *arg)
{
    volatile int local = 0;
    uintptr_t p = (uintptr_t)&local, lo = (uintptr_t)stack_lo;
    if (arg)
        CHECK_ABT(ABT_thread_yield());
    sized_ok = (p >= lo && p < lo + dflt);
    (void)local;
}

static int outside_ok;
static void func_other(void *arg)
{
    (void)arg;
    volatile int local = 0;
    uintptr_t p = (uintptr_t)&local, lo = (uintptr_t)stack_lo;
    outside_ok = !(p >= lo && p < lo + SSZ);
    (void)local;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    stack_lo = aligned_alloc(4096, SSZ);
    CHECK(stack_lo != NULL);

    ABT_thread_attr attr;
    void *addr;
    size_t sz;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_stack(attr, stack_lo, SSZ));
    CHECK_ABT(ABT_thread_attr_get_stack(attr, &addr, &sz));
    CHECK_EQ_PTR(addr, stack_lo);
    CHECK_EQ_INT(sz, SSZ);
    CHECK_ABT(ABT_thread_attr_get_stacksize(attr, &sz));
    CHECK_EQ_INT(sz, SSZ);

    for (int round = 0; round < 3; round++) {
        ABT_thread t;
        inside_ok = 0;
        CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t));
        CHECK_ABT(ABT_thread_get_stacksize(t, &sz));
        CHECK_EQ_INT(sz, SSZ);
        CHECK_ABT(ABT_thread_free(&t));
        CHECK(inside_ok);
    }

    /* A user stack of the default size, into a ULT that yields and one that does not. */
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, &dflt));
    if (dflt > SSZ) {
        free(stack_lo);
        stack_lo = aligned_alloc(4096, (dflt + 4095) & ~(size_t)4095);
        CHECK(stack_lo != NULL);
    }
    CHECK_ABT(ABT_thread_attr_set_stack(attr, stack_lo, dflt));
    for (int round = 0; round < 4; round++) {
        ABT_thread t;
        /* a runtime stack in the stream's cache, as a program that ran ULTs has */
        CHECK_ABT(ABT_thread_create(pool, func_other, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_ABT(ABT_thread_free(&t));
        sized_ok = 0;
        CHECK_ABT(ABT_thread_create(pool, func_sized, (void *)(intptr_t)(round % 2), attr, &t));
        CHECK_ABT(ABT_thread_free(&t));
        CHECK(sized_ok);
    }

    /* Back to a runtime-allocated stack. */
    CHECK_ABT(ABT_thread_attr_set_stack(attr, NULL, 32 * 1024));
    CHECK_ABT(ABT_thread_attr_get_stack(attr, &addr, &sz));
    CHECK_EQ_PTR(addr, NULL);
    CHECK_EQ_INT(sz, 32 * 1024);
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, func_other, NULL, attr, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK(outside_ok);

    CHECK_ERR(ABT_thread_attr_set_stack(attr, (char *)stack_lo + 4, SSZ - 4), ABT_ERR_INV_ARG);
    CHECK_ABT(ABT_thread_attr_free(&attr));
    free(stack_lo);
    CHECK_ABT(ABT_finalize());
    return 0;
}
