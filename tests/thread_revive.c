/* thread_revive: a terminated (joined, not freed) ULT can be revived with a new
 * function and argument, optionally into another pool (here: the pool of a second
 * xstream); the handle stays the same and it runs again.  Reviving a ULT that has
 * not terminated gives ABT_ERR_INV_THREAD; a NULL handle gives ABT_ERR_INV_THREAD; a
 * NULL pool gives ABT_ERR_INV_POOL. */
#include "test.h"
#include <stdatomic.h>

static atomic_int first_runs, second_runs;
static atomic_int gate;
static ABT_xstream ran_on;

static void first(void *arg)
{
    CHECK(arg == (void *)0x1);
    atomic_fetch_add(&first_runs, 1);
}

static void second(void *arg)
{
    CHECK(arg == (void *)0x2);
    CHECK_ABT(ABT_self_get_xstream(&ran_on));
    atomic_fetch_add(&second_runs, 1);
}

static void waiter(void *arg)
{
    (void)arg;
    while (!atomic_load(&gate))
        CHECK_ABT(ABT_thread_yield());
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs1, xs2;
    ABT_pool pool1, pool2;
    CHECK_ABT(ABT_xstream_self(&xs1));
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &pool1));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool1, first, (void *)0x1, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(atomic_load(&first_runs), 1);

    ABT_thread before = t;
    /* Revive in the same pool, same function. */
    CHECK_ABT(ABT_thread_revive(pool1, first, (void *)0x1, &t));
    CHECK(t == before);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(atomic_load(&first_runs), 2);

    /* Revive with another function and argument into the other xstream's pool. */
    CHECK_ABT(ABT_thread_revive(pool2, second, (void *)0x2, &t));
    CHECK(t == before);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(atomic_load(&second_runs), 1);
    CHECK(ran_on == xs2);
    void (*f)(void *);
    void *a;
    CHECK_ABT(ABT_thread_get_thread_func(t, &f));
    CHECK(f == second);
    CHECK_ABT(ABT_thread_get_arg(t, &a));
    CHECK(a == (void *)0x2);
    ABT_pool lp;
    CHECK_ABT(ABT_thread_get_last_pool(t, &lp));
    CHECK(lp == pool2);
    CHECK_ABT(ABT_thread_free(&t));

    /* Not terminated: a ULT that is still waiting. */
    ABT_thread w;
    CHECK_ABT(ABT_thread_create(pool1, waiter, NULL, ABT_THREAD_ATTR_NULL, &w));
    CHECK_ERR(ABT_thread_revive(pool1, first, (void *)0x1, &w), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_thread_yield()); /* let it start and block in its loop */
    CHECK_ERR(ABT_thread_revive(pool1, first, (void *)0x1, &w), ABT_ERR_INV_THREAD);
    atomic_store(&gate, 1);
    CHECK_ABT(ABT_thread_join(w));
    CHECK_ERR(ABT_thread_revive(ABT_POOL_NULL, first, (void *)0x1, &w), ABT_ERR_INV_POOL);
    CHECK_ABT(ABT_thread_free(&w));

    ABT_thread null_thread = ABT_THREAD_NULL;
    CHECK_ERR(ABT_thread_revive(pool1, first, NULL, &null_thread), ABT_ERR_INV_THREAD);
    CHECK_EQ_INT(atomic_load(&first_runs), 2);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
