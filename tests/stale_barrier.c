/* stale_barrier: a copy of a barrier handle kept after ABT_barrier_free is refused with
 * ABT_ERR_INV_BARRIER by wait, reinit, get_num_waiters and free - also when a new
 * two-party barrier took its memory, where a lone wait would block - and the new barrier
 * is unaffected (a stale wait counted no arrival). */
#include "stale_test.h"

static ABT_barrier g_bar;
static void arrive(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_barrier_wait(g_bar));
}

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_barrier b, stale, b2;
    CHECK_ABT(ABT_barrier_create(2, &b));
    stale = b;
    CHECK_ABT(ABT_barrier_free(&b));
    CHECK_ABT(ABT_barrier_create(2, &b2));
    STALE_STEP("barrier: stale handle, memory reused by a 2-party barrier");
    CHECK_ERR(ABT_barrier_wait(stale), ABT_ERR_INV_BARRIER);
    CHECK_ERR(ABT_barrier_reinit(stale, 3), ABT_ERR_INV_BARRIER);
    uint32_t n;
    CHECK_ERR(ABT_barrier_get_num_waiters(stale, &n), ABT_ERR_INV_BARRIER);
    ABT_barrier copy = stale;
    CHECK_ERR(ABT_barrier_free(&copy), ABT_ERR_INV_BARRIER);

    CHECK_ABT(ABT_barrier_get_num_waiters(b2, &n));
    CHECK_EQ_INT(n, 2); /* the stale reinit did not reach it */
    /* one arrival from a ULT, one from here: a stale wait counted nowhere */
    g_bar = b2;
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, arrive, NULL, ABT_THREAD_ATTR_NULL, &t));
    STALE_STEP("barrier: the new barrier");
    CHECK_ABT(ABT_barrier_wait(b2));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_barrier_free(&b2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
