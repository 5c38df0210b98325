/* rwlock_basic: readers share the lock, a writer excludes readers and writers; unlock
 * serves both; ABT_ERR_INV_RWLOCK for ABT_RWLOCK_NULL; ABT_ERR_RWLOCK when a tasklet
 * tries to lock (Argobots 1.x); free resets the handle. */
#include "sync_test.h"

static ABT_rwlock lk;
static atomic_int in_read, state, task_ret;

static void reader(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_rwlock_rdlock(lk));
    atomic_fetch_add(&in_read, 1);
    CHECK_ABT(ABT_rwlock_unlock(lk));
}

static void writer(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_rwlock_wrlock(lk));
    atomic_store(&state, 1);
    CHECK_ABT(ABT_rwlock_unlock(lk));
}

static void task_rd(void *arg)
{
    (void)arg;
    atomic_store(&task_ret, ABT_rwlock_rdlock(lk));
}

static void task_wr(void *arg)
{
    (void)arg;
    atomic_store(&task_ret, ABT_rwlock_wrlock(lk));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);

    ABT_rwlock n = ABT_RWLOCK_NULL;
    CHECK_ERR(ABT_rwlock_free(&n), ABT_ERR_INV_RWLOCK);
    CHECK_ERR(ABT_rwlock_rdlock(ABT_RWLOCK_NULL), ABT_ERR_INV_RWLOCK);
    CHECK_ERR(ABT_rwlock_wrlock(ABT_RWLOCK_NULL), ABT_ERR_INV_RWLOCK);
    CHECK_ERR(ABT_rwlock_unlock(ABT_RWLOCK_NULL), ABT_ERR_INV_RWLOCK);

    CHECK_ABT(ABT_rwlock_create(&lk));
    CHECK(lk != ABT_RWLOCK_NULL);

    /* we read: another reader gets in, a writer waits */
    CHECK_ABT(ABT_rwlock_rdlock(lk));
    CHECK_ABT(ABT_rwlock_rdlock(lk)); /* twice: two unlocks needed */
    ABT_thread r, wr;
    CHECK_ABT(ABT_thread_create(w.pools[1], reader, NULL, ABT_THREAD_ATTR_NULL, &r));
    CHECK_ABT(ABT_thread_free(&r));
    CHECK_EQ_INT(atomic_load(&in_read), 1);
    CHECK_ABT(ABT_thread_create(w.pools[1], writer, NULL, ABT_THREAD_ATTR_NULL, &wr));
    sync_sleep(0.02);
    CHECK_EQ_INT(atomic_load(&state), 0);
    CHECK_ABT(ABT_rwlock_unlock(lk));
    sync_sleep(0.02);
    CHECK_EQ_INT(atomic_load(&state), 0);
    CHECK_ABT(ABT_rwlock_unlock(lk));
    CHECK_ABT(ABT_thread_free(&wr));
    CHECK_EQ_INT(atomic_load(&state), 1);

    /* we write: a reader waits */
    CHECK_ABT(ABT_rwlock_wrlock(lk));
    CHECK_ABT(ABT_thread_create(w.pools[1], reader, NULL, ABT_THREAD_ATTR_NULL, &r));
    sync_sleep(0.02);
    CHECK_EQ_INT(atomic_load(&in_read), 1);
    CHECK_ABT(ABT_rwlock_unlock(lk));
    CHECK_ABT(ABT_thread_free(&r));
    CHECK_EQ_INT(atomic_load(&in_read), 2);

    /* tasklets may not lock */
    ABT_task k;
    CHECK_ABT(ABT_task_create(w.pools[1], task_rd, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&task_ret), ABT_ERR_RWLOCK);
    atomic_store(&task_ret, 0);
    CHECK_ABT(ABT_task_create(w.pools[1], task_wr, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&task_ret), ABT_ERR_RWLOCK);

    CHECK_ABT(ABT_rwlock_free(&lk));
    CHECK(lk == ABT_RWLOCK_NULL);
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
