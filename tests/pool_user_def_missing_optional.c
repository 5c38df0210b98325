/* pool_user_def_missing_optional: a pool from a 1.2 definition that has only the five
 * required callbacks (or whose optional ones were removed again by setting NULL) answers
 * ABT_ERR_POOL to the routines that need a missing callback: ABT_pool_get_size and
 * ABT_pool_get_total_size (get_size), ABT_pool_pop_wait_thread (pop_wait),
 * ABT_pool_pop_threads (pop_many), ABT_pool_push_threads (push_many),
 * ABT_pool_print_all_threads / ABT_pool_print_all (print_all).  ABT_pool_is_empty,
 * push and pop still work (is_empty, push, pop), and ABT_pool_free works without free. */
#include "test.h"

typedef struct unit {
    ABT_thread thread;
    struct unit *next;
} unit_t;

static unit_t *qhead, *qtail; /* single stream: no lock */
static size_t qsize;
static int n_get_size;

static ABT_unit create_unit(ABT_pool pool, ABT_thread t)
{
    unit_t *u = calloc(1, sizeof(*u));
    u->thread = t;
    return (ABT_unit)u;
}
static void free_unit(ABT_pool pool, ABT_unit unit) { free(unit); }
static ABT_bool is_empty(ABT_pool pool) { return qsize == 0 ? ABT_TRUE : ABT_FALSE; }
static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    unit_t *u = (unit_t *)unit;
    u->next = NULL;
    if (qtail)
        qtail->next = u;
    else
        qhead = u;
    qtail = u;
    qsize++;
}
static ABT_thread pop(ABT_pool pool, ABT_pool_context ctx)
{
    unit_t *u = qhead;
    if (!u)
        return ABT_THREAD_NULL;
    qhead = u->next;
    if (!qhead)
        qtail = NULL;
    qsize--;
    return u->thread;
}
static size_t get_size(ABT_pool pool)
{
    n_get_size++;
    return qsize;
}
static void print_thread(void *arg, ABT_thread t) {}
static void print_unit(void *arg, ABT_unit u) {}
static int ran;
static void ult(void *arg) { ran++; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream self;
    ABT_pool main_pool;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &main_pool));

    ABT_pool_user_def def;
    CHECK_ABT(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &def));
    /* set, then remove again */
    CHECK_ABT(ABT_pool_user_def_set_get_size(def, get_size));
    CHECK_ABT(ABT_pool_user_def_set_get_size(def, NULL));
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_ABT(ABT_pool_user_def_free(&def));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    size_t size, num;
    ABT_thread got[2];
    CHECK_ERR(ABT_pool_get_size(pool, &size), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_get_total_size(pool, &size), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_pop_wait_thread(pool, got, 0.01), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_pop_threads(pool, got, 2, &num), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_push_threads(pool, got, 0), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_print_all_threads(pool, NULL, print_thread), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_print_all(pool, NULL, print_unit), ABT_ERR_POOL);
    CHECK_EQ_INT(n_get_size, 0);

    ABT_bool empty = ABT_TRUE;
    CHECK_ABT(ABT_pool_is_empty(pool, &empty));
    CHECK(empty == ABT_FALSE);
    ABT_thread p;
    CHECK_ABT(ABT_pool_pop_thread(pool, &p));
    CHECK(p == t);
    CHECK_ABT(ABT_pool_is_empty(pool, &empty));
    CHECK(empty == ABT_TRUE);
    CHECK_ABT(ABT_pool_push_thread(main_pool, p));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(ran, 1);
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
