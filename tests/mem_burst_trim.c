/* mem_burst_trim: memory taken for a burst of ULTs is given back once the burst is over.
 *
 * Two streams (the primary and one more, default schedulers) run a warm-up round of
 * fork-join, then RSS is read from /proc/self/statm ("before").  Then 100,000 ULTs are
 * live at once: half block on an eventual, half yield until a flag is set; once every
 * one has started (so each has its stack), RSS is read again ("peak", which must have
 * grown: the ULTs really held memory).  They are released and all finish; from then on
 * the program is idle (the primary ULT sleeps in 10 ms steps with weft_thread_sleep, so
 * both schedulers find nothing to run), and RSS must come back to within 2x "before"
 * (on a quiet machine within ~0.3 s, printed; the test waits up to TEST_PATIENCE_S, so
 * that only memory that never goes back fails it, not a loaded machine's slow trim
 * steps).  A second, smaller fork-join round afterwards must still work (stacks that
 * were given back are usable again).  Done twice: with the default scheduler, and with
 * ABT_SCHED_BASIC_WAIT on both streams, whose idle streams sleep in the kernel (memory is
 * given back although every stream sleeps: they wake for the trim steps; the primary ULT
 * then sleeps 0.9 s in one weft_thread_sleep before RSS is read).
 *
 * Under WEFT_TEST_SLOW (sanitizers, valgrind) the burst is scaled down by
 * test_scale_div() and the RSS/timing check is skipped (its numbers are printed); the
 * burst, release and reuse still run.  The life-cycle checker is off here: its per-unit
 * records (100,000 mallocs) would be measured as the program's memory. */
#define TEST_NO_LIFECYCLE
#include "test.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <weft.h>

#define N_BURST 100000
#define N_ROUND 256

static atomic_int started, finished, release;
static ABT_eventual ev;

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, res = 0;
    if (!f)
        return -1;
    if (fscanf(f, "%ld %ld", &size, &res) != 2)
        res = -1;
    fclose(f);
    return res < 0 ? -1 : res * (sysconf(_SC_PAGESIZE) / 1024);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void blocker(void *arg)
{
    atomic_fetch_add(&started, 1);
    if ((intptr_t)arg % 2 == 0) {
        CHECK_ABT(ABT_eventual_wait(ev, NULL));
    } else {
        while (!atomic_load(&release))
            ABT_thread_yield();
    }
    atomic_fetch_add(&finished, 1);
}

static void noop(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

/* create+join n ULTs spread over the pools */
static void round_of(ABT_pool *pools, int n)
{
    static ABT_thread t[N_ROUND];
    atomic_int ran = 0;
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_create(pools[i % 2], noop, &ran, ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));
    CHECK_EQ_INT(atomic_load(&ran), n);
}

/* let the schedulers run until `counter` reaches n */
static void wait_for(atomic_int *counter, int n)
{
    double t0 = now_s();
    while (atomic_load(counter) < n) {
        ABT_thread_yield();
        if (now_s() - t0 > 120)
            TEST_FAIL("stuck: %d of %d", atomic_load(counter), n);
    }
}

static void burst(ABT_sched_predef predef, const char *name, double step)
{
    bool slow = getenv("WEFT_TEST_SLOW") != NULL;
    int n = N_BURST / test_scale_div();
    atomic_store(&started, 0);
    atomic_store(&finished, 0);
    atomic_store(&release, 0);
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs[2];
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_self(&xs[0]));
    CHECK_ABT(ABT_xstream_set_main_sched_basic(xs[0], predef, 0, NULL));
    CHECK_ABT(ABT_xstream_create_basic(predef, 0, NULL, ABT_SCHED_CONFIG_NULL, &xs[1]));
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));
    CHECK_ABT(ABT_eventual_create(0, &ev));

    for (int r = 0; r < 4; r++)
        round_of(pools, N_ROUND);
    long before = rss_kib();
    CHECK(before > 0);

    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_create(pools[i % 2], blocker, (void *)(intptr_t)i,
                                    ABT_THREAD_ATTR_NULL, NULL));
    wait_for(&started, n);
    long peak = rss_kib();

    atomic_store(&release, 1);
    CHECK_ABT(ABT_eventual_set(ev, NULL, 0));
    wait_for(&finished, n);
    double idle_at = now_s();
    long after = rss_kib();
    double took = -1;
    while (now_s() - idle_at < (slow ? 2.0 : TEST_PATIENCE_S)) {
        after = rss_kib();
        if (after <= 2 * before) {
            took = now_s() - idle_at;
            break;
        }
        CHECK_ABT(weft_thread_sleep(step));
    }
    printf("%s, %d ULTs: RSS before %ld KiB, peak %ld KiB, after %ld KiB (%s %.3f s after idle)\n",
           name, n, before, peak, after, took >= 0 ? "reached 2x before" : "not within 2x at",
           took >= 0 ? took : now_s() - idle_at);
    fflush(stdout);

    /* given-back stacks and descriptors are usable again */
    for (int r = 0; r < 4; r++)
        round_of(pools, N_ROUND);
    CHECK_ABT(ABT_eventual_free(&ev));
    CHECK_ABT(ABT_xstream_free(&xs[1]));
    CHECK_ABT(ABT_finalize());

    if (slow)
        return;
    /* the burst really held memory: at least 1 KiB per ULT */
    if (peak - before < n / 1)
        TEST_FAIL("%s: peak RSS %ld KiB is not above before %ld KiB by %d KiB", name, peak, before,
                  n);
    if (took < 0)
        TEST_FAIL("%s: RSS %ld KiB not within 2x of %ld KiB within %.0f s of idle", name, after,
                  before, TEST_PATIENCE_S);
}

int main(void)
{
    burst(ABT_SCHED_DEFAULT, "default scheduler", 0.01);
    burst(ABT_SCHED_BASIC_WAIT, "BASIC_WAIT (idle streams sleep)", 0.9);
    if (getenv("WEFT_TEST_SLOW"))
        TEST_SKIP("WEFT_TEST_SLOW: RSS and timing not checked");
    return 0;
}
