/* pool_user_def_is_empty: emptiness of a pool made from a 1.2 definition
 * (ABT_pool_user_def_create + ABT_pool_user_def_set_get_size) is asked of the user's
 * is_empty callback, as in Argobots, never of get_size:
 *   ABT_pool_is_empty returns what is_empty returns (the test's get_size deliberately
 *   answers something else, so a wrong callback shows in the result too) and calls
 *   is_empty, not get_size; ABT_pool_get_size calls get_size.
 *   ABT_sched_has_to_stop on a scheduler over the pool asks is_empty, not get_size
 *   (Argobots' has_unit check).
 * With a 1.0/1.1 struct ABT_pool_def (which has no is_empty), ABT_pool_is_empty is
 * p_get_size() == 0. */
#include "test.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

typedef struct unit {
    ABT_thread thread;
    struct unit *next;
} unit_t;

/* one stream only: no lock */
static unit_t *qhead, *qtail;
static size_t qsize;
static int n_is_empty, n_get_size;
static size_t fake_size; /* what get_size answers */

static ABT_unit create_unit(ABT_pool pool, ABT_thread t)
{
    unit_t *u = calloc(1, sizeof(*u));
    CHECK(u != NULL);
    u->thread = t;
    return (ABT_unit)u;
}
static void free_unit(ABT_pool pool, ABT_unit unit) { free(unit); }
static ABT_bool is_empty(ABT_pool pool)
{
    n_is_empty++;
    return qsize == 0 ? ABT_TRUE : ABT_FALSE;
}
static size_t get_size(ABT_pool pool)
{
    n_get_size++;
    return fake_size;
}
static void qpush(unit_t *u)
{
    u->next = NULL;
    if (qtail)
        qtail->next = u;
    else
        qhead = u;
    qtail = u;
    qsize++;
}
static unit_t *qpop(void)
{
    unit_t *u = qhead;
    if (u) {
        qhead = u->next;
        if (!qhead)
            qtail = NULL;
        qsize--;
    }
    return u;
}
static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx) { qpush((unit_t *)unit); }
static ABT_thread pop(ABT_pool pool, ABT_pool_context ctx)
{
    unit_t *u = qpop();
    return u ? u->thread : ABT_THREAD_NULL;
}

/* the old interface */
static ABT_unit old_create(ABT_thread t) { return create_unit(ABT_POOL_NULL, t); }
static void old_free(ABT_unit *u) { free(*u); }
static size_t old_get_size(ABT_pool pool)
{
    n_get_size++;
    return qsize;
}
static void old_push(ABT_pool pool, ABT_unit u) { qpush((unit_t *)u); }
static ABT_unit old_pop(ABT_pool pool)
{
    unit_t *u = qpop();
    return u ? (ABT_unit)u : ABT_UNIT_NULL;
}

static void func(void *arg) { (void)arg; }

static void check_is_empty(ABT_pool pool, ABT_bool expected, int expect_is_empty_calls,
                           int expect_get_size_calls)
{
    n_is_empty = n_get_size = 0;
    ABT_bool e = expected == ABT_TRUE ? ABT_FALSE : ABT_TRUE;
    CHECK_ABT(ABT_pool_is_empty(pool, &e));
    CHECK_EQ_INT(e, expected);
    CHECK_EQ_INT(n_is_empty, expect_is_empty_calls);
    CHECK_EQ_INT(n_get_size, expect_get_size_calls);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_pool_user_def def;
    CHECK_ABT(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &def));
    CHECK_ABT(ABT_pool_user_def_set_get_size(def, get_size));
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_ABT(ABT_pool_user_def_free(&def));

    /* empty pool, get_size lying "3" */
    fake_size = 3;
    check_is_empty(pool, ABT_TRUE, 1, 0);
    /* one ULT queued, get_size lying "0" */
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    fake_size = 0;
    check_is_empty(pool, ABT_FALSE, 1, 0);
    /* ABT_pool_get_size is get_size's business */
    n_is_empty = n_get_size = 0;
    size_t sz = 99;
    fake_size = 1;
    CHECK_ABT(ABT_pool_get_size(pool, &sz));
    CHECK_EQ_INT(sz, 1);
    CHECK_EQ_INT(n_get_size, 1);

    /* a scheduler's has_to_stop asks is_empty */
    ABT_sched sched;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &sched));
    CHECK_ABT(ABT_sched_finish(sched));
    n_is_empty = n_get_size = 0;
    fake_size = 0;
    ABT_bool stop = ABT_TRUE;
    CHECK_ABT(ABT_sched_has_to_stop(sched, &stop));
    CHECK_EQ_INT(stop, ABT_FALSE); /* a ULT is queued */
    CHECK(n_is_empty >= 1);
    CHECK_EQ_INT(n_get_size, 0);

    /* run the ULT: push it into the primary's pool */
    ABT_thread popped;
    CHECK_ABT(ABT_pool_pop_thread(pool, &popped));
    CHECK_EQ_PTR(popped, t);
    ABT_xstream xs;
    ABT_pool main_pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &main_pool));
    CHECK_ABT(ABT_pool_push_thread(main_pool, popped));
    CHECK_ABT(ABT_thread_free(&t));
    n_is_empty = n_get_size = 0;
    fake_size = 5;
    CHECK_ABT(ABT_sched_has_to_stop(sched, &stop));
    CHECK_EQ_INT(stop, ABT_TRUE);
    CHECK(n_is_empty >= 1);
    CHECK_EQ_INT(n_get_size, 0);
    CHECK_ABT(ABT_sched_free(&sched));
    CHECK_ABT(ABT_pool_free(&pool));

    /* the 1.0/1.1 interface: p_get_size() == 0 */
    struct ABT_pool_def odef;
    memset(&odef, 0, sizeof(odef));
    odef.access = ABT_POOL_ACCESS_MPMC;
    odef.u_create_from_thread = old_create;
    odef.u_free = old_free;
    odef.p_get_size = old_get_size;
    odef.p_push = old_push;
    odef.p_pop = old_pop;
    CHECK_ABT(ABT_pool_create(&odef, ABT_POOL_CONFIG_NULL, &pool));
    check_is_empty(pool, ABT_TRUE, 0, 1);
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    check_is_empty(pool, ABT_FALSE, 0, 1);
    CHECK_ABT(ABT_pool_pop_thread(pool, &popped));
    CHECK_EQ_PTR(popped, t);
    CHECK_ABT(ABT_pool_push_thread(main_pool, popped));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
