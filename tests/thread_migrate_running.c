/* thread_migrate_running: a ULT that runs a yield loop on stream A (the primary stream)
 * is migrated, while it runs, to stream B by somebody else:
 *   round 0: a ULT of stream B calls ABT_thread_migrate_to_xstream(t, B);
 *   round 1: the primary ULT calls ABT_thread_migrate_to_pool(t, pool of B);
 *   round 2: a ULT of stream A calls ABT_thread_migrate_to_sched(t, main sched of B);
 *   round 3: the primary ULT calls ABT_thread_migrate_to_xstream(t, B).
 * The ULT sees ABT_self_get_xstream change from A to B (and ABT_self_get_last_pool
 * become B's pool), the callback registered with ABT_thread_set_callback runs exactly once
 * per migration with the ULT's handle and its argument.
 * Refusals: a non-migratable ULT (attribute, and ABT_thread_set_migratable(ABT_FALSE)) and
 * the primary ULT give ABT_ERR_INV_THREAD for all three calls, run no callback and stay on
 * A; migrating a ULT to the pool it is already associated with (or to the stream / the
 * scheduler that owns that pool) gives ABT_ERR_MIGRATION_TARGET; NULL handles give
 * ABT_ERR_INV_THREAD / _INV_XSTREAM / _INV_POOL / _INV_SCHED.
 * Skips if migration is disabled in the library. */
#include "test.h"
#include <stdatomic.h>
#include <sched.h>

static ABT_xstream xsA, xsB;
static ABT_pool poolA, poolB;
static ABT_sched schedB;
static ABT_thread target, primary;
static atomic_int started, release_loop, cb_calls, cb_bad;
static int round_kind;

static void cb(ABT_thread t, void *arg)
{
    if (t != target || arg != (void *)&cb_calls)
        atomic_fetch_add(&cb_bad, 1);
    atomic_fetch_add(&cb_calls, 1);
}

/* Yields on A until it finds itself on B (or, for a refused migration, until told). */
static void looper(void *arg)
{
    int expect_move = (int)(intptr_t)arg;
    ABT_xstream me;
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK_EQ_PTR(me, xsA);
    atomic_store(&started, 1);
    double t0 = ABT_get_wtime();
    for (;;) {
        CHECK_ABT(ABT_thread_yield());
        sched_yield(); /* spin politely (valgrind/TSan) */
        CHECK_ABT(ABT_self_get_xstream(&me));
        if (me != xsA)
            break;
        if (!expect_move && atomic_load(&release_loop))
            break;
        if (ABT_get_wtime() - t0 > 60.0)
            TEST_FAIL("round %d: still on stream A after 60 s", round_kind);
    }
    if (expect_move) {
        CHECK_EQ_PTR(me, xsB);
        ABT_pool last;
        CHECK_ABT(ABT_self_get_last_pool(&last));
        CHECK_EQ_PTR(last, poolB);
        /* keep running there */
        for (int i = 0; i < 5; i++) {
            CHECK_ABT(ABT_thread_yield());
            CHECK_ABT(ABT_self_get_xstream(&me));
            CHECK_EQ_PTR(me, xsB);
        }
    } else {
        CHECK_EQ_PTR(me, xsA);
    }
}

static void wait_started(int yield)
{
    double t0 = ABT_get_wtime();
    while (!atomic_load(&started)) {
        if (ABT_get_wtime() - t0 > 60.0)
            TEST_FAIL("looper never started");
        if (yield)
            CHECK_ABT(ABT_thread_yield());
        sched_yield(); /* spin politely (valgrind/TSan) */
    }
}

static int request(int kind)
{
    switch (kind) {
    case 0: return ABT_thread_migrate_to_xstream(target, xsB);
    case 1: return ABT_thread_migrate_to_pool(target, poolB);
    case 2: return ABT_thread_migrate_to_sched(target, schedB);
    default: return ABT_thread_migrate_to_xstream(target, xsB);
    }
}

static void migrator(void *arg)
{
    (void)arg;
    wait_started(1);
    CHECK_ABT(request(round_kind));
}

