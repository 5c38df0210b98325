/* pool_user_remove_errors: ABT_pool_remove on user-defined pools follows Argobots:
 *   a 1.0/1.1 pool: the return value of p_remove is what ABT_pool_remove returns; when
 *   p_remove refuses, the unit stays the pool's (u_free is not called for it, p_pop
 *   still hands it out and it runs); when it accepts, ABT_SUCCESS;
 *   a 1.0/1.1 pool without p_remove, and any 1.2 pool (no remove callback exists):
 *   ABT_ERR_POOL, also for ABT_UNIT_NULL (the missing callback is checked first). */
#include "test.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

typedef struct unit {
    ABT_thread thread;
    struct unit *next, *prev;
} unit_t;

static unit_t *qhead, *qtail; /* one stream: no lock */
static size_t qsize;
static int live_units, n_remove, refuse;

static ABT_unit u_create(ABT_thread t)
{
    unit_t *u = calloc(1, sizeof(*u));
    CHECK(u != NULL);
    u->thread = t;
    live_units++;
    return (ABT_unit)u;
}
static void u_free(ABT_unit *pu)
{
    free(*pu);
    live_units--;
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
static int p_remove(ABT_pool pool, ABT_unit unit)
{
    n_remove++;
    if (refuse)
        return ABT_ERR_INV_UNIT; /* any code: it must come back unchanged */
    unlink_unit((unit_t *)unit);
    return ABT_SUCCESS;
}

/* a 1.2 pool (remove cannot be defined) */
static ABT_unit n_create(ABT_pool pool, ABT_thread t) { return u_create(t); }
static void n_free(ABT_pool pool, ABT_unit unit) { u_free(&unit); }
static ABT_bool n_is_empty(ABT_pool pool) { return qsize == 0 ? ABT_TRUE : ABT_FALSE; }
static ABT_thread n_pop(ABT_pool pool, ABT_pool_context ctx)
{
    unit_t *u = (unit_t *)p_pop(pool);
    return u ? u->thread : ABT_THREAD_NULL;
}
static void n_push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx) { p_push(pool, unit); }

static int ran;
static void ult(void *arg) { ran++; }

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
    def.u_create_from_thread = u_create;
    def.u_free = u_free;
    def.p_get_size = p_get_size;
    def.p_push = p_push;
    def.p_pop = p_pop;
    def.p_remove = p_remove;
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create(&def, ABT_POOL_CONFIG_NULL, &pool));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_EQ_INT(live_units, 1);
    ABT_unit u = (ABT_unit)qhead;

    /* refused: the error comes back, the unit stays */
    refuse = 1;
    CHECK_ERR(ABT_pool_remove(pool, u), ABT_ERR_INV_UNIT);
    CHECK_EQ_INT(n_remove, 1);
    CHECK_EQ_INT(qsize, 1);
    CHECK_EQ_INT(live_units, 1);
    /* accepted */
    refuse = 0;
    CHECK_ABT(ABT_pool_remove(pool, u));
    CHECK_EQ_INT(n_remove, 2);
    CHECK_EQ_INT(qsize, 0);
    CHECK_ABT(ABT_pool_push_thread(main_pool, t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(ran, 1);
    CHECK_EQ_INT(live_units, 0);
    CHECK_ABT(ABT_pool_free(&pool));

    /* the same definition without p_remove */
    def.p_remove = NULL;
    CHECK_ABT(ABT_pool_create(&def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_ABT(ABT_thread_create(pool, ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ERR(ABT_pool_remove(pool, (ABT_unit)qhead), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_remove(pool, ABT_UNIT_NULL), ABT_ERR_POOL);
    CHECK_EQ_INT(qsize, 1);
    ABT_thread popped;
    CHECK_ABT(ABT_pool_pop_thread(pool, &popped));
    CHECK_EQ_PTR(popped, t);
    CHECK_ABT(ABT_pool_push_thread(main_pool, t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(ran, 2);
    CHECK_ABT(ABT_pool_free(&pool));

    /* a 1.2 pool */
    ABT_pool_user_def ndef;
    CHECK_ABT(ABT_pool_user_def_create(n_create, n_free, n_is_empty, n_pop, n_push, &ndef));
    CHECK_ABT(ABT_pool_create(ndef, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_ABT(ABT_pool_user_def_free(&ndef));
    CHECK_ABT(ABT_thread_create(pool, ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_unit tu;
    CHECK_ABT(ABT_thread_get_unit(t, &tu));
    CHECK_ERR(ABT_pool_remove(pool, tu), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_remove(pool, ABT_UNIT_NULL), ABT_ERR_POOL);
    CHECK_ABT(ABT_pool_pop_thread(pool, &popped));
    CHECK_EQ_PTR(popped, t);
    CHECK_ABT(ABT_pool_push_thread(main_pool, t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(ran, 3);
    CHECK_EQ_INT(live_units, 0);
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
