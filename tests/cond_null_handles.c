/* cond_null_handles: ABT_cond_* return ABT_ERR_INV_COND for ABT_COND_NULL and
 * ABT_ERR_INV_MUTEX for ABT_MUTEX_NULL; ABT_cond_wait from a tasklet returns ABT_ERR_COND;
 * freeing a condition variable that has waiters returns ABT_ERR_COND; waiting with a
 * second mutex while others wait with a first one returns ABT_ERR_INV_MUTEX (with the
 * caller's mutex still held). */
#include "sync_test.h"

static ABT_mutex mtx, other;
static ABT_cond cond;
static int waiting;
static atomic_int task_ret;

static void waiter(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_mutex_lock(mtx));
    waiting = 1;
    CHECK_ABT(ABT_cond_wait(cond, mtx));
    waiting = 0;
    CHECK_ABT(ABT_mutex_unlock(mtx));
}

static void task(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_mutex_lock(other));
    atomic_store(&task_ret, ABT_cond_wait(cond, other));
    CHECK_ABT(ABT_mutex_unlock(other));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_mutex_create(&mtx));
    CHECK_ABT(ABT_mutex_create(&other));
    CHECK_ABT(ABT_cond_create(&cond));

    ABT_cond c = ABT_COND_NULL;
    struct timespec ts = sync_abstime(0.01);
    CHECK_ERR(ABT_cond_free(&c), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_wait(ABT_COND_NULL, mtx), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_wait(cond, ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_cond_timedwait(ABT_COND_NULL, mtx, &ts), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_timedwait(cond, ABT_MUTEX_NULL, &ts), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_cond_signal(ABT_COND_NULL), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_broadcast(ABT_COND_NULL), ABT_ERR_INV_COND);

    /* a tasklet may not wait (1.x) */
    ABT_task k;
    atomic_store(&task_ret, -1);
    CHECK_ABT(ABT_task_create(w.pools[1], task, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&task_ret), ABT_ERR_COND);

    /* a waiter: free refuses, another mutex is refused */
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(w.pools[1], waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    for (;;) {
        CHECK_ABT(ABT_mutex_lock(mtx));
        int wt = waiting;
        CHECK_ABT(ABT_mutex_unlock(mtx));
        if (wt)
            break;
        ABT_thread_yield();
    }
    CHECK_ERR(ABT_cond_free(&cond), ABT_ERR_COND);
    CHECK(cond != ABT_COND_NULL);
    CHECK_ABT(ABT_mutex_lock(other));
    CHECK_ERR(ABT_cond_wait(cond, other), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_trylock(other), ABT_ERR_MUTEX_LOCKED); /* still held */
    CHECK_ABT(ABT_mutex_unlock(other));
    CHECK_ABT(ABT_cond_signal(cond));
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_cond_free(&cond));
    CHECK(cond == ABT_COND_NULL);
    CHECK_ABT(ABT_mutex_free(&mtx));
    CHECK_ABT(ABT_mutex_free(&other));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
