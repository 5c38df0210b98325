/* thread_set_associated_pool: changing the associated pool of a ULT that is not in
 * any pool (terminated, or the caller itself via ABT_self_set_associated_pool):
 * - for a terminated ULT, ABT_thread_get_last_pool reports the new pool;
 * - a running ULT that sets its own pool to the pool of a second xstream and then
 *   yields continues on that second xstream.
 * NULL thread / pool handles give ABT_ERR_INV_THREAD / ABT_ERR_INV_POOL. */
#include "test.h"

static ABT_pool pool1, pool2;
static ABT_xstream xs1, xs2;
static int moved_ok;

static void func(void *arg) { (void)arg; }

static void mover(void *arg)
{
    (void)arg;
    ABT_xstream me;
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK(me == xs1);
    CHECK_ERR(ABT_self_set_associated_pool(ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_ABT(ABT_self_set_associated_pool(pool2));
    ABT_pool p;
    CHECK_ABT(ABT_self_get_last_pool(&p));
    CHECK(p == pool2);
    CHECK_ABT(ABT_self_yield());
    CHECK_ABT(ABT_self_get_xstream(&me));
    moved_ok = (me == xs2);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_xstream_self(&xs1));
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &pool1));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    ABT_thread t;
    ABT_pool p;
    CHECK_ABT(ABT_thread_create(pool1, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_set_associated_pool(t, pool2));
    CHECK_ABT(ABT_thread_get_last_pool(t, &p));
    CHECK(p == pool2);
    CHECK_ERR(ABT_thread_set_associated_pool(t, ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_thread_set_associated_pool(ABT_THREAD_NULL, pool2), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_thread_create(pool1, mover, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK(moved_ok);
    CHECK_ABT(ABT_thread_get_last_pool(t, &p));
    CHECK(p == pool2);
    ABT_xstream last;
    CHECK_ABT(ABT_thread_get_last_xstream(t, &last));
    CHECK(last == xs2);
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
