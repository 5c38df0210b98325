/* pool_user_unit_release: a unit that ABT_pool_pop hands out stays valid (it is the pool's
 * own unit) after the pop, even when the ULT is then moved on by handle
 * (ABT_unit_get_thread + ABT_pool_push_thread) instead of by unit; by the time the pool's
 * free callback runs, every unit the pool created has been released through u_free /
 * free_unit.  Checked for an old-style (struct ABT_pool_def) and a 1.2-style pool. */
#include "test.h"

#define MAGIC 0x7e1ea5e0
#define NT    3

typedef struct unit {
    int magic;
    ABT_thread thread;
    struct unit *next;
} unit_t;

static unit_t *qhead, *qtail; /* one stream: no lock */
static int live_units, n_free;

static void enqueue(unit_t *u)
{
    u->next = NULL;
    if (qtail)
        qtail->next = u;
    else
        qhead = u;
    qtail = u;
}

static unit_t *dequeue(void)
{
    unit_t *u = qhead;
    if (u && !(qhead = u->next))
        qtail = NULL;
    return u;
}

static unit_t *make(ABT_thread t)
{
    unit_t *u = calloc(1, sizeof(*u));
    u->magic = MAGIC;
    u->thread = t;
    live_units++;
    return u;
}

static void unmake(unit_t *u)
{
    CHECK(u->magic == MAGIC);
    u->magic = 0;
    free(u);
    live_units--;
}

/* old style */
static ABT_unit o_create(ABT_thread t) { return (ABT_unit)make(t); }
static void o_free(ABT_unit *u) { unmake((unit_t *)*u); }
static size_t o_size(ABT_pool p) { return qhead ? 1 : 0; }
static void o_push(ABT_pool p, ABT_unit u) { enqueue((unit_t *)u); }
static ABT_unit o_pop(ABT_pool p)
{
    unit_t *u = dequeue();
    return u ? (ABT_unit)u : ABT_UNIT_NULL;
}
static int o_pfree(ABT_pool p)
{
    CHECK_EQ_INT(live_units, 0);
    n_free++;
    return ABT_SUCCESS;
}

/* 1.2 style */
static ABT_unit n_create(ABT_pool p, ABT_thread t) { return (ABT_unit)make(t); }
static void n_free_unit(ABT_pool p, ABT_unit u) { unmake((unit_t *)u); }
static ABT_bool n_empty(ABT_pool p) { return qhead ? ABT_FALSE : ABT_TRUE; }
static void n_push(ABT_pool p, ABT_unit u, ABT_pool_context c) { enqueue((unit_t *)u); }
static ABT_thread n_pop(ABT_pool p, ABT_pool_context c)
{
    unit_t *u = dequeue();
    return u ? u->thread : ABT_THREAD_NULL;
}
static void n_pfree(ABT_pool p)
{
    CHECK_EQ_INT(live_units, 0);
    n_free++;
}

static int ran;
static void ult(void *arg) { ran++; }

static void exercise(ABT_pool pool, ABT_pool main_pool)
{
    ABT_thread ts[NT];
    for (int i = 0; i < NT; i++)
        CHECK_ABT(ABT_thread_create(pool, ult, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    for (int i = 0; i < NT; i++) {
        ABT_unit unit;
        CHECK_ABT(ABT_pool_pop(pool, &unit));
        CHECK(unit != ABT_UNIT_NULL);
        CHECK(((unit_t *)unit)->magic == MAGIC);
        ABT_thread t;
        CHECK_ABT(ABT_unit_get_thread(unit, &t));
        CHECK(t == ts[i]);
        CHECK(((unit_t *)unit)->magic == MAGIC); /* still valid */
        CHECK_ABT(ABT_pool_push_thread(main_pool, t));
    }
    for (int i = 0; i < NT; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream self;
    ABT_pool main_pool, pool;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &main_pool));

    ABT_pool_def def;
    memset(&def, 0, sizeof(def));
    def.access = ABT_POOL_ACCESS_MPSC;
    def.u_create_from_thread = o_create;
    def.u_free = o_free;
    def.p_get_size = o_size;
    def.p_push = o_push;
    def.p_pop = o_pop;
    def.p_free = o_pfree;
    CHECK_ABT(ABT_pool_create(&def, ABT_POOL_CONFIG_NULL, &pool));
    exercise(pool, main_pool);
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_EQ_INT(n_free, 1);

    ABT_pool_user_def ndef;
    CHECK_ABT(ABT_pool_user_def_create(n_create, n_free_unit, n_empty, n_pop, n_push, &ndef));
    CHECK_ABT(ABT_pool_user_def_set_free(ndef, n_pfree));
    CHECK_ABT(ABT_pool_create(ndef, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_ABT(ABT_pool_user_def_free(&ndef));
    exercise(pool, main_pool);
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_EQ_INT(n_free, 2);
    CHECK_EQ_INT(ran, 2 * NT);
    CHECK_ABT(ABT_finalize());
    return 0;
}
