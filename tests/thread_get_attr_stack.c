/* thread_get_attr_stack: ABT_thread_get_attr on a ULT whose stack the runtime allocated
 * reports that stack, as Argobots does: ABT_thread_attr_get_stack gives a non-NULL
 * address and a size such that [addr, addr + size) holds the ULT's local variables, the
 * size equals ABT_thread_attr_get_stacksize, ABT_thread_get_stacksize and
 * ABT_thread_get_stack (when exported) agree with it.  Checked for the default stack size
 * and for a size given with ABT_thread_attr_set_stacksize, asked by the ULT about itself
 * and by another ULT while the ULT is suspended (same answer).  Before the first run a
 * runtime with lazy stack allocation (ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC, as
 * weft) has no stack yet and reports NULL with the size the stack will have; an eager
 * runtime reports the stack. */
#include "test.h"
#include <stdint.h>

extern int ABT_thread_get_stack(ABT_thread thread, void **stackaddr, size_t *stacksize)
    __attribute__((weak));

struct seen {
    void *addr;
    size_t size;
    int local_inside;
};

static void query(ABT_thread t, struct seen *s)
{
    ABT_thread_attr a;
    CHECK_ABT(ABT_thread_get_attr(t, &a));
    CHECK_ABT(ABT_thread_attr_get_stack(a, &s->addr, &s->size));
    size_t sz2 = 0, sz3 = 0;
    CHECK_ABT(ABT_thread_attr_get_stacksize(a, &sz2));
    CHECK_EQ_INT(sz2, s->size);
    CHECK_ABT(ABT_thread_get_stacksize(t, &sz3));
    CHECK_EQ_INT(sz3, s->size);
    if (ABT_thread_get_stack) {
        void *addr4 = NULL;
        size_t sz4 = 0;
        CHECK_ABT(ABT_thread_get_stack(t, &addr4, &sz4));
        CHECK_EQ_PTR(addr4, s->addr);
        CHECK_EQ_INT(sz4, s->size);
    }
    CHECK_ABT(ABT_thread_attr_free(&a));
}

static struct seen inside;

static void func(void *arg)
{
    volatile char marker = 1;
    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    query(self, &inside);
    uintptr_t lo = (uintptr_t)inside.addr, p = (uintptr_t)&marker;
    inside.local_inside = inside.addr != NULL && p >= lo && p < lo + inside.size;
    if (arg) /* let the primary ULT look at us while suspended */
        CHECK_ABT(ABT_self_suspend());
    (void)marker;
}

static void one(ABT_pool pool, ABT_thread_attr attr, size_t expected_size, ABT_bool lazy)
{
    ABT_thread t;
    struct seen before, outside;
    memset(&inside, 0, sizeof(inside));
    CHECK_ABT(ABT_thread_create(pool, func, (void *)1, attr, &t));
    /* not run yet (the primary ULT has not yielded) */
    query(t, &before);
    CHECK_EQ_INT(before.size, expected_size);
    if (lazy)
        CHECK(before.addr == NULL);
    else
        CHECK(before.addr != NULL);
    /* let it run until it suspends itself */
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        CHECK_ABT(ABT_thread_yield());
        CHECK_ABT(ABT_thread_get_state(t, &st));
    }
    if (!inside.local_inside)
        TEST_FAIL("stack reported to the ULT itself: [%p, +%zu), not around its locals",
                  inside.addr, inside.size);
    CHECK_EQ_INT(inside.size, expected_size);
    query(t, &outside);
    CHECK_EQ_PTR(outside.addr, inside.addr);
    CHECK_EQ_INT(outside.size, inside.size);
    CHECK_ABT(ABT_thread_resume(t));
    CHECK_ABT(ABT_thread_free(&t));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    size_t def;
    ABT_bool lazy = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, &def));
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC, &lazy));

    one(pool, ABT_THREAD_ATTR_NULL, def, lazy);

    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_stacksize(attr, 96 * 1024));
    one(pool, attr, 96 * 1024, lazy);
    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_ABT(ABT_finalize());
    return 0;
}
