/* thread_yield_main: ABT_thread_yield from the primary ULT lets ULTs queued in its
 * pool run (FIFO: after one yield, every ULT queued before it has run once), and
 * returns ABT_SUCCESS when nothing else is queued.  In Argobots 1.x,
 * ABT_thread_yield from a tasklet or an external thread is a no-op returning
 * ABT_SUCCESS, while ABT_self_yield returns ABT_ERR_INV_THREAD (tasklet) /
 * ABT_ERR_INV_XSTREAM (external thread). */
#include "test.h"
#include <stdatomic.h>
#include <pthread.h>

static atomic_int runs;
static void func(void *arg)
{
    (void)arg;
    atomic_fetch_add(&runs, 1);
}

static int task_rc1 = -1, task_rc2 = -1;
static void task_func(void *arg)
{
    (void)arg;
    task_rc1 = ABT_thread_yield();
    task_rc2 = ABT_self_yield();
}

static void *ext(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_thread_yield());
    CHECK_ERR(ABT_self_yield(), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_self_yield());

    ABT_thread t[4];
    for (int i = 0; i < 4; i++)
        CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    CHECK_EQ_INT(atomic_load(&runs), 0);
    CHECK_ABT(ABT_thread_yield());
    CHECK_EQ_INT(atomic_load(&runs), 4);
    for (int i = 0; i < 4; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, task_func, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(task_rc1, ABT_SUCCESS);
    CHECK_EQ_INT(task_rc2, ABT_ERR_INV_THREAD);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);

    CHECK_ABT(ABT_finalize());
    return 0;
}
