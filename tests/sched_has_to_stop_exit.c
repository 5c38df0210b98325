/* sched_has_to_stop_exit: in a user-defined scheduler that checks
 * ABT_sched_has_to_stop after every unit, ABT_sched_exit makes has_to_stop
 * ABT_TRUE at the next check even though the pool still holds queued ULTs
 * (unlike ABT_sched_finish).  The test then joins the stream and makes sure
 * every ULT eventually runs (any units still queued are moved to the primary
 * pool), so it works whether or not the runtime re-enters run() afterwards. */
#include "test.h"
#include <sched.h>
#include <stdatomic.h>

enum { N = 5 };
static ABT_pool pool;
static atomic_int gate_started, gate_open, ran;
static atomic_int stopped_with_pending = -1;
static atomic_int stop_seen, ran_at_stop = -1;

static void gate(void *arg)
{
    (void)arg;
    atomic_store(&gate_started, 1);
    while (!atomic_load(&gate_open))
        sched_yield(); /* spin politely (valgrind/TSan) */
}

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

static void run(ABT_sched sched)
{
    while (1) {
        ABT_unit unit = ABT_UNIT_NULL;
        if (ABT_pool_pop(pool, &unit) == ABT_SUCCESS && unit != ABT_UNIT_NULL)
            ABT_xstream_run_unit(unit, pool);
        else
            sched_yield();
        ABT_bool stop = ABT_FALSE;
        ABT_xstream_check_events(sched);
        ABT_sched_has_to_stop(sched, &stop);
        if (stop) {
            if (!atomic_load(&stop_seen)) {
                size_t sz = 0;
                ABT_pool_get_size(pool, &sz);
                atomic_store(&stopped_with_pending, (int)sz);
                atomic_store(&ran_at_stop, atomic_load(&ran));
                atomic_store(&stop_seen, 1);
            }
            return;
        }
    }
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_sched_def def = {
        .type = ABT_SCHED_TYPE_ULT, .init = NULL, .run = run, .free = NULL, .get_migr_pool = NULL
    };
    ABT_sched sched;
    CHECK_ABT(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &sched));

    ABT_thread g, ts[N];
    CHECK_ABT(ABT_thread_create(pool, gate, NULL, ABT_THREAD_ATTR_NULL, &g));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));

    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(sched, &xs));
    while (!atomic_load(&gate_started))
        sched_yield(); /* spin politely (valgrind/TSan) */
    CHECK_ABT(ABT_sched_exit(sched));
    atomic_store(&gate_open, 1);

    double start = ABT_get_wtime();
    while (!atomic_load(&stop_seen)) {
        if (ABT_get_wtime() - start > 30.0)
            TEST_FAIL("has_to_stop never returned ABT_TRUE after ABT_sched_exit");
        sched_yield();
    }
    CHECK_EQ_INT(atomic_load(&stopped_with_pending), N);
    CHECK_EQ_INT(atomic_load(&ran_at_stop), 0);

    /* Finish: join, then run whatever is still queued on the primary. */
    CHECK_ABT(ABT_xstream_join(xs));
    ABT_xstream primary;
    ABT_pool ppool;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));
    ABT_thread t;
    while (1) {
        CHECK_ABT(ABT_pool_pop_thread(pool, &t));
        if (t == ABT_THREAD_NULL)
            break;
        CHECK_ABT(ABT_pool_push_thread(ppool, t));
    }
    CHECK_ABT(ABT_thread_free(&g));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
    CHECK_EQ_INT(atomic_load(&ran), N);

    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_sched_free(&sched));
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
