/* weft_pool_prio_sched: a BASIC_WAIT stream over a priority pool runs a high-priority ULT
 * first, lets the high-priority ULT it creates run before anything lower, sends yielding
 * ULTs to the tail of their own level (round-robin among equals, after every higher
 * level), and sleeps when idle until a push wakes it.  A ULT joining a ULT of its own pool
 * that never ran takes it out of the priority pool and runs it at once (before a ULT of a
 * higher level that was queued earlier). */
#include "test.h"

#include <stdatomic.h>
#include <weft.h>

static ABT_pool pool;
static char log_[64][8];
static atomic_int nlog, ndone; /* slots taken / slots written (readers wait on ndone) */

static void record(const char *s)
{
    int i = atomic_fetch_add(&nlog, 1);
    CHECK(i < 64);
    snprintf(log_[i], sizeof(log_[i]), "%s", s);
    atomic_fetch_add_explicit(&ndone, 1, memory_order_release);
}

static void high2(void *arg) { record("H2"); }

static void high(void *arg)
{
    record("Ha");
    ABT_thread t;
    CHECK_ABT(weft_thread_create_prio(pool, high2, NULL, ABT_THREAD_ATTR_NULL, 0, &t));
    CHECK_ABT(ABT_thread_yield());
    record("Hb");
    CHECK_ABT(ABT_thread_free(&t));
}

static void dflt(void *arg) { record("D"); }

static void low(void *arg)
{
    char s[8];
    snprintf(s, sizeof(s), "L%da", (int)(intptr_t)arg);
    record(s);
    CHECK_ABT(ABT_thread_yield());
    snprintf(s, sizeof(s), "L%db", (int)(intptr_t)arg);
    record(s);
}

static void joined(void *arg) { record("Y"); }
static void other(void *arg) { record("Z"); }

static void joiner(void *arg)
{
    ABT_thread y;
    CHECK_ABT(weft_thread_create_prio(pool, other, NULL, ABT_THREAD_ATTR_NULL, 1, NULL));
    CHECK_ABT(weft_thread_create_prio(pool, joined, NULL, ABT_THREAD_ATTR_NULL, 2, &y));
    /* y is taken out of the pool and run here, before the higher-level z */
    CHECK_ABT(ABT_thread_free(&y));
    record("X");
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(weft_pool_create_prio(ABT_POOL_ACCESS_MPMC, 3, ABT_FALSE, &pool));
    ABT_thread t[5];
    for (int i = 0; i < 3; i++)
        CHECK_ABT(weft_thread_create_prio(pool, low, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, 2,
                                          &t[i]));
    CHECK_ABT(ABT_thread_create(pool, dflt, NULL, ABT_THREAD_ATTR_NULL, &t[3])); /* level 1 */
    CHECK_ABT(weft_thread_create_prio(pool, high, NULL, ABT_THREAD_ATTR_NULL, 0, &t[4]));

    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &pool, ABT_SCHED_CONFIG_NULL, &xs));
    for (int i = 0; i < 5; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));
    const char *want[] = { "Ha", "H2", "Hb", "D", "L0a", "L1a", "L2a", "L0b", "L1b", "L2b" };
    int n = (int)(sizeof(want) / sizeof(*want));
    CHECK_EQ_INT(atomic_load(&nlog), n);
    for (int i = 0; i < n; i++)
        if (strcmp(log_[i], want[i]))
            TEST_FAIL("step %d: %s, expected %s", i, log_[i], want[i]);

    /* the stream sleeps now; a push wakes it (the pool wakes its sleepers, so the stream
     * sleeps without a bound: a lost wake-up would never end, and the test calls it lost
     * after TEST_PATIENCE_S) */
    ABT_thread j;
    double t0 = ABT_get_wtime();
    CHECK_ABT(weft_thread_create_prio(pool, joiner, NULL, ABT_THREAD_ATTR_NULL, 1, &j));
    CHECK_ABT(ABT_thread_free(&j));
    double dt = ABT_get_wtime() - t0;
    while (atomic_load_explicit(&ndone, memory_order_acquire) < n + 3)
        CHECK_ABT(ABT_thread_yield());
    CHECK(!strcmp(log_[n], "Y") && !strcmp(log_[n + 1], "X") && !strcmp(log_[n + 2], "Z"));
    if (dt > TEST_PATIENCE_S)
        TEST_FAIL("the push did not wake the stream (%.3f s)", dt);
    size_t size = 1;
    CHECK_ABT(ABT_pool_get_size(pool, &size));
    CHECK_EQ_INT(size, 0);

    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