static void run_round(int kind, int by_primary)
{
    round_kind = kind;
    atomic_store(&started, 0);
    atomic_store(&cb_calls, 0);
    CHECK_ABT(ABT_thread_create(poolA, looper, (void *)(intptr_t)1, ABT_THREAD_ATTR_NULL, &target));
    CHECK_ABT(ABT_thread_set_callback(target, cb, &cb_calls));
    if (by_primary) {
        wait_started(1);
        CHECK_ABT(request(kind));
    } else {
        /* round 0: the migrator runs on B; round 2: on A, beside the looper */
        ABT_thread m;
        CHECK_ABT(
            ABT_thread_create(kind == 0 ? poolB : poolA, migrator, NULL, ABT_THREAD_ATTR_NULL, &m));
        CHECK_ABT(ABT_thread_free(&m));
    }
    CHECK_ABT(ABT_thread_free(&target));
    CHECK_EQ_INT(atomic_load(&cb_calls), 1);
    CHECK_EQ_INT(atomic_load(&cb_bad), 0);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_bool enabled = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_MIGRATION, &enabled));
    if (!enabled) {
        ABT_finalize();
        TEST_SKIP("migration disabled");
    }
    CHECK_ABT(ABT_xstream_self(&xsA));
    CHECK_ABT(ABT_xstream_get_main_pools(xsA, 1, &poolA));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xsB));
    CHECK_ABT(ABT_xstream_get_main_pools(xsB, 1, &poolB));
    CHECK_ABT(ABT_xstream_get_main_sched(xsB, &schedB));
    CHECK_ABT(ABT_thread_self(&primary));

    run_round(0, 0);
    run_round(1, 1);
    run_round(2, 0);
    run_round(3, 1);

    /* Non-migratable ULTs refuse, whoever asks; no callback; they stay on A. */
    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_migratable(attr, ABT_FALSE));
    for (int how = 0; how < 2; how++) {
        atomic_store(&started, 0);
        atomic_store(&release_loop, 0);
        atomic_store(&cb_calls, 0);
        CHECK_ABT(ABT_thread_create(poolA, looper, (void *)(intptr_t)0,
                                    how == 0 ? attr : ABT_THREAD_ATTR_NULL, &target));
        if (how == 1)
            CHECK_ABT(ABT_thread_set_migratable(target, ABT_FALSE));
        CHECK_ABT(ABT_thread_set_callback(target, cb, &cb_calls));
        wait_started(1);
        for (int k = 0; k < 3; k++)
            CHECK_ERR(request(k), ABT_ERR_INV_THREAD);
        for (int i = 0; i < 10; i++)
            CHECK_ABT(ABT_thread_yield());
        atomic_store(&release_loop, 1);
        CHECK_ABT(ABT_thread_free(&target));
        CHECK_EQ_INT(atomic_load(&cb_calls), 0);
    }
    CHECK_ABT(ABT_thread_attr_free(&attr));

    /* The primary ULT is not migratable. */
    CHECK_ERR(ABT_thread_migrate_to_xstream(primary, xsB), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_migrate_to_pool(primary, poolB), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_migrate_to_sched(primary, schedB), ABT_ERR_INV_THREAD);

    /* Target = where it already is. */
    atomic_store(&started, 0);
    atomic_store(&release_loop, 0);
    atomic_store(&cb_calls, 0);
    CHECK_ABT(ABT_thread_create(poolA, looper, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL, &target));
    CHECK_ABT(ABT_thread_set_callback(target, cb, &cb_calls));
    ABT_sched schedA;
    CHECK_ABT(ABT_xstream_get_main_sched(xsA, &schedA));
    wait_started(1);
    CHECK_ERR(ABT_thread_migrate_to_pool(target, poolA), ABT_ERR_MIGRATION_TARGET);
    CHECK_ERR(ABT_thread_migrate_to_xstream(target, xsA), ABT_ERR_MIGRATION_TARGET);
    CHECK_ERR(ABT_thread_migrate_to_sched(target, schedA), ABT_ERR_MIGRATION_TARGET);
    /* NULL handles */
    CHECK_ERR(ABT_thread_migrate_to_pool(ABT_THREAD_NULL, poolB), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_migrate_to_xstream(ABT_THREAD_NULL, xsB), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_migrate_to_sched(ABT_THREAD_NULL, schedB), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_migrate_to_pool(target, ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_thread_migrate_to_xstream(target, ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_thread_migrate_to_sched(target, ABT_SCHED_NULL), ABT_ERR_INV_SCHED);
    for (int i = 0; i < 10; i++)
        CHECK_ABT(ABT_thread_yield());
    atomic_store(&release_loop, 1);
    CHECK_ABT(ABT_thread_free(&target));
    CHECK_EQ_INT(atomic_load(&cb_calls), 0);

    CHECK_ABT(ABT_xstream_join(xsB));
    CHECK_ABT(ABT_xstream_free(&xsB));
    CHECK_ABT(ABT_finalize());
    return 0;
}
