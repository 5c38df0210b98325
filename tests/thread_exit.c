/* thread_exit: ABT_thread_exit terminates the calling ULT from inside nested calls;
 * code after it never runs; the ULT is TERMINATED and can be joined and freed.  It
 * also works for an unnamed ULT and for a ULT on a second xstream.  From the primary
 * ULT or a tasklet it returns ABT_ERR_INV_THREAD, from an external thread
 * ABT_ERR_INV_XSTREAM, and before ABT_init ABT_ERR_UNINITIALIZED. */
#include "test.h"
#include <stdatomic.h>
#include <pthread.h>

static atomic_int before, after, unnamed_before, unnamed_after;

static void deep(int n)
{
    if (n == 0) {
        ABT_thread_exit();
        atomic_fetch_add(&after, 1000); /* never reached */
        return;
    }
    deep(n - 1);
    atomic_fetch_add(&after, 1);
}

static void func(void *arg)
{
    (void)arg;
    atomic_fetch_add(&before, 1);
    CHECK_ABT(ABT_thread_yield());
    deep(5);
    atomic_fetch_add(&after, 1);
}

static void unnamed_func(void *arg)
{
    (void)arg;
    atomic_fetch_add(&unnamed_before, 1);
    ABT_thread_exit();
    atomic_fetch_add(&unnamed_after, 1);
}

static atomic_int task_ret = -1;
static void task_func(void *arg)
{
    (void)arg;
    atomic_store(&task_ret, ABT_thread_exit());
}

static void *ext(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_thread_exit(), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ERR(ABT_thread_exit(), ABT_ERR_UNINITIALIZED);
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));

    ABT_thread t1, t2;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t1));
    CHECK_ABT(ABT_thread_create_on_xstream(xs2, func, NULL, ABT_THREAD_ATTR_NULL, &t2));
    CHECK_ABT(ABT_thread_join(t1));
    CHECK_ABT(ABT_thread_join(t2));
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(t1, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_free(&t1));
    CHECK_ABT(ABT_thread_free(&t2));
    CHECK_EQ_INT(atomic_load(&before), 2);
    CHECK_EQ_INT(atomic_load(&after), 0);

    for (int i = 0; i < 8; i++)
        CHECK_ABT(ABT_thread_create(pool, unnamed_func, NULL, ABT_THREAD_ATTR_NULL, NULL));
    while (atomic_load(&unnamed_before) < 8)
        CHECK_ABT(ABT_thread_yield());

    ABT_task task;
    CHECK_ABT(ABT_task_create(pool, task_func, NULL, &task));
    CHECK_ABT(ABT_task_free(&task));
    CHECK_EQ_INT(atomic_load(&task_ret), ABT_ERR_INV_THREAD);

    /* The primary ULT cannot exit. */
    CHECK_ERR(ABT_thread_exit(), ABT_ERR_INV_THREAD);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(atomic_load(&unnamed_before), 8);
    CHECK_EQ_INT(atomic_load(&unnamed_after), 0);
    return 0;
}
