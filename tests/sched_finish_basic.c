/* sched_finish_basic: ABT_sched_finish on the main scheduler (BASIC and
 * BASIC_WAIT) of a running stream does not wait, lets every ULT already in
 * its pool run, and then the stream terminates by itself (state TERMINATED
 * without a join). */
#include "test.h"
#include <sched.h>
#include <stdatomic.h>

enum { N = 6 };
static atomic_int gate_started, gate_open, ran;

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

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_sched_predef predefs[] = { ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT };
    for (int k = 0; k < 2; k++) {
        atomic_store(&gate_started, 0);
        atomic_store(&gate_open, 0);
        atomic_store(&ran, 0);

        ABT_xstream xs;
        ABT_sched sched;
        ABT_pool pool;
        CHECK_ABT(ABT_xstream_create_basic(predefs[k], 0, NULL, ABT_SCHED_CONFIG_NULL, &xs));
        CHECK_ABT(ABT_xstream_get_main_sched(xs, &sched));
        CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

        ABT_thread g, ts[N];
        CHECK_ABT(ABT_thread_create(pool, gate, NULL, ABT_THREAD_ATTR_NULL, &g));
        while (!atomic_load(&gate_started))
            sched_yield(); /* spin politely (valgrind/TSan) */
        for (int i = 0; i < N; i++)
            CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
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
        CHECK_EQ_INT(atomic_load(&ran), N);

        CHECK_ABT(ABT_thread_free(&g));
        for (int i = 0; i < N; i++)
            CHECK_ABT(ABT_thread_free(&ts[i]));
        CHECK_ABT(ABT_xstream_free(&xs));
    }

    CHECK_ERR(ABT_sched_finish(ABT_SCHED_NULL), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_sched_exit(ABT_SCHED_NULL), ABT_ERR_INV_SCHED);

    CHECK_ABT(ABT_finalize());
    return 0;
}
