/* pool_set_get_data: ABT_pool_set_data / ABT_pool_get_data round-trip a user
 * pointer (overwriting the previous value) on basic pools of every kind.  The
 * value found at creation is restored before the pool is used again because
 * Argobots 1.2 keeps the predefined pools' own state in that slot (the docs
 * say a new pool's user data is NULL; Argobots does not honour that for basic
 * pools, so it is not checked here).  ABT_POOL_NULL gives ABT_ERR_INV_POOL. */
#include "test.h"
#include <stdatomic.h>

static atomic_int ran;
static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream primary;
    ABT_pool ppool;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));

    int a, b;
    ABT_pool_kind kinds[] = { ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT, ABT_POOL_RANDWS };
    for (int k = 0; k < 3; k++) {
        ABT_pool pool;
        void *orig, *d;
        CHECK_ABT(ABT_pool_create_basic(kinds[k], ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
        CHECK_ABT(ABT_pool_get_data(pool, &orig));
        CHECK_ABT(ABT_pool_set_data(pool, &a));
        CHECK_ABT(ABT_pool_get_data(pool, &d));
        CHECK(d == &a);
        CHECK_ABT(ABT_pool_set_data(pool, &b));
        CHECK_ABT(ABT_pool_get_data(pool, &d));
        CHECK(d == &b);
        CHECK_ABT(ABT_pool_set_data(pool, NULL));
        CHECK_ABT(ABT_pool_get_data(pool, &d));
        CHECK(d == NULL);
        CHECK_ABT(ABT_pool_set_data(pool, orig));

        /* The pool still works. */
        ABT_thread t, got;
        atomic_store(&ran, 0);
        CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_ABT(ABT_pool_pop_thread(pool, &got));
        CHECK(got == t);
        CHECK_ABT(ABT_pool_push_thread(ppool, got));
        CHECK_ABT(ABT_thread_free(&t));
        CHECK_EQ_INT(atomic_load(&ran), 1);
        CHECK_ABT(ABT_pool_free(&pool));
    }

    void *d = &d;
    CHECK_ERR(ABT_pool_set_data(ABT_POOL_NULL, &a), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_get_data(ABT_POOL_NULL, &d), ABT_ERR_INV_POOL);
    CHECK(d == &d);

    CHECK_ABT(ABT_finalize());
    return 0;
}
