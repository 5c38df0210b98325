/* sched_self_handle: the ULT handle a user-defined main scheduler gets from
 * ABT_self_get_thread (it runs as a ULT in Argobots) is usable where Argobots allows and
 * refused where Argobots refuses:
 *   inside the scheduler: ABT_self_yield returns ABT_SUCCESS; ABT_self_suspend,
 *   ABT_self_exit and ABT_self_yield_to return ABT_ERR_INV_THREAD (it cannot leave its
 *   own loop); ABT_key_set / ABT_key_get work (the key's destructor sees the value once
 *   the stream and the scheduler are gone);
 *   from a ULT: ABT_thread_join and ABT_thread_free return ABT_ERR_INV_THREAD (free
 *   leaves the handle as it is), ABT_thread_yield_to and ABT_self_schedule refuse it
 *   (ABT_ERR_INV_THREAD); ABT_thread_get_last_xstream gives the scheduler's stream,
 *   ABT_thread_is_primary ABT_FALSE, ABT_thread_get_state ABT_THREAD_STATE_RUNNING,
 *   ABT_thread_is_migratable ABT_FALSE even after ABT_thread_set_migratable. */
#include "test.h"
#include <stdatomic.h>
#include <unistd.h>

static ABT_thread _Atomic sched_handle;
static ABT_key key;
static atomic_int dtor_calls, checks_done;
static int value = 42;

static void dtor(void *v)
{
    CHECK(v == &value);
    atomic_fetch_add(&dtor_calls, 1);
}

static void sched_run(ABT_sched sched)
{
    ABT_pool pool;
    CHECK_ABT(ABT_sched_get_pools(sched, 1, 0, &pool));
    ABT_thread me;
    CHECK_ABT(ABT_self_get_thread(&me));
    CHECK_ABT(ABT_self_yield());
    CHECK_ERR(ABT_self_suspend(), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_self_exit(), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_self_yield_to(me), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_key_set(key, &value));
    void *v = NULL;
    CHECK_ABT(ABT_key_get(key, &v));
    CHECK(v == &value);
    atomic_store(&sched_handle, me);
    for (;;) {
        ABT_thread t;
        CHECK_ABT(ABT_pool_pop_thread(pool, &t));
        if (t != ABT_THREAD_NULL) {
            CHECK_ABT(ABT_self_schedule(t, ABT_POOL_NULL));
            continue;
        }
        ABT_bool stop;
        CHECK_ABT(ABT_sched_has_to_stop(sched, &stop));
        if (stop)
            break;
        CHECK_ABT(ABT_xstream_check_events(sched));
    }
}

static ABT_sched_def def = {
    .type = ABT_SCHED_TYPE_ULT,
    .init = NULL,
    .run = sched_run,
    .free = NULL,
    .get_migr_pool = NULL,
};

static ABT_xstream xs;

static void other(void *arg) { (void)arg; }

/* runs on the primary stream */
static void prober(void *arg)
{
    (void)arg;
    ABT_thread h;
    /* (ABT_THREAD_NULL is not NULL: the static starts as NULL) */
    while ((h = atomic_load(&sched_handle)) == NULL || h == ABT_THREAD_NULL)
        CHECK_ABT(ABT_thread_yield());
    CHECK_ERR(ABT_thread_join(h), ABT_ERR_INV_THREAD);
    ABT_thread h2 = h;
    CHECK_ERR(ABT_thread_free(&h2), ABT_ERR_INV_THREAD);
    CHECK_EQ_PTR(h2, h);
    CHECK_ERR(ABT_thread_yield_to(h), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_self_schedule(h, ABT_POOL_NULL), ABT_ERR_INV_THREAD);
    ABT_xstream last;
    CHECK_ABT(ABT_thread_get_last_xstream(h, &last));
    CHECK_EQ_PTR(last, xs);
    ABT_bool b = ABT_TRUE;
    CHECK_ABT(ABT_thread_is_primary(h, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(h, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_RUNNING);
    CHECK_ABT(ABT_thread_set_migratable(h, ABT_TRUE));
    CHECK_ABT(ABT_thread_is_migratable(h, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    atomic_store(&checks_done, 1);
}

int main(int argc, char **argv)
{
    alarm(120);
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_key_create(dtor, &key));
    ABT_pool pool, main_pool;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_sched s;
    CHECK_ABT(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_ABT(ABT_xstream_create(s, &xs));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, other, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_xstream me;
    CHECK_ABT(ABT_xstream_self(&me));
    CHECK_ABT(ABT_xstream_get_main_pools(me, 1, &main_pool));
    ABT_thread p;
    CHECK_ABT(ABT_thread_create(main_pool, prober, NULL, ABT_THREAD_ATTR_NULL, &p));
    CHECK_ABT(ABT_thread_free(&p));
    CHECK(atomic_load(&checks_done));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_sched_free(&s));
    CHECK_EQ_INT(atomic_load(&dtor_calls), 1);
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_key_free(&key));
    CHECK_ABT(ABT_finalize());
    return 0;
}
