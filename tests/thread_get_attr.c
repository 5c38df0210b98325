/* thread_get_attr: ABT_thread_get_attr returns a new attribute object describing a
 * ULT: its stack size (default or the size it was created with), a stack address
 * (the given address for a user stack; NULL here for runtime stacks, asked before the
 * ULT first ran or after it ended, when a lazily allocated stack does not exist -
 * thread_get_attr_stack.c checks a stack that exists), and it can be used to create
 * another ULT with the same stack size; the caller frees it.  A
 * tasklet has no ULT attributes: ABT_ERR_INV_THREAD.  NULL handle:
 * ABT_ERR_INV_THREAD. */
#include "test.h"

static void func(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    size_t def;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, &def));

    ABT_thread t;
    ABT_thread_attr a;
    void *addr;
    size_t sz;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_get_attr(t, &a));
    CHECK(a != ABT_THREAD_ATTR_NULL);
    CHECK_ABT(ABT_thread_attr_get_stacksize(a, &sz));
    CHECK_EQ_INT(sz, def);
    CHECK_ABT(ABT_thread_attr_free(&a));
    CHECK_ABT(ABT_thread_free(&t));

    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_stacksize(attr, 96 * 1024));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t));
    CHECK_ABT(ABT_thread_get_attr(t, &a));
    CHECK(a != attr);
    CHECK_ABT(ABT_thread_attr_get_stack(a, &addr, &sz));
    CHECK_EQ_INT(sz, 96 * 1024);
    /* Reuse the returned attribute. */
    ABT_thread t2;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, a, &t2));
    CHECK_ABT(ABT_thread_attr_free(&a));
    CHECK(a == ABT_THREAD_ATTR_NULL);
    CHECK_ABT(ABT_thread_get_stacksize(t2, &sz));
    CHECK_EQ_INT(sz, 96 * 1024);
    CHECK_ABT(ABT_thread_free(&t2));
    CHECK_ABT(ABT_thread_free(&t));

    /* User stack. */
    size_t ssz = 64 * 1024;
    void *stack = aligned_alloc(64, ssz);
    CHECK(stack != NULL);
    CHECK_ABT(ABT_thread_attr_set_stack(attr, stack, ssz));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, attr, &t));
    CHECK_ABT(ABT_thread_get_attr(t, &a));
    CHECK_ABT(ABT_thread_attr_get_stack(a, &addr, &sz));
    CHECK_EQ_PTR(addr, stack);
    CHECK_EQ_INT(sz, ssz);
    CHECK_ABT(ABT_thread_attr_free(&a));
    CHECK_ABT(ABT_thread_free(&t));
    free(stack);
    CHECK_ABT(ABT_thread_attr_free(&attr));

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, func, NULL, &k));
    CHECK_ERR(ABT_thread_get_attr(k, &a), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_task_free(&k));
    CHECK_ERR(ABT_thread_get_attr(ABT_THREAD_NULL, &a), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_finalize());
    return 0;
}
