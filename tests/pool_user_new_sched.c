/* pool_user_new_sched: a pool defined through the 1.2 interface (ABT_pool_user_def_create
 * with its five required callbacks, plus init and free) feeds a user-defined scheduler on
 * a secondary stream.  The run loop pops ULTs with ABT_pool_pop_thread, gets their unit
 * with ABT_thread_get_unit and runs it with ABT_xstream_run_unit, checking events and
 * has_to_stop.  10,000 ULTs are created into the pool, 500 at a time; each yields once.
 * The pool's push sees ABT_POOL_CONTEXT_OP_THREAD_CREATE once per ULT and
 * ABT_POOL_CONTEXT_OP_THREAD_YIELD once per yield; create_unit is given the pool's handle
 * and the ULT; every unit is freed by free_unit before the pool's free callback runs. */
#include "test.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#define N     10000
#define BATCH 500 /* ULTs alive at once (ThreadSanitizer caps its fibers) */
#define MAGIC 0x1234abcd

typedef struct unit {
    int magic;
    ABT_thread thread;
    struct unit *next;
} unit_t;

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static unit_t *qhead, *qtail;
static size_t qsize;
static ABT_pool g_pool = ABT_POOL_NULL;
static atomic_long live_units, inits, frees, pushes_create, pushes_yield, ran_secondary;

static ABT_unit create_unit(ABT_pool pool, ABT_thread t)
{
    CHECK(pool == g_pool);
    CHECK(t != ABT_THREAD_NULL);
    unit_t *u = malloc(sizeof(*u));
    CHECK(u != NULL);
    u->magic = MAGIC;
    u->thread = t;
    u->next = NULL;
    atomic_fetch_add(&live_units, 1);
    return (ABT_unit)u;
}

static void free_unit(ABT_pool pool, ABT_unit unit)
{
    CHECK(pool == g_pool);
    unit_t *u = (unit_t *)unit;
    CHECK(u->magic == MAGIC);
    u->magic = 0;
    free(u);
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
    CHECK(pool == g_pool);
    if (ctx & ABT_POOL_CONTEXT_OP_THREAD_CREATE)
        atomic_fetch_add(&pushes_create, 1);
    if (ctx & ABT_POOL_CONTEXT_OP_THREAD_YIELD)
        atomic_fetch_add(&pushes_yield, 1);
    unit_t *u = (unit_t *)unit;
    CHECK(u->magic == MAGIC);
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
    CHECK(pool == g_pool);
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

static int pool_init(ABT_pool pool, ABT_pool_config config)
{
    g_pool = pool;
    atomic_fetch_add(&inits, 1);
    return ABT_SUCCESS;
}

static void pool_free(ABT_pool pool)
{
    CHECK(pool == g_pool);
    CHECK_EQ_INT(qsize, 0);
    CHECK_EQ_INT(atomic_load(&live_units), 0);
    atomic_fetch_add(&frees, 1);
}

static void sched_run(ABT_sched sched)
{
    ABT_pool pool;
    CHECK_ABT(ABT_sched_get_pools(sched, 1, 0, &pool));
    for (unsigned n = 1;; n++) {
        ABT_thread t;
        CHECK_ABT(ABT_pool_pop_thread(pool, &t));
        if (t != ABT_THREAD_NULL) {
            ABT_unit unit;
            CHECK_ABT(ABT_thread_get_unit(t, &unit));
            CHECK(unit != ABT_UNIT_NULL);
            CHECK_ABT(ABT_xstream_run_unit(unit, pool));
        }
        if (t == ABT_THREAD_NULL || n % 64 == 0) {
            CHECK_ABT(ABT_xstream_check_events(sched));
            ABT_bool stop;
            CHECK_ABT(ABT_sched_has_to_stop(sched, &stop));
            if (stop)
                break;
            if (t == ABT_THREAD_NULL)
                sched_yield(); /* idle: let other threads have the CPU (valgrind) */
        }
    }
}

static void ult(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_thread_yield());
    int rank;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    if (rank != 0)
        atomic_fetch_add(&ran_secondary, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_pool_user_def def;
    CHECK_ABT(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &def));
    CHECK_ABT(ABT_pool_user_def_set_init(def, pool_init));
    CHECK_ABT(ABT_pool_user_def_set_free(def, pool_free));
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_ABT(ABT_pool_user_def_free(&def));
    CHECK(def == ABT_POOL_USER_DEF_NULL);
    CHECK(pool == g_pool);
    CHECK_EQ_INT(atomic_load(&inits), 1);

    ABT_sched_def sdef = { .type = ABT_SCHED_TYPE_ULT,
                           .init = NULL,
                           .run = sched_run,
                           .free = NULL,
                           .get_migr_pool = NULL };
    ABT_sched sched;
    CHECK_ABT(ABT_sched_create(&sdef, 1, &pool, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(sched, &xs));

    static ABT_thread ts[BATCH];
    for (int base = 0; base < N; base += BATCH) {
        for (int i = 0; i < BATCH; i++)
            CHECK_ABT(ABT_thread_create(pool, ult, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
        for (int i = 0; i < BATCH; i++)
            CHECK_ABT(ABT_thread_free(&ts[i]));
    }
    CHECK_EQ_INT(atomic_load(&ran_secondary), N);
    CHECK_EQ_INT(atomic_load(&pushes_create), N);
    CHECK_EQ_INT(atomic_load(&pushes_yield), N);
    ABT_bool empty = ABT_FALSE;
    CHECK_ABT(ABT_pool_is_empty(pool, &empty));
    CHECK(empty == ABT_TRUE);

    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_sched_free(&sched));
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_EQ_INT(atomic_load(&frees), 1);
    CHECK_ABT(ABT_finalize());
    return 0;
}
