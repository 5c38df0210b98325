/* thread_ext_create_join: an external pthread (not an Argobots execution stream) may
 * create ULTs and tasklets in a pool and join/free them; the join from the external
 * thread blocks the OS thread until the work unit, run by a secondary xstream, has
 * finished.  ABT_self_get_type from the external thread returns ABT_ERR_INV_XSTREAM
 * with type ABT_UNIT_TYPE_EXT. */
#include "test.h"
#include <stdatomic.h>
#include <pthread.h>

#define N 20
static ABT_pool pool2;
static atomic_int runs;

static void func(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; i++)
        CHECK_ABT(ABT_thread_yield());
    atomic_fetch_add(&runs, 1);
}
static void task_func(void *arg)
{
    (void)arg;
    atomic_fetch_add(&runs, 1);
}

static void *ext(void *arg)
{
    (void)arg;
    ABT_unit_type type = (ABT_unit_type)99;
    CHECK_ERR(ABT_self_get_type(&type), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(type, ABT_UNIT_TYPE_EXT);
    ABT_thread ts[N];
    ABT_task ks[N];
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_thread_create(pool2, func, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
        CHECK_ABT(ABT_task_create(pool2, task_func, NULL, &ks[i]));
    }
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_thread_join(ts[i]));
        ABT_thread_state st;
        CHECK_ABT(ABT_thread_get_state(ts[i], &st));
        CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
        CHECK_ABT(ABT_thread_free(&ts[i]));
        CHECK_ABT(ABT_task_free(&ks[i]));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs2;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));
    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_EQ_INT(atomic_load(&runs), 2 * N);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
