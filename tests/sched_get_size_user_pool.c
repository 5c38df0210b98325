/* sched_get_size_user_pool: ABT_sched_get_size and ABT_sched_get_total_size need the
 * get_size callback of every pool of the scheduler, as in Argobots: with a 1.2
 * user-defined pool that has none they return ABT_ERR_POOL; once the definition has
 * get_size, they return the sum over the pools (the built-in pool's units plus the user
 * pool's get_size). */
#include "test.h"

static size_t qsize; /* units pushed and not popped (one stream) */
static ABT_thread queued[4];

static ABT_unit create_unit(ABT_pool pool, ABT_thread t) { return (ABT_unit)t; }
static void free_unit(ABT_pool pool, ABT_unit unit) {}
static ABT_bool is_empty(ABT_pool pool) { return qsize == 0 ? ABT_TRUE : ABT_FALSE; }
static size_t get_size(ABT_pool pool) { return qsize; }
static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    CHECK(qsize < 4);
    queued[qsize++] = (ABT_thread)unit;
}
static ABT_thread pop(ABT_pool pool, ABT_pool_context ctx)
{
    if (qsize == 0)
        return ABT_THREAD_NULL;
    ABT_thread t = queued[0];
    for (size_t i = 1; i < qsize; i++)
        queued[i - 1] = queued[i];
    qsize--;
    return t;
}

static void func(void *arg) { (void)arg; }

static void round_trip(int with_get_size)
{
    ABT_pool_user_def def;
    CHECK_ABT(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &def));
    if (with_get_size)
        CHECK_ABT(ABT_pool_user_def_set_get_size(def, get_size));
    ABT_pool pools[2];
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pools[0]));
    CHECK_ABT(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pools[1]));
    CHECK_ABT(ABT_pool_user_def_free(&def));
    ABT_sched sched;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_thread a, b, c;
    CHECK_ABT(ABT_thread_create(pools[0], func, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_ABT(ABT_thread_create(pools[1], func, NULL, ABT_THREAD_ATTR_NULL, &b));
    CHECK_ABT(ABT_thread_create(pools[1], func, NULL, ABT_THREAD_ATTR_NULL, &c));
    size_t sz = 12345;
    if (with_get_size) {
        CHECK_ABT(ABT_sched_get_size(sched, &sz));
        CHECK_EQ_INT(sz, 3);
        CHECK_ABT(ABT_sched_get_total_size(sched, &sz));
        CHECK_EQ_INT(sz, 3);
    } else {
        CHECK_ERR(ABT_sched_get_size(sched, &sz), ABT_ERR_POOL);
        CHECK_ERR(ABT_sched_get_total_size(sched, &sz), ABT_ERR_POOL);
    }
    /* run them on the primary's pool */
    ABT_xstream xs;
    ABT_pool main_pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &main_pool));
    for (int i = 0; i < 2; i++) {
        ABT_thread t;
        for (;;) {
            CHECK_ABT(ABT_pool_pop_thread(pools[i], &t));
            if (t == ABT_THREAD_NULL)
                break;
            CHECK_ABT(ABT_pool_push_thread(main_pool, t));
        }
    }
    CHECK_ABT(ABT_thread_free(&a));
    CHECK_ABT(ABT_thread_free(&b));
    CHECK_ABT(ABT_thread_free(&c));
    CHECK_ABT(ABT_sched_free(&sched));
    CHECK_ABT(ABT_pool_free(&pools[0]));
    CHECK_ABT(ABT_pool_free(&pools[1]));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    round_trip(0);
    round_trip(1);
    CHECK_ABT(ABT_finalize());
    return 0;
}
