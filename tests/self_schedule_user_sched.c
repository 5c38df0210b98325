/* self_schedule_user_sched: a user-defined scheduler whose run function does what
 * Argobots' own schedulers do - ABT_pool_pop_thread, then ABT_self_schedule(thread, pool) -
 * runs every unit it pops, wherever the scheduler runs:
 *   1. as the main scheduler of a secondary stream (ABT_xstream_create),
 *   2. as the main scheduler of the primary stream (ABT_xstream_set_main_sched),
 *   3. stacked: pushed into a pool of a secondary stream with ABT_pool_add_sched.
 * Each case runs twice: with ABT_POOL_NULL (the unit keeps its pool) and with the
 * scheduler's second pool (the unit is associated with it before it runs, so its yields
 * go there).  ABT_self_schedule must return ABT_SUCCESS in the scheduler (a failure is
 * reported at once instead of leaving the popped unit lost); every ULT yields a few times
 * and every tasklet runs once; the joins return and the counts match. */
#include "test.h"
#include <stdatomic.h>
#include <unistd.h>

#define NULT   40
#define NTASK  20
#define NYIELD 3

struct sched_data {
    int assoc; /* 0: ABT_POOL_NULL, 1: associate with pools[1] */
};

static atomic_int ult_done, task_done, scheduled;
static ABT_pool expect_pool; /* the pool units must be associated with */

static void sched_run(ABT_sched sched)
{
    struct sched_data *d;
    int np;
    ABT_pool pools[2];
    CHECK_ABT(ABT_sched_get_data(sched, (void **)&d));
    CHECK_ABT(ABT_sched_get_num_pools(sched, &np));
    CHECK(np == 1 || np == 2);
    CHECK_ABT(ABT_sched_get_pools(sched, np, 0, pools));
    for (unsigned n = 1;; n++) {
        ABT_thread t;
        CHECK_ABT(ABT_pool_pop_thread(pools[0], &t));
        if (t == ABT_THREAD_NULL && np == 2)
            CHECK_ABT(ABT_pool_pop_thread(pools[1], &t));
        if (t != ABT_THREAD_NULL) {
            int r = ABT_self_schedule(t, d->assoc ? pools[1] : ABT_POOL_NULL);
            if (r != ABT_SUCCESS)
                TEST_FAIL("ABT_self_schedule in a user scheduler returned %d (%s)", r,
                          test_errname(r));
            atomic_fetch_add(&scheduled, 1);
        }
        if (t == ABT_THREAD_NULL || n % 8 == 0) {
            ABT_bool stop;
            CHECK_ABT(ABT_sched_has_to_stop(sched, &stop));
            if (stop)
                break;
            CHECK_ABT(ABT_xstream_check_events(sched));
        }
    }
}

static ABT_sched_def def = {
    .type = ABT_SCHED_TYPE_ULT,
    .init = NULL,
    .run = sched_run,
    .free = NULL,
    .get_migr_pool = NULL,
};

static void ult(void *arg)
{
    (void)arg;
    for (int i = 0; i < NYIELD; i++) {
        ABT_pool last;
        CHECK_ABT(ABT_self_get_last_pool(&last));
        CHECK_EQ_PTR(last, expect_pool);
        CHECK_ABT(ABT_thread_yield());
    }
    atomic_fetch_add(&ult_done, 1);
}

static void task(void *arg)
{
    (void)arg;
    atomic_fetch_add(&task_done, 1);
}

/* Create the units into `into`, join and free them, check the counts. */
static void run_units(ABT_pool into, const char *what)
{
    ABT_thread th[NULT];
    ABT_task tk[NTASK];
    atomic_store(&ult_done, 0);
    atomic_store(&task_done, 0);
    atomic_store(&scheduled, 0);
    for (int i = 0; i < NULT; i++)
        CHECK_ABT(ABT_thread_create(into, ult, NULL, ABT_THREAD_ATTR_NULL, &th[i]));
    for (int i = 0; i < NTASK; i++)
        CHECK_ABT(ABT_task_create(into, task, NULL, &tk[i]));
    for (int i = 0; i < NULT; i++)
        CHECK_ABT(ABT_thread_free(&th[i]));
    for (int i = 0; i < NTASK; i++)
        CHECK_ABT(ABT_task_free(&tk[i]));
    if (atomic_load(&ult_done) != NULT || atomic_load(&task_done) != NTASK)
        TEST_FAIL("%s: %d ULTs, %d tasklets done", what, atomic_load(&ult_done),
                  atomic_load(&task_done));
    CHECK(atomic_load(&scheduled) > 0);
}

