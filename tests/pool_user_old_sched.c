/* pool_user_old_sched: a pool defined with the 1.0/1.1 struct ABT_pool_def (its own unit
 * objects in a mutex-protected list) feeds a user-defined scheduler (ABT_sched_create)
 * on a secondary stream.  The run loop pops units with ABT_pool_pop, checks that each is
 * one of the pool's own units and maps back to its ULT (ABT_unit_get_thread), runs it
 * with ABT_xstream_run_unit, and calls ABT_xstream_check_events / ABT_sched_has_to_stop.
 * 10,000 ULTs are created into the pool by the primary ULT, 500 at a time; each yields
 * once (so it is pushed back through the pool) and counts itself on the secondary stream.
 * p_init and p_free run once; every unit the pool made has been freed (u_free) when
 * p_free runs. */
#include "test.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#define N     10000
#define BATCH 500 /* ULTs alive at once (ThreadSanitizer caps its fibers) */
#define MAGIC 0x5eed5eed

typedef struct unit {
    int magic;
    ABT_thread thread;
    struct unit *next;
} unit_t;

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static unit_t *qhead, *qtail;
static size_t qsize;
static atomic_long live_units, inits, frees, ran_secondary;

static ABT_unit u_create_from_thread(ABT_thread t)
{
    unit_t *u = malloc(sizeof(*u));
    CHECK(u != NULL);
    u->magic = MAGIC;
    u->thread = t;
    u->next = NULL;
    atomic_fetch_add(&live_units, 1);
    return (ABT_unit)u;
}

static void u_free(ABT_unit *pu)
{
    unit_t *u = (unit_t *)*pu;
    CHECK(u->magic == MAGIC);
    u->magic = 0;
    free(u);
    atomic_fetch_sub(&live_units, 1);
}

static int p_init(ABT_pool pool, ABT_pool_config config)
{
    atomic_fetch_add(&inits, 1);
    return ABT_SUCCESS;
}

static size_t p_get_size(ABT_pool pool)
{
    pthread_mutex_lock(&qlock);
    size_t s = qsize;
    pthread_mutex_unlock(&qlock);
    return s;
}

static void p_push(ABT_pool pool, ABT_unit unit)
{
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

static ABT_unit p_pop(ABT_pool pool)
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
    return u ? (ABT_unit)u : ABT_UNIT_NULL;
}

static int p_free(ABT_pool pool)
{
    CHECK_EQ_INT(qsize, 0);
    CHECK_EQ_INT(atomic_load(&live_units), 0);
    atomic_fetch_add(&frees, 1);
    return ABT_SUCCESS;
}

static void sched_run(ABT_sched sched)
{
    ABT_pool pool;
    CHECK_ABT(ABT_sched_get_pools(sched, 1, 0, &pool));
    for (unsigned n = 1;; n++) {
        ABT_unit unit;
        CHECK_ABT(ABT_pool_pop(pool, &unit));
        if (unit != ABT_UNIT_NULL) {
            unit_t *u = (unit_t *)unit;
            CHECK(u->magic == MAGIC);
            ABT_thread t;
            CHECK_ABT(ABT_unit_get_thread(unit, &t));
            CHECK(t == u->thread);
            CHECK_ABT(ABT_xstream_run_unit(unit, pool));
        }
        if (unit == ABT_UNIT_NULL || n % 64 == 0) {
            CHECK_ABT(ABT_xstream_check_events(sched));
            ABT_bool stop;
            CHECK_ABT(ABT_sched_has_to_stop(sched, &stop));
            if (stop)
                break;
            if (unit == ABT_UNIT_NULL)
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

    ABT_pool_def def;
    memset(&def, 0, sizeof(def));
    def.access = ABT_POOL_ACCESS_MPMC;
    def.u_create_from_thread = u_create_from_thread;
    def.u_free = u_free;
    def.p_init = p_init;
    def.p_get_size = p_get_size;
    def.p_push = p_push;
    def.p_pop = p_pop;
    def.p_free = p_free;
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create(&def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_EQ_INT(atomic_load(&inits), 1);
    ABT_pool_access acc;
    CHECK_ABT(ABT_pool_get_access(pool, &acc));
    CHECK_EQ_INT(acc, ABT_POOL_ACCESS_MPMC);

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
    size_t size = 1;
    CHECK_ABT(ABT_pool_get_size(pool, &size));
    CHECK_EQ_INT(size, 0);

    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_sched_free(&sched));
    CHECK_EQ_INT(atomic_load(&frees), 0);
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK(pool == ABT_POOL_NULL);
    CHECK_EQ_INT(atomic_load(&frees), 1);
    CHECK_ABT(ABT_finalize());
    return 0;
}
