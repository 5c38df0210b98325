/* mutex_unlock_se_de: unlock_se and unlock_de release the mutex like unlock (they may
 * hand it to a waiter on the same / another stream); mixed with plain unlocks under
 * contention from ULTs on two streams and an external thread, no increment is lost and
 * nobody hangs.  Without waiters they simply unlock. */
#include "sync_test.h"

#define N 20000

static ABT_mutex mtx;
static long counter;
static int inside;
static atomic_int overlap;

static void work(int variant)
{
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_mutex_lock(mtx));
        if (inside)
            atomic_fetch_add(&overlap, 1);
        inside = 1;
        counter++;
        inside = 0;
        int v = (variant + i) % 3;
        CHECK_ABT(v == 0   ? ABT_mutex_unlock(mtx)
                  : v == 1 ? ABT_mutex_unlock_se(mtx)
                           : ABT_mutex_unlock_de(mtx));
    }
}

static void ult(void *arg) { work((int)(intptr_t)arg); }

static void *ext(void *arg)
{
    work((int)(intptr_t)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_mutex_create(&mtx));

    CHECK_ABT(ABT_mutex_lock(mtx));
    CHECK_ABT(ABT_mutex_unlock_se(mtx));
    CHECK_ABT(ABT_mutex_trylock(mtx));
    CHECK_ABT(ABT_mutex_unlock_de(mtx));
    CHECK_ABT(ABT_mutex_trylock(mtx));
    CHECK_ABT(ABT_mutex_unlock(mtx));

    pthread_t th;
    CHECK(pthread_create(&th, NULL, ext, (void *)(intptr_t)2) == 0);
    ABT_thread ts[6];
    for (int i = 0; i < 6; i++)
        CHECK_ABT(ABT_thread_create(w.pools[i % 2], ult, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL,
                                    &ts[i]));
    sync_join_all(6, ts);
    pthread_join(th, NULL);
    CHECK_EQ_INT(atomic_load(&overlap), 0);
    CHECK_EQ_INT(counter, 7L * N);

    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
