/* pool_null_handle: every pool routine given ABT_POOL_NULL returns
 * ABT_ERR_INV_POOL (ABT_pool_free: for a pointer to ABT_POOL_NULL); pushing
 * ABT_UNIT_NULL to a valid pool returns ABT_ERR_INV_UNIT; pushing
 * ABT_THREAD_NULL is a successful no-op. */
#include "test.h"

static void print_unit(void *arg, ABT_unit u)
{
    (void)arg;
    (void)u;
}
static void print_thread(void *arg, ABT_thread t)
{
    (void)arg;
    (void)t;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    const ABT_pool N = ABT_POOL_NULL;
    ABT_pool h = ABT_POOL_NULL;
    ABT_pool_access acc;
    ABT_bool b;
    size_t sz, num;
    ABT_thread t, ts[2];
    ABT_unit u;
    void *d;
    int id;
    CHECK_ERR(ABT_pool_free(&h), ABT_ERR_INV_POOL);
    CHECK(h == ABT_POOL_NULL);
    CHECK_ERR(ABT_pool_get_access(N, &acc), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_is_empty(N, &b), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_get_size(N, &sz), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_get_total_size(N, &sz), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_thread(N, &t), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_thread_ex(N, &t, ABT_POOL_CONTEXT_OP_POOL_OTHER), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_threads(N, ts, 2, &num), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_threads_ex(N, ts, 2, &num, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push_thread(N, ABT_THREAD_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push_thread_ex(N, ABT_THREAD_NULL, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push_threads(N, ts, 0), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push_threads_ex(N, ts, 0, ABT_POOL_CONTEXT_OP_POOL_OTHER), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_wait_thread(N, &t, 0.0), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_wait_thread_ex(N, &t, 0.0, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_print_all_threads(N, NULL, print_thread), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_set_data(N, NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_get_data(N, &d), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_add_sched(N, ABT_SCHED_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_get_id(N, &id), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop(N, &u), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_wait(N, &u, 0.0), ABT_ERR_INV_POOL);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    CHECK_ERR(ABT_pool_pop_timedwait(N, &u, 0.0), ABT_ERR_INV_POOL);
#pragma GCC diagnostic pop
    CHECK_ERR(ABT_pool_remove(N, ABT_UNIT_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push(N, ABT_UNIT_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_print_all(N, NULL, print_unit), ABT_ERR_INV_POOL);

    ABT_pool pool;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    CHECK_ERR(ABT_pool_push(pool, ABT_UNIT_NULL), ABT_ERR_INV_UNIT);
    CHECK_ABT(ABT_pool_push_thread(pool, ABT_THREAD_NULL));
    CHECK_ABT(ABT_pool_push_thread_ex(pool, ABT_THREAD_NULL, ABT_POOL_CONTEXT_OP_POOL_OTHER));
    CHECK_ABT(ABT_pool_get_size(pool, &sz));
    CHECK_EQ_INT(sz, 0);
    CHECK_ABT(ABT_pool_free(&pool));

    CHECK_ABT(ABT_finalize());
    return 0;
}
