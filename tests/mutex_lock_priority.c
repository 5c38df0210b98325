/* mutex_lock_priority: lock, lock_high and lock_low exclude each other under contention
 * from ULTs on two streams.  (The serving order is weft policy, tested in
 * sync_weft_lock_priority.) */
#include "sync_test.h"

#define N 20000

static ABT_mutex mtx;
static long counter;

static void mixed(void *arg)
{
    int kind = (int)(intptr_t)arg;
    for (int i = 0; i < N; i++) {
        int r = kind == 0   ? ABT_mutex_lock(mtx)
                : kind == 1 ? ABT_mutex_lock_high(mtx)
                            : ABT_mutex_lock_low(mtx);
        CHECK_ABT(r);
        counter++;
        CHECK_ABT(ABT_mutex_unlock(mtx));
    }
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_mutex_create(&mtx));

    ABT_thread ts[6];
    for (int i = 0; i < 6; i++)
        CHECK_ABT(ABT_thread_create(w.pools[i % 2], mixed, (void *)(intptr_t)(i % 3),
                                    ABT_THREAD_ATTR_NULL, &ts[i]));
    sync_join_all(6, ts);
    CHECK_EQ_INT(counter, 6L * N);

    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
