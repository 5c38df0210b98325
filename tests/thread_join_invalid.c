/* thread_join_invalid: error codes of join/free on invalid targets.
 * - ABT_thread_join / ABT_thread_free on ABT_THREAD_NULL or ABT_TASK_NULL:
 *   ABT_ERR_INV_THREAD.
 * - joining or freeing the calling ULT itself: ABT_ERR_INV_THREAD.
 * - joining or freeing the primary ULT (from itself, from another ULT, from a
 *   tasklet, from an external thread): ABT_ERR_INV_THREAD.
 * The handle passed to a failed ABT_thread_free is left unchanged. */
#include "test.h"
#include <pthread.h>

static ABT_thread primary;

static void ult(void *arg)
{
    (void)arg;
    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    ABT_thread copy = self;
    CHECK_ERR(ABT_thread_join(self), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_free(&copy), ABT_ERR_INV_THREAD);
    CHECK(copy == self);
    CHECK_ERR(ABT_thread_join(primary), ABT_ERR_INV_THREAD);
    copy = primary;
    CHECK_ERR(ABT_thread_free(&copy), ABT_ERR_INV_THREAD);
    CHECK(copy == primary);
}

static void tasklet(void *arg)
{
    (void)arg;
    ABT_thread copy = primary;
    CHECK_ERR(ABT_thread_join(primary), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_free(&copy), ABT_ERR_INV_THREAD);
}

static void *ext(void *arg)
{
    (void)arg;
    ABT_thread copy = primary;
    CHECK_ERR(ABT_thread_join(primary), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_free(&copy), ABT_ERR_INV_THREAD);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_self(&primary));

    CHECK_ERR(ABT_thread_join(ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_join(ABT_TASK_NULL), ABT_ERR_INV_THREAD);
    ABT_thread n = ABT_THREAD_NULL;
    CHECK_ERR(ABT_thread_free(&n), ABT_ERR_INV_THREAD);
    n = ABT_TASK_NULL;
    CHECK_ERR(ABT_thread_free(&n), ABT_ERR_INV_THREAD);

    /* The primary ULT joining / freeing itself. */
    ABT_thread copy = primary;
    CHECK_ERR(ABT_thread_join(primary), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_free(&copy), ABT_ERR_INV_THREAD);
    CHECK(copy == primary);

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, tasklet, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);

    CHECK_ABT(ABT_finalize());
    return 0;
}