static void case_secondary(int assoc)
{
    struct sched_data d = { assoc };
    ABT_pool pools[2];
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
    ABT_sched s;
    CHECK_ABT(ABT_sched_create(&def, 2, pools, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_ABT(ABT_sched_set_data(s, &d));
    expect_pool = assoc ? pools[1] : pools[0];
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(s, &xs));
    run_units(pools[0], assoc ? "secondary main, pool" : "secondary main, ABT_POOL_NULL");
    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_sched_free(&s));
}

static void case_stacked(int assoc)
{
    struct sched_data d = { assoc };
    ABT_pool outer, pools[2];
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &outer));
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pools[i]));
    ABT_sched s;
    CHECK_ABT(ABT_sched_create(&def, 2, pools, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_ABT(ABT_sched_set_data(s, &d));
    expect_pool = assoc ? pools[1] : pools[0];
    /* the units are queued first: a stacked scheduler returns when its pools are empty */
    ABT_thread th[NULT];
    ABT_task tk[NTASK];
    atomic_store(&ult_done, 0);
    atomic_store(&task_done, 0);
    atomic_store(&scheduled, 0);
    for (int i = 0; i < NULT; i++)
        CHECK_ABT(ABT_thread_create(pools[0], ult, NULL, ABT_THREAD_ATTR_NULL, &th[i]));
    for (int i = 0; i < NTASK; i++)
        CHECK_ABT(ABT_task_create(pools[0], task, NULL, &tk[i]));
    CHECK_ABT(ABT_pool_add_sched(outer, s));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &outer, ABT_SCHED_CONFIG_NULL, &xs));
    for (int i = 0; i < NULT; i++)
        CHECK_ABT(ABT_thread_free(&th[i]));
    for (int i = 0; i < NTASK; i++)
        CHECK_ABT(ABT_task_free(&tk[i]));
    if (atomic_load(&ult_done) != NULT || atomic_load(&task_done) != NTASK)
        TEST_FAIL("stacked: %d ULTs, %d tasklets done", atomic_load(&ult_done),
                  atomic_load(&task_done));
    /* after the join: the scheduler counts a unit once ABT_self_schedule returned, which
     * may be after the unit's joiner woke up */
    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_EQ_INT(atomic_load(&scheduled), NULT * (NYIELD + 1) + NTASK);
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_sched_free(&s));
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_pool_free(&pools[i]));
    CHECK_ABT(ABT_pool_free(&outer));
}

static void case_primary(int assoc)
{
    static struct sched_data d;
    d.assoc = assoc;
    ABT_pool pools[2];
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
    ABT_sched s;
    ABT_sched_config cfg;
    CHECK_ABT(
        ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 1, ABT_sched_config_var_end));
    CHECK_ABT(ABT_sched_create(&def, 2, pools, cfg, &s));
    CHECK_ABT(ABT_sched_config_free(&cfg));
    CHECK_ABT(ABT_sched_set_data(s, &d));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_set_main_sched(xs, s));
    expect_pool = assoc ? pools[1] : pools[0];
    run_units(pools[0], assoc ? "primary main, pool" : "primary main, ABT_POOL_NULL");
}

int main(int argc, char **argv)
{
    alarm(120); /* the bug this checks shows as a hang */
    CHECK_ABT(ABT_init(argc, argv));
    case_secondary(0);
    case_secondary(1);
    case_stacked(0);
    case_stacked(1);
    case_primary(0);
    case_primary(1);
    CHECK_ABT(ABT_finalize());
    return 0;
}
