/* pool_pop_wait_timeout: on an empty FIFO or FIFO_WAIT pool the waiting pops
 * (ABT_pool_pop_wait_thread, ABT_pool_pop_wait_thread_ex, ABT_pool_pop_wait
 * and the deprecated ABT_pool_pop_timedwait with an absolute ABT_get_wtime
 * deadline) return ABT_SUCCESS with ABT_THREAD_NULL / ABT_UNIT_NULL after
 * roughly the timeout (not much earlier); on a non-empty pool they return the
 * queued work immediately. */
#include "test.h"
#include <stdatomic.h>

#define TMO 0.03

static void work(void *arg) { (void)arg; }

static void check_elapsed(double t0, const char *what)
{
    double el = ABT_get_wtime() - t0;
    if (el < TMO * 0.8)
        TEST_FAIL("%s returned after %.4f s, timeout %.3f s", what, el, TMO);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream primary;
    ABT_pool ppool;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));

    ABT_pool_kind kinds[] = { ABT_POOL_FIFO_WAIT, ABT_POOL_FIFO };
    for (int k = 0; k < 2; k++) {
        ABT_pool pool;
        CHECK_ABT(ABT_pool_create_basic(kinds[k], ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));

        ABT_thread t = (ABT_thread)&t;
        double t0 = ABT_get_wtime();
        CHECK_ABT(ABT_pool_pop_wait_thread(pool, &t, TMO));
        check_elapsed(t0, "ABT_pool_pop_wait_thread");
        CHECK(t == ABT_THREAD_NULL);

        t = (ABT_thread)&t;
        t0 = ABT_get_wtime();
        CHECK_ABT(ABT_pool_pop_wait_thread_ex(pool, &t, TMO, ABT_POOL_CONTEXT_OP_POOL_OTHER));
        check_elapsed(t0, "ABT_pool_pop_wait_thread_ex");
        CHECK(t == ABT_THREAD_NULL);

        ABT_unit u = (ABT_unit)&u;
        t0 = ABT_get_wtime();
        CHECK_ABT(ABT_pool_pop_wait(pool, &u, TMO));
        check_elapsed(t0, "ABT_pool_pop_wait");
        CHECK(u == ABT_UNIT_NULL);

        u = (ABT_unit)&u;
        t0 = ABT_get_wtime();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        CHECK_ABT(ABT_pool_pop_timedwait(pool, &u, ABT_get_wtime() + TMO));
#pragma GCC diagnostic pop
        check_elapsed(t0, "ABT_pool_pop_timedwait");
        CHECK(u == ABT_UNIT_NULL);

        /* Non-empty pool: immediate. */
        ABT_thread w, got = ABT_THREAD_NULL;
        CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &w));
        t0 = ABT_get_wtime();
        CHECK_ABT(ABT_pool_pop_wait_thread(pool, &got, 100.0));
        CHECK(ABT_get_wtime() - t0 < 50.0);
        CHECK(got == w);
        CHECK_ABT(ABT_pool_push_thread(pool, got));
        ABT_unit gu = ABT_UNIT_NULL;
        CHECK_ABT(ABT_pool_pop_wait(pool, &gu, 100.0));
        CHECK(gu != ABT_UNIT_NULL);
        CHECK_ABT(ABT_unit_get_thread(gu, &got));
        CHECK(got == w);
        CHECK_ABT(ABT_pool_push_thread(ppool, got));
        CHECK_ABT(ABT_thread_free(&w));
        CHECK_ABT(ABT_pool_free(&pool));
    }

    CHECK_ABT(ABT_finalize());
    return 0;
}
