/* self_exit_to_primary: the primary ULT cannot terminate: ABT_self_exit_to(t) called by
 * it returns ABT_ERR_INV_THREAD (documented: DOC_ERROR_INV_THREAD_PRIMARY_ULT{the
 * caller}) and has no effect: the primary ULT goes on, and t, popped from its pool
 * beforehand as the API requires, has not run and can still be run (here with
 * ABT_self_schedule).  ABT_self_resume_exit_to and ABT_self_exit behave the same.
 * NOTE: Argobots 1.2 fails this test: its ABT_self_exit_to does not check the caller
 * (only resume_exit_to does), so the primary ULT terminates and ABT_finalize is never
 * reached (the program hangs in the primary stream's scheduler). */
#include "test.h"
#include <stdatomic.h>

static atomic_int ran;

static void target_f(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool q;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q));
    ABT_thread t, popped = ABT_THREAD_NULL;
    CHECK_ABT(ABT_thread_create(q, target_f, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_pool_pop_thread(q, &popped));
    CHECK_EQ_PTR(popped, t);

    CHECK_ERR(ABT_self_exit_to(t), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_self_resume_exit_to(t), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_self_exit(), ABT_ERR_INV_THREAD);
    CHECK_EQ_INT(atomic_load(&ran), 0);
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(t, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_READY);

    CHECK_ABT(ABT_self_schedule(t, ABT_POOL_NULL));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&ran), 1);
    CHECK_ABT(ABT_pool_free(&q));
    CHECK_ABT(ABT_finalize());
    return 0;
}
