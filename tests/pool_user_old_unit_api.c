/* pool_user_old_unit_api: the unit-level routines on a pool defined with the 1.0/1.1
 * struct ABT_pool_def: ABT_pool_print_all hands p_print_all's own units to the callback
 * (ABT_pool_print_all_threads their ULTs); ABT_pool_pop returns the pool's own unit,
 * which ABT_unit_get_thread maps back to its ULT and ABT_pool_push moves into another
 * pool (releasing it with u_free); ABT_pool_remove calls p_remove with the unit of the
 * ULT (as given by ABT_thread_get_unit); ABT_pool_pop_timedwait calls p_pop_timedwait
 * with an absolute time; ABT_pool_pop_wait is ABT_ERR_POOL (an old definition has no
 * relative pop_wait).  All units are freed before p_free runs. */
#include "test.h"
#include <pthread.h>
#include <stdatomic.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define MAGIC 0x0dd0f00d
#define NT    4

typedef struct unit {
    int magic;
    ABT_thread thread;
    struct unit *next, *prev;
} unit_t;

static unit_t *qhead, *qtail; /* one stream touches the pool: no lock */
static size_t qsize;
static atomic_long live_units;
static int n_remove, n_timedwait, n_print_all, n_free;
static ABT_thread removed_thread = ABT_THREAD_NULL;
static double timedwait_arg;

static ABT_unit u_create_from_thread(ABT_thread t)
{
    unit_t *u = calloc(1, sizeof(*u));
    u->magic = MAGIC;
    u->thread = t;
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

static size_t p_get_size(ABT_pool pool) { return qsize; }

static void p_push(ABT_pool pool, ABT_unit unit)
{
    unit_t *u = (unit_t *)unit;
    u->next = NULL;
    u->prev = qtail;
    if (qtail)
        qtail->next = u;
    else
        qhead = u;
    qtail = u;
    qsize++;
}

static void unlink_unit(unit_t *u)
{
    if (u->prev)
        u->prev->next = u->next;
    else
        qhead = u->next;
    if (u->next)
        u->next->prev = u->prev;
    else
        qtail = u->prev;
    qsize--;
}

static ABT_unit p_pop(ABT_pool pool)
{
    unit_t *u = qhead;
    if (!u)
        return ABT_UNIT_NULL;
    unlink_unit(u);
    return (ABT_unit)u;
}

static ABT_unit p_pop_timedwait(ABT_pool pool, double abstime)
{
    n_timedwait++;
    timedwait_arg = abstime;
    return p_pop(pool);
}

static int p_remove(ABT_pool pool, ABT_unit unit)
{
    unit_t *u = (unit_t *)unit;
    CHECK(u->magic == MAGIC);
    n_remove++;
    removed_thread = u->thread;
    unlink_unit(u);
    return ABT_SUCCESS;
}

static int p_print_all(ABT_pool pool, void *arg, void (*fn)(void *, ABT_unit))
{
    n_print_all++;
    for (unit_t *u = qhead; u; u = u->next)
        fn(arg, (ABT_unit)u);
    return ABT_SUCCESS;
}

static int p_free(ABT_pool pool)
{
    n_free++;
    CHECK_EQ_INT(atomic_load(&live_units), 0);
    return ABT_SUCCESS;
}

static ABT_thread ts[NT];
static int nprinted;
static void print_unit(void *arg, ABT_unit unit)
{
    unit_t *u = (unit_t *)unit;
    CHECK(u->magic == MAGIC);
    CHECK(u->thread == ts[nprinted]);
    nprinted++;
}
static void print_thread(void *arg, ABT_thread t)
{
    CHECK(t == ts[nprinted]);
    nprinted++;
}

static int ran[NT];
static void ult(void *arg) { ran[(intptr_t)arg]++; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream self;
    ABT_pool main_pool;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &main_pool));

    ABT_pool_def def;
    memset(&def, 0, sizeof(def));
    def.access = ABT_POOL_ACCESS_PRIV;
    def.u_create_from_thread = u_create_from_thread;
    def.u_free = u_free;
    def.p_get_size = p_get_size;
    def.p_push = p_push;
    def.p_pop = p_pop;
    def.p_pop_timedwait = p_pop_timedwait;
    def.p_remove = p_remove;
    def.p_free = p_free;
    def.p_print_all = p_print_all;
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create(&def, ABT_POOL_CONFIG_NULL, &pool));
    ABT_pool_access acc;
    CHECK_ABT(ABT_pool_get_access(pool, &acc));
    CHECK_EQ_INT(acc, ABT_POOL_ACCESS_PRIV);

    for (int i = 0; i < NT; i++)
        CHECK_ABT(ABT_thread_create(pool, ult, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &ts[i]));
    CHECK_ABT(ABT_pool_print_all(pool, NULL, print_unit));
    CHECK_EQ_INT(nprinted, NT);
    nprinted = 0;
    CHECK_ABT(ABT_pool_print_all_threads(pool, NULL, print_thread));
    CHECK_EQ_INT(nprinted, NT);
    CHECK_EQ_INT(n_print_all, 2);

    /* ABT_pool_pop: the pool's own unit */
    ABT_unit unit;
    CHECK_ABT(ABT_pool_pop(pool, &unit));
    CHECK(unit != ABT_UNIT_NULL);
    CHECK(((unit_t *)unit)->magic == MAGIC);
    ABT_thread t;
    CHECK_ABT(ABT_unit_get_thread(unit, &t));
    CHECK(t == ts[0]);
    long before = atomic_load(&live_units);
    CHECK_ABT(ABT_pool_push(main_pool, unit));
    CHECK_EQ_INT(atomic_load(&live_units), before - 1);

    /* ABT_pool_remove with the ULT's unit */
    ABT_unit u1;
    CHECK_ABT(ABT_thread_get_unit(ts[1], &u1));
    CHECK_ABT(ABT_pool_remove(pool, u1));
    CHECK_EQ_INT(n_remove, 1);
    CHECK(removed_thread == ts[1]);
    CHECK_EQ_INT(qsize, 2);
    CHECK_ABT(ABT_pool_push_thread(main_pool, ts[1]));

    /* p_pop_timedwait gets an absolute time */
    double deadline = ABT_get_wtime() + 0.25;
    CHECK_ABT(ABT_pool_pop_timedwait(pool, &unit, deadline));
    CHECK_EQ_INT(n_timedwait, 1);
    CHECK(timedwait_arg == deadline);
    CHECK_ABT(ABT_unit_get_thread(unit, &t));
    CHECK(t == ts[2]);
    CHECK_ABT(ABT_pool_push(main_pool, unit));

    CHECK_ERR(ABT_pool_pop_wait(pool, &unit, 0.01), ABT_ERR_POOL);

    CHECK_ABT(ABT_pool_pop_thread(pool, &t));
    CHECK(t == ts[3]);
    CHECK_ABT(ABT_pool_push_thread(main_pool, t));
    for (int i = 0; i < NT; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
    for (int i = 0; i < NT; i++)
        CHECK_EQ_INT(ran[i], 1);
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_EQ_INT(n_free, 1);
    CHECK_ABT(ABT_finalize());
    return 0;
}
