/* thread_create_to: ABT_thread_create_to makes the caller yield to the new ULT at
 * once: the new ULT runs before the call returns (on a single xstream), and the
 * output handle is already written when the new ULT starts.  The caller is put back
 * in its pool and resumes afterwards.  An ULT already in the pool runs after the new
 * one.  Calling it from an external thread gives ABT_ERR_INV_XSTREAM. */
#include "test.h"
#include <stdatomic.h>
#include <pthread.h>

static ABT_thread new_handle = ABT_THREAD_NULL;
static atomic_int order_idx;
static int order[4];
static int handle_was_set;

static void target(void *arg)
{
    ABT_thread self;
    CHECK_ABT(ABT_self_get_thread(&self));
    if (arg == (void *)2)
        handle_was_set = (self == new_handle);
    order[atomic_fetch_add(&order_idx, 1)] = (int)(intptr_t)arg;
}

static ABT_pool the_pool;
static void *ext_main(void *arg)
{
    (void)arg;
    ABT_thread t;
    CHECK_ERR(ABT_thread_create_to(the_pool, target, (void *)9, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &the_pool));

    /* A plain ULT queued first. */
    ABT_thread queued;
    CHECK_ABT(ABT_thread_create(the_pool, target, (void *)1, ABT_THREAD_ATTR_NULL, &queued));
    CHECK_ABT(ABT_thread_create_to(the_pool, target, (void *)2, ABT_THREAD_ATTR_NULL, &new_handle));
    /* When create_to returns, the new ULT has run (it never yields) ... */
    CHECK(atomic_load(&order_idx) >= 1);
    CHECK_EQ_INT(order[0], 2);
    CHECK(handle_was_set);
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(new_handle, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_free(&new_handle));
    CHECK_ABT(ABT_thread_free(&queued));
    CHECK_EQ_INT(atomic_load(&order_idx), 2);
    CHECK_EQ_INT(order[1], 1);

    /* Unnamed variant. */
    CHECK_ABT(ABT_thread_create_to(the_pool, target, (void *)3, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_EQ_INT(atomic_load(&order_idx), 3);
    CHECK_EQ_INT(order[2], 3);

    /* Bad pool. */
    ABT_thread t;
    CHECK_ERR(ABT_thread_create_to(ABT_POOL_NULL, target, NULL, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_INV_POOL);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext_main, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_EQ_INT(atomic_load(&order_idx), 3);

    CHECK_ABT(ABT_finalize());
    return 0;
}
