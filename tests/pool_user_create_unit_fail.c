/* pool_user_create_unit_fail: a 1.2 user-defined pool whose create_unit returns
 * ABT_UNIT_NULL on demand (issue 15, behaviour 7).  Where the API can report it, the call
 * returns ABT_ERR_OTHER (what Argobots returns) and changes nothing: ABT_thread_create sets
 * the handle to ABT_THREAD_NULL, ABT_pool_push_thread leaves the popped ULT with the
 * caller, ABT_self_set_associated_pool keeps the caller's pool; nothing aborts.  A unit
 * is made once per association, not per push: a ULT that yields Y times in the pool costs
 * one create_unit, so yields (which cannot report) keep working while create_unit fails.
 * Every unit made is given back before the pool's free callback. */
#include "test.h"
#include <pthread.h>
#include <stdatomic.h>

#define Y 20

typedef struct unit {
    ABT_thread thread;
    struct unit *next;
} unit_t;

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static unit_t *qhead, *qtail;
static size_t qsize;
static atomic_int refuse;
static atomic_long creates, live_units;

static ABT_unit create_unit(ABT_pool pool, ABT_thread t)
{
    if (atomic_load(&refuse))
        return ABT_UNIT_NULL;
    unit_t *u = calloc(1, sizeof(*u));
    CHECK(u != NULL);
    u->thread = t;
    atomic_fetch_add(&creates, 1);
    atomic_fetch_add(&live_units, 1);
    return (ABT_unit)u;
}

static void free_unit(ABT_pool pool, ABT_unit unit)
{
    free(unit);
    atomic_fetch_sub(&live_units, 1);
}

static ABT_bool is_empty(ABT_pool pool)
{
    pthread_mutex_lock(&qlock);
    ABT_bool e = qsize == 0 ? ABT_TRUE : ABT_FALSE;
    pthread_mutex_unlock(&qlock);
    return e;
}

static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    unit_t *u = (unit_t *)unit;
    pthread_mutex_lock(&qlock);
    u->next = NULL;
    if (qtail)
        qtail->next = u;
    else
        qhead = u;
    qtail = u;
    qsize++;
    pthread_mutex_unlock(&qlock);
}

static ABT_thread pop(ABT_pool pool, ABT_pool_context ctx)
{
    pthread_mutex_lock(&qlock);
    unit_t *u = qhead;
    if (u) {
        qhead = u->next;
        if (!qhead)
            qtail = NULL;
        qsize--;
    }
    pthread_mutex_unlock(&qlock);
    return u ? u->thread : ABT_THREAD_NULL;
}

static atomic_int pool_freed;
static void pool_free(ABT_pool pool)
{
    CHECK_EQ_INT(atomic_load(&live_units), 0);
    atomic_store(&pool_freed, 1);
}

static atomic_int yields_done;
static void yielder(void *arg)
{
    for (int i = 0; i < Y; i++) {
        if (i == 1)
            atomic_store(&refuse, 1); /* from now on create_unit fails */
        CHECK_ABT(ABT_thread_yield());
    }
    atomic_fetch_add(&yields_done, 1);
}

static ABT_pool upool;
static atomic_int self_checked;
static void try_move(void *arg)
{
    /* the ULT runs from a built-in pool; moving itself to the user pool must fail */
    ABT_pool before, after;
    CHECK_ABT(ABT_self_get_last_pool(&before));
    CHECK_ERR(ABT_self_set_associated_pool(upool), ABT_ERR_OTHER);
    CHECK_ABT(ABT_self_get_last_pool(&after));
    CHECK(before == after);
    CHECK_ABT(ABT_thread_yield()); /* still pushed to its own pool */
    atomic_store(&self_checked, 1);
}

static void noop(void *arg) {}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool_user_def def;
    CHECK_ABT(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &def));
    CHECK_ABT(ABT_pool_user_def_set_free(def, pool_free));
    CHECK_ABT(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &upool));
    CHECK_ABT(ABT_pool_user_def_free(&def));

    /* the primary stream runs the user pool too (second in its scheduler) */
    ABT_xstream self;
    CHECK_ABT(ABT_self_get_xstream(&self));
    ABT_pool main_pool;
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &main_pool));
    ABT_pool pools[2] = { main_pool, upool };
    ABT_sched sched;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &sched));
    CHECK_ABT(ABT_xstream_set_main_sched(self, sched));

    /* create: reported, handle NULL, no unit left behind */
    atomic_store(&refuse, 1);
    ABT_thread t = (ABT_thread)(uintptr_t)0x5eed;
    CHECK_ERR(ABT_thread_create(upool, noop, NULL, ABT_THREAD_ATTR_NULL, &t), ABT_ERR_OTHER);
    CHECK(t == ABT_THREAD_NULL);
    ABT_task k = (ABT_task)(uintptr_t)0x5eed;
    CHECK_ERR(ABT_task_create(upool, noop, NULL, &k), ABT_ERR_OTHER);
    CHECK(k == ABT_TASK_NULL);
    CHECK_EQ_INT(atomic_load(&live_units), 0);

    /* one unit per association: Y yields while create_unit fails after the first */
    atomic_store(&refuse, 0);
    CHECK_ABT(ABT_thread_create(upool, yielder, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&yields_done), 1);
    CHECK_EQ_INT(atomic_load(&creates), 1);
    CHECK_EQ_INT(atomic_load(&live_units), 0); /* given back when the ULT was freed */

    /* push of a ULT popped from a built-in pool: reported, the caller keeps it */
    ABT_pool side;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &side));
    CHECK_ABT(ABT_thread_create(side, noop, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread popped;
    CHECK_ABT(ABT_pool_pop_thread(side, &popped));
    CHECK(popped == t);
    CHECK_ERR(ABT_pool_push_thread(upool, popped), ABT_ERR_OTHER);
    ABT_bool empty;
    CHECK_ABT(ABT_pool_is_empty(upool, &empty));
    CHECK(empty == ABT_TRUE);
    atomic_store(&refuse, 0);
    CHECK_ABT(ABT_pool_push_thread(upool, popped)); /* now it goes there and runs */
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&live_units), 0);

    /* a ULT moving itself into the pool */
    atomic_store(&refuse, 1);
    CHECK_ABT(ABT_thread_create(main_pool, try_move, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&self_checked), 1);
    atomic_store(&refuse, 0);

    CHECK_ABT(ABT_pool_free(&side));
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(atomic_load(&pool_freed), 1);
    CHECK_EQ_INT(atomic_load(&live_units), 0);
    return 0;
}
