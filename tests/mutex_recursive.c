/* mutex_recursive: a recursive mutex (attribute or ABT_RECURSIVE_MUTEX_INITIALIZER) may
 * be locked again by its owner - ULT, external thread - with lock, trylock and spinlock,
 * and stays held until unlocked as many times; a waiter on another stream gets it only
 * then. */
#include "sync_test.h"

static ABT_mutex_memory rec_mem = ABT_RECURSIVE_MUTEX_INITIALIZER;
static ABT_mutex mtx;
static atomic_int got;

static void waiter(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_mutex_lock(mtx));
    atomic_store(&got, 1);
    CHECK_ABT(ABT_mutex_unlock(mtx));
}

static void *ext_nest(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_mutex_lock(mtx));
    CHECK_ABT(ABT_mutex_trylock(mtx));
    CHECK_ABT(ABT_mutex_spinlock(mtx));
    CHECK_ABT(ABT_mutex_unlock(mtx));
    CHECK_ABT(ABT_mutex_unlock(mtx));
    CHECK_ABT(ABT_mutex_unlock(mtx));
    return NULL;
}

static void check(sync_world *w)
{
    atomic_store(&got, 0);
    CHECK_ABT(ABT_mutex_lock(mtx));
    CHECK_ABT(ABT_mutex_lock_low(mtx));
    CHECK_ABT(ABT_mutex_trylock(mtx));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(w->pools[1], waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_mutex_unlock(mtx));
    CHECK_ABT(ABT_mutex_unlock(mtx));
    sync_sleep(0.02);
    CHECK_EQ_INT(atomic_load(&got), 0); /* one level still held */
    CHECK_ABT(ABT_mutex_unlock(mtx));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&got), 1);

    pthread_t th;
    CHECK(pthread_create(&th, NULL, ext_nest, NULL) == 0);
    pthread_join(th, NULL);
    CHECK_ABT(ABT_mutex_trylock(mtx)); /* free again */
    CHECK_ABT(ABT_mutex_unlock(mtx));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);

    ABT_mutex_attr a;
    CHECK_ABT(ABT_mutex_attr_create(&a));
    CHECK_ABT(ABT_mutex_attr_set_recursive(a, ABT_TRUE));
    CHECK_ABT(ABT_mutex_create_with_attr(a, &mtx));
    CHECK_ABT(ABT_mutex_attr_free(&a));
    check(&w);
    CHECK_ABT(ABT_mutex_free(&mtx));

    mtx = ABT_MUTEX_MEMORY_GET_HANDLE(&rec_mem);
    check(&w);
    ABT_mutex_attr got_attr;
    ABT_bool rec = ABT_FALSE;
    CHECK_ABT(ABT_mutex_get_attr(mtx, &got_attr));
    CHECK_ABT(ABT_mutex_attr_get_recursive(got_attr, &rec));
    CHECK_EQ_INT(rec, ABT_TRUE);
    CHECK_ABT(ABT_mutex_attr_free(&got_attr));

    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
