/* mutex_trylock: trylock takes a free mutex and returns ABT_ERR_MUTEX_LOCKED (without
 * blocking) while another work unit or an external thread holds it - from a ULT on
 * another stream, from a tasklet and from an external thread; a recursive mutex's owner
 * may trylock again. */
#include "sync_test.h"

static ABT_mutex mtx;
static atomic_int result;

static void try_it(void *arg)
{
    (void)arg;
    atomic_store(&result, ABT_mutex_trylock(mtx));
}

static void *ext_try(void *arg)
{
    (void)arg;
    atomic_store(&result, ABT_mutex_trylock(mtx));
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);

    CHECK_ABT(ABT_mutex_create(&mtx));
    CHECK_ABT(ABT_mutex_trylock(mtx));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(w.pools[1], try_it, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&result), ABT_ERR_MUTEX_LOCKED);

    ABT_task k;
    atomic_store(&result, -1);
    CHECK_ABT(ABT_task_create(w.pools[1], try_it, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&result), ABT_ERR_MUTEX_LOCKED);

    pthread_t th;
    atomic_store(&result, -1);
    CHECK(pthread_create(&th, NULL, ext_try, NULL) == 0);
    pthread_join(th, NULL);
    CHECK_EQ_INT(atomic_load(&result), ABT_ERR_MUTEX_LOCKED);

    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED); /* not recursive: even us */
    CHECK_ABT(ABT_mutex_unlock(mtx));

    /* free again: a ULT elsewhere gets it */
    CHECK_ABT(ABT_thread_create(w.pools[1], try_it, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&result), ABT_SUCCESS);
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_ABT(ABT_mutex_unlock(mtx));

    /* recursive */
    ABT_mutex_attr a;
    ABT_mutex r;
    CHECK_ABT(ABT_mutex_attr_create(&a));
    CHECK_ABT(ABT_mutex_attr_set_recursive(a, ABT_TRUE));
    CHECK_ABT(ABT_mutex_create_with_attr(a, &r));
    CHECK_ABT(ABT_mutex_attr_free(&a));
    CHECK_ABT(ABT_mutex_trylock(r));
    CHECK_ABT(ABT_mutex_trylock(r));
    ABT_mutex saved = mtx;
    mtx = r;
    CHECK_ABT(ABT_thread_create(w.pools[1], try_it, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&result), ABT_ERR_MUTEX_LOCKED);
    CHECK_ABT(ABT_mutex_unlock(r));
    CHECK_ABT(ABT_thread_create(w.pools[1], try_it, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&result), ABT_ERR_MUTEX_LOCKED); /* one level still held */
    CHECK_ABT(ABT_mutex_unlock(r));
    mtx = saved;

    CHECK_ABT(ABT_mutex_free(&r));
    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
