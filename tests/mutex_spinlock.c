/* mutex_spinlock: ABT_mutex_spinlock excludes ABT_mutex_lock holders and other spinners
 * (ULTs on two streams, an external thread) and pairs with every unlock variant. */
#include "sync_test.h"

#define N 20000

static ABT_mutex mtx;
static long counter;

static void work(void *arg)
{
    int spin = (int)(intptr_t)arg;
    for (int i = 0; i < N; i++) {
        CHECK_ABT(spin ? ABT_mutex_spinlock(mtx) : ABT_mutex_lock(mtx));
        counter++;
        CHECK_ABT(ABT_mutex_unlock(mtx));
    }
}

static void *ext(void *arg)
{
    work(arg);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_mutex_create(&mtx));

    CHECK_ABT(ABT_mutex_spinlock(mtx));
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_ABT(ABT_mutex_unlock(mtx));

    pthread_t th;
    CHECK(pthread_create(&th, NULL, ext, (void *)(intptr_t)1) == 0);
    ABT_thread ts[4];
    for (int i = 0; i < 4; i++)
        CHECK_ABT(ABT_thread_create(w.pools[i % 2], work, (void *)(intptr_t)(i & 1),
                                    ABT_THREAD_ATTR_NULL, &ts[i]));
    sync_join_all(4, ts);
    pthread_join(th, NULL);
    CHECK_EQ_INT(counter, 5L * N);

    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
