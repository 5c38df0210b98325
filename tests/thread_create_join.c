/* thread_create_join: ABT_thread_create on the primary xstream's main pool runs the
 * function with its argument; ABT_thread_join waits for it; ABT_thread_free sets the
 * handle to ABT_THREAD_NULL; the attribute ABT_THREAD_ATTR_NULL means "default". */
#include "test.h"
#include <stdatomic.h>

static atomic_int ran;

static void func(void *arg)
{
    int *p = (int *)arg;
    *p += 41;
    atomic_fetch_add(&ran, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    int value = 1;
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_ABT(ABT_thread_create(pool, func, &value, ABT_THREAD_ATTR_NULL, &t));
    CHECK(t != ABT_THREAD_NULL);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(value, 42);
    CHECK_EQ_INT(atomic_load(&ran), 1);
    /* Joining an already-joined (terminated) thread again is fine. */
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK(t == ABT_THREAD_NULL);
    CHECK_EQ_INT(atomic_load(&ran), 1);

    /* Free without an explicit join: free waits for termination. */
    CHECK_ABT(ABT_thread_create(pool, func, &value, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK(t == ABT_THREAD_NULL);
    CHECK_EQ_INT(value, 83);
    CHECK_EQ_INT(atomic_load(&ran), 2);

    CHECK_ABT(ABT_finalize());
    return 0;
}
