/* thread_migrate_any: ABT_thread_migrate(t) moves t to some other running stream.
 * With the primary stream A and two secondary streams B and C (default schedulers):
 *   1. a ULT running a yield loop on A is migrated by the primary ULT: it ends up on B or
 *      C (not A), in that stream's main pool, and its callback ran once;
 *   2. the ULT then calls ABT_thread_migrate on itself and yields: it leaves that stream
 *      for another one, callback again once;
 *   3. a ULT that is waiting in A's pool and has never run moves before it runs: it
 *      runs on B or C, never on A.
 * A non-migratable ULT and the primary ULT give ABT_ERR_INV_THREAD; ABT_THREAD_NULL gives
 * ABT_ERR_INV_THREAD.  With no other stream running, ABT_ERR_MIGRATION_NA.
 * NOTE: Argobots 1.2 fails this test: its ABT_thread_migrate only accepts a stream whose
 * main scheduler's pools are *all* the unit's current pool (an inverted test, marked
 * "TODO: fix the bug(s)" in src/thread.c).  So with one stream it "migrates" a unit that
 * never ran into the pool it is already in (ABT_SUCCESS), and with three streams it
 * returns ABT_ERR_MIGRATION_NA.
 * Skips if migration is disabled in the library. */
#include "test.h"
#include <stdatomic.h>
#include <sched.h>

static ABT_xstream xs[3];
static ABT_pool pools[3];
static ABT_thread target;
static atomic_int started, cb_calls;
static int rc_self = -1;

static void cb(ABT_thread t, void *arg)
{
    (void)arg;
    CHECK(t == target);
    atomic_fetch_add(&cb_calls, 1);
}

static int index_of(ABT_xstream x)
{
    for (int i = 0; i < 3; i++)
        if (xs[i] == x)
            return i;
    TEST_FAIL("unknown stream");
}

static int wait_move(int from)
{
    ABT_xstream me;
    double t0 = ABT_get_wtime();
    for (;;) {
        CHECK_ABT(ABT_thread_yield());
        sched_yield(); /* spin politely (valgrind/TSan) */
        CHECK_ABT(ABT_self_get_xstream(&me));
        if (index_of(me) != from)
            return index_of(me);
        if (ABT_get_wtime() - t0 > 60.0)
            TEST_FAIL("still on stream %d after 60 s", from);
    }
}

static void looper(void *arg)
{
    (void)arg;
    ABT_xstream me;
    ABT_pool last;
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK_EQ_INT(index_of(me), 0);
    atomic_store(&started, 1);
    int at = wait_move(0);
    CHECK(at == 1 || at == 2);
    CHECK_ABT(ABT_self_get_last_pool(&last));
    CHECK_EQ_PTR(last, pools[at]);
    CHECK_EQ_INT(atomic_load(&cb_calls), 1);

    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    rc_self = ABT_thread_migrate(self);
    if (rc_self != ABT_SUCCESS)
        return;
    int at2 = wait_move(at);
    CHECK_ABT(ABT_self_get_last_pool(&last));
    CHECK_EQ_PTR(last, pools[at2]);
    CHECK_EQ_INT(atomic_load(&cb_calls), 2);
}

static atomic_int ran_on = -1;
static void fresh(void *arg)
{
    (void)arg;
    ABT_xstream me;
    CHECK_ABT(ABT_self_get_xstream(&me));
    atomic_store(&ran_on, index_of(me));
}

static void nop(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_bool enabled = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_MIGRATION, &enabled));
    if (!enabled) {
        ABT_finalize();
        TEST_SKIP("migration disabled");
    }
    CHECK_ABT(ABT_xstream_self(&xs[0]));
    ABT_thread primary;
    CHECK_ABT(ABT_thread_self(&primary));

    /* Only one stream: nowhere to go. */
    ABT_thread lone;
    CHECK_ABT(ABT_xstream_get_main_pools(xs[0], 1, &pools[0]));
    CHECK_ABT(ABT_thread_create(pools[0], nop, NULL, ABT_THREAD_ATTR_NULL, &lone));
    CHECK_ERR(ABT_thread_migrate(lone), ABT_ERR_MIGRATION_NA);
    CHECK_ABT(ABT_thread_free(&lone));

    for (int i = 1; i < 3; i++)
        CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs[i]));
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));

    /* 1 and 2: a running ULT. */
    CHECK_ABT(ABT_thread_create(pools[0], looper, NULL, ABT_THREAD_ATTR_NULL, &target));
    CHECK_ABT(ABT_thread_set_callback(target, cb, NULL));
    while (!atomic_load(&started))
        CHECK_ABT(ABT_thread_yield()); /* the looper runs on this stream */
    CHECK_ABT(ABT_thread_migrate(target));
    CHECK_ABT(ABT_thread_free(&target));
    CHECK_EQ_INT(rc_self, ABT_SUCCESS);
    CHECK_EQ_INT(atomic_load(&cb_calls), 2);

    /* 3: a ULT that has not run yet. */
    CHECK_ABT(ABT_thread_create(pools[0], fresh, NULL, ABT_THREAD_ATTR_NULL, &target));
    CHECK_ABT(ABT_thread_migrate(target));
    CHECK_ABT(ABT_thread_free(&target));
    CHECK(atomic_load(&ran_on) == 1 || atomic_load(&ran_on) == 2);

    /* Refusals. */
    ABT_thread_attr attr;
    ABT_thread nm;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_migratable(attr, ABT_FALSE));
    CHECK_ABT(ABT_thread_create(pools[0], nop, NULL, attr, &nm));
    CHECK_ERR(ABT_thread_migrate(nm), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_thread_free(&nm));
    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_ERR(ABT_thread_migrate(primary), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_migrate(ABT_THREAD_NULL), ABT_ERR_INV_THREAD);

    for (int i = 1; i < 3; i++) {
        CHECK_ABT(ABT_xstream_join(xs[i]));
        CHECK_ABT(ABT_xstream_free(&xs[i]));
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
