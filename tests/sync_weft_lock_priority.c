/* sync_weft_lock_priority: weft serves mutex waiters that asked with lock / lock_high
 * before those that asked with lock_low, whatever their arrival order (Argobots only
 * says they "might be prioritized", so this checks weft's policy). */
#include "sync_test.h"

#include <weft.h>

static ABT_mutex mtx;
static atomic_int order_pos;
static int order[3];

static void waiter(void *arg)
{
    int kind = (int)(intptr_t)arg;
    CHECK_ABT(kind == 2   ? ABT_mutex_lock_low(mtx)
              : kind == 1 ? ABT_mutex_lock_high(mtx)
                          : ABT_mutex_lock(mtx));
    order[atomic_fetch_add(&order_pos, 1)] = kind;
    CHECK_ABT(ABT_mutex_unlock(mtx));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_mutex_create(&mtx));

    /* arrival order: low, high, plain; all parked when we unlock */
    CHECK_ABT(ABT_mutex_lock(mtx));
    ABT_thread t[3];
    int kinds[3] = { 2, 1, 0 };
    for (int i = 0; i < 3; i++) {
        CHECK_ABT(ABT_thread_create(w.pools[1], waiter, (void *)(intptr_t)kinds[i],
                                    ABT_THREAD_ATTR_NULL, &t[i]));
        /* wait until it has parked on the mutex, so the arrival order is the one above
         * however loaded the machine is */
        ABT_thread_state st = ABT_THREAD_STATE_READY;
        double t0 = sync_now();
        for (;;) {
            CHECK_ABT(ABT_thread_get_state(t[i], &st));
            if (st == ABT_THREAD_STATE_BLOCKED)
                break;
            if (sync_now() - t0 > TEST_PATIENCE_S)
                TEST_FAIL("waiter %d never parked on the mutex (state %d)", i, (int)st);
            sync_sleep(0.0001);
        }
    }
    CHECK_ABT(ABT_mutex_unlock(mtx));
    sync_join_all(3, t);
    CHECK_EQ_INT(order[0], 1);
    CHECK_EQ_INT(order[1], 0);
    CHECK_EQ_INT(order[2], 2);

    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
