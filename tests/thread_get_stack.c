/* thread_get_stack: ABT_thread_get_stack (newer than the Argobots 1.2 release; the
 * test skips if the library does not export it) returns the exact user stack given
 * through ABT_thread_attr_set_stack; for a runtime-allocated stack, queried by the
 * running ULT about itself, the address of a local variable lies inside
 * [stackaddr, stackaddr + stacksize) and the size equals ABT_thread_get_stacksize;
 * the primary ULT and tasklets report NULL / 0; either output pointer may be NULL;
 * NULL handle: ABT_ERR_INV_THREAD. */
#include "test.h"
#include <stdint.h>

extern int ABT_thread_get_stack(ABT_thread thread, void **stackaddr, size_t *stacksize)
    __attribute__((weak));

static int local_inside = -1;
static void *seen_addr;
static size_t seen_size;

static void func(void *arg)
{
    (void)arg;
    volatile char marker = 1;
    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_get_stack(self, &seen_addr, &seen_size));
    uintptr_t lo = (uintptr_t)seen_addr, p = (uintptr_t)&marker;
    local_inside = (seen_addr != NULL && p >= lo && p < lo + seen_size);
    (void)marker;
}
static void task_func(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    if (!ABT_thread_get_stack)
        TEST_SKIP("ABT_thread_get_stack not provided by this library");
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    void *addr;
    size_t sz;

    /* Runtime-allocated stack, default and custom size. */
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(local_inside, 1);
    size_t sz2;
    CHECK_ABT(ABT_thread_get_stacksize(t, &sz2));
    CHECK_EQ_INT(seen_size, sz2);
    CHECK_ABT(ABT_thread_free(&t));

    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_stacksize(attr, 128 * 1024));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(local_inside, 1);
    CHECK_EQ_INT(seen_size, 128 * 1024);
    CHECK_ABT(ABT_thread_free(&t));

    /* User stack. */
    size_t ustack_size = 64 * 1024;
    void *ustack = aligned_alloc(64, ustack_size);
    CHECK(ustack != NULL);
    CHECK_ABT(ABT_thread_attr_set_stack(attr, ustack, ustack_size));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t));
    CHECK_ABT(ABT_thread_get_stack(t, &addr, &sz));
    CHECK_EQ_PTR(addr, ustack);
    CHECK_EQ_INT(sz, ustack_size);
    addr = NULL;
    CHECK_ABT(ABT_thread_get_stack(t, &addr, NULL));
    CHECK_EQ_PTR(addr, ustack);
    sz = 0;
    CHECK_ABT(ABT_thread_get_stack(t, NULL, &sz));
    CHECK_EQ_INT(sz, ustack_size);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(local_inside, 1);
    CHECK_EQ_PTR(seen_addr, ustack);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_thread_attr_free(&attr));
    free(ustack);

    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    addr = (void *)1;
    sz = 1;
    CHECK_ABT(ABT_thread_get_stack(self, &addr, &sz));
    CHECK_EQ_PTR(addr, NULL);
    CHECK_EQ_INT(sz, 0);

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, task_func, NULL, &k));
    addr = (void *)1;
    sz = 1;
    CHECK_ABT(ABT_thread_get_stack(k, &addr, &sz));
    CHECK_EQ_PTR(addr, NULL);
    CHECK_EQ_INT(sz, 0);
    CHECK_ABT(ABT_task_free(&k));

    CHECK_ERR(ABT_thread_get_stack(ABT_THREAD_NULL, &addr, &sz), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_finalize());
    return 0;
}
