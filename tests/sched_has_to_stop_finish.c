/* sched_has_to_stop_finish: in a user-defined scheduler (ABT_sched_create)
 * that pops units with ABT_pool_pop, runs them with ABT_xstream_run_unit and
 * after every unit calls ABT_xstream_check_events + ABT_sched_has_to_stop:
 * has_to_stop is ABT_FALSE while no request is pending, and after
 * ABT_sched_finish it stays ABT_FALSE as long as the pool still holds work;
 * it becomes ABT_TRUE only once the pool is empty, so every queued ULT runs,
 * and the stream then terminates without being joined. */
#include "test.h"
#include <sched.h>
#include <stdatomic.h>

enum { N = 5 };
static ABT_pool pool;
static atomic_int gate_started, gate_open, ran;
static atomic_int false_before_request;      /* has_to_stop FALSE after unit A */
static atomic_int stopped_with_pending = -1; /* pool size when TRUE first seen */
static atomic_int stop_seen;

static void unit_a(void *arg) { (void)arg; }

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
    int units_done = 0;
    while (1) {
        ABT_unit unit = ABT_UNIT_NULL;
        if (ABT_pool_pop(pool, &unit) == ABT_SUCCESS && unit != ABT_UNIT_NULL) {
            ABT_xstream_run_unit(unit, pool);
            units_done++;
        } else {
            sched_yield();
        }
        ABT_bool stop = ABT_FALSE;
        ABT_xstream_check_events(sched);
        ABT_sched_has_to_stop(sched, &stop);
        if (units_done == 1 && !stop)
            atomic_store(&false_before_request, 1);
        if (stop) {
            if (!atomic_load(&stop_seen)) {
                size_t sz = 0;
                ABT_pool_get_size(pool, &sz);
                atomic_store(&stopped_with_pending, (int)sz);
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

    ABT_thread a, g, ts[N];
    CHECK_ABT(ABT_thread_create(pool, unit_a, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_ABT(ABT_thread_create(pool, gate, NULL, ABT_THREAD_ATTR_NULL, &g));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));

    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(sched, &xs));
    while (!atomic_load(&gate_started))
        sched_yield(); /* spin politely (valgrind/TSan) */
    /* A has run and been checked; the gate ULT is running; N ULTs queued. */
    CHECK_ABT(ABT_sched_finish(sched));
    atomic_store(&gate_open, 1);

    ABT_xstream_state st = ABT_XSTREAM_STATE_RUNNING;
    double start = ABT_get_wtime();
    while (st != ABT_XSTREAM_STATE_TERMINATED) {
        CHECK_ABT(ABT_xstream_get_state(xs, &st));
        if (ABT_get_wtime() - start > 30.0)
            TEST_FAIL("stream did not terminate after ABT_sched_finish");
        sched_yield();
    }
    CHECK_EQ_INT(atomic_load(&false_before_request), 1);
    CHECK_EQ_INT(atomic_load(&stop_seen), 1);
    CHECK_EQ_INT(atomic_load(&stopped_with_pending), 0);
    CHECK_EQ_INT(atomic_load(&ran), N);

    CHECK_ABT(ABT_thread_free(&a));
    CHECK_ABT(ABT_thread_free(&g));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_sched_free(&sched));
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
