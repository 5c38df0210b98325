/* xstream_run_unit_check_events: ABT_xstream_run_unit runs a popped unit on
 * the calling ULT's stream until it finishes (the unit's ULT sees the caller's
 * stream and is TERMINATED afterwards); it rejects ABT_UNIT_NULL
 * (ABT_ERR_INV_UNIT) and ABT_POOL_NULL (ABT_ERR_INV_POOL).
 * ABT_xstream_check_events rejects ABT_SCHED_NULL (ABT_ERR_INV_SCHED) and a
 * scheduler the caller is not running in (ABT_ERR_INV_THREAD). */
#include "test.h"
#include <stdatomic.h>

static ABT_xstream primary;
static atomic_int ran_here;

static void work(void *arg)
{
    (void)arg;
    ABT_xstream self;
    if (ABT_xstream_self(&self) == ABT_SUCCESS && self == primary)
        atomic_fetch_add(&ran_here, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_xstream_self(&primary));

    ABT_pool pool;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_unit u = ABT_UNIT_NULL;
    CHECK_ABT(ABT_pool_pop(pool, &u));
    CHECK_ERR(ABT_xstream_run_unit(ABT_UNIT_NULL, pool), ABT_ERR_INV_UNIT);
    CHECK_ERR(ABT_xstream_run_unit(u, ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_EQ_INT(atomic_load(&ran_here), 0);
    CHECK_ABT(ABT_xstream_run_unit(u, pool));
    CHECK_EQ_INT(atomic_load(&ran_here), 1);
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(t, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ERR(ABT_xstream_check_events(ABT_SCHED_NULL), ABT_ERR_INV_SCHED);
    ABT_sched other, main_sched;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &other));
    CHECK_ERR(ABT_xstream_check_events(other), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_xstream_get_main_sched(primary, &main_sched));
    /* The primary ULT is not the main scheduler's work unit either. */
    CHECK_ERR(ABT_xstream_check_events(main_sched), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_sched_free(&other));

    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
