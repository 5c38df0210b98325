/* pool_total_size_suspended: a ULT that suspends itself (ABT_self_suspend)
 * is no longer in its pool, so ABT_pool_get_size drops to 0, but it is still
 * associated with the pool and ABT_pool_get_total_size (and
 * ABT_sched_get_total_size) keep counting it until it is resumed and
 * finishes. */
#include "test.h"
#include <sched.h>
#include <stdatomic.h>

static atomic_int resumed;

static void sleeper(void *arg)
{
    (void)arg;
    ABT_self_suspend();
    atomic_store(&resumed, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_pool pool;
    ABT_sched sched;
    ABT_xstream xs;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool));
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &sched));
    CHECK_ABT(ABT_xstream_create(sched, &xs));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, sleeper, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    double start = ABT_get_wtime();
    while (st != ABT_THREAD_STATE_BLOCKED) {
        CHECK_ABT(ABT_thread_get_state(t, &st));
        if (ABT_get_wtime() - start > 30.0)
            TEST_FAIL("ULT never became BLOCKED");
        sched_yield();
    }

    size_t sz = 99, tsz = 99;
    CHECK_ABT(ABT_pool_get_size(pool, &sz));
    CHECK_ABT(ABT_pool_get_total_size(pool, &tsz));
    CHECK_EQ_INT(sz, 0);
    CHECK_EQ_INT(tsz, 1);
    CHECK_ABT(ABT_sched_get_size(sched, &sz));
    CHECK_ABT(ABT_sched_get_total_size(sched, &tsz));
    CHECK_EQ_INT(sz, 0);
    CHECK_EQ_INT(tsz, 1);
    ABT_bool empty = ABT_FALSE;
    CHECK_ABT(ABT_pool_is_empty(pool, &empty));
    CHECK_EQ_INT(empty, ABT_TRUE);

    CHECK_ABT(ABT_thread_resume(t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&resumed), 1);
    CHECK_ABT(ABT_pool_get_total_size(pool, &tsz));
    CHECK_EQ_INT(tsz, 0);

    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    return 0;
}
