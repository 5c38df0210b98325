/* self_exit: ABT_self_exit terminates the calling ULT (named or unnamed, on the
 * primary or a second xstream) without running the rest of its function; a joiner
 * that is blocked on it is released.  It returns ABT_ERR_INV_THREAD in the primary
 * ULT and in tasklets, ABT_ERR_INV_XSTREAM from an external thread. */
#include "test.h"
#include <stdatomic.h>
#include <pthread.h>

static atomic_int before, after, task_rc = -1;

static void func(void *arg)
{
    (void)arg;
    atomic_fetch_add(&before, 1);
    CHECK_ABT(ABT_self_yield());
    ABT_self_exit();
    atomic_fetch_add(&after, 1);
}

static void task_func(void *arg)
{
    (void)arg;
    atomic_store(&task_rc, ABT_self_exit());
}

static void *ext(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_self_exit(), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pool, pool2;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    ABT_thread t0, t1;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t0));
    CHECK_ABT(ABT_thread_create(pool2, func, NULL, ABT_THREAD_ATTR_NULL, &t1));
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_ABT(ABT_thread_join(t0));
    CHECK_ABT(ABT_thread_join(t1));
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(t1, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_free(&t0));
    CHECK_ABT(ABT_thread_free(&t1));

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, task_func, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&task_rc), ABT_ERR_INV_THREAD);

    CHECK_ERR(ABT_self_exit(), ABT_ERR_INV_THREAD);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(atomic_load(&before), 3);
    CHECK_EQ_INT(atomic_load(&after), 0);
    return 0;
}
