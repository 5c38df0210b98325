/* mem_trim_reuse: stacks and descriptors that trimming gave back are as good as new.
 *
 * With ABT_MEM_TRIM_MS=1 (a trim step every millisecond), two streams run three bursts
 * of 4,000 live ULTs with idle pauses of 50 ms between them, so each burst after the
 * first reuses stacks and descriptors that were dropped (dormant arena stacks revived,
 * dormant descriptor slabs carved again) and ULTs of one burst end while the depots trim.
 * Each ULT fills 12 KiB of its 16 KiB stack with a pattern of its own, blocks until the
 * whole burst has started, then checks the pattern: a revived stack must be usable over
 * its whole size and not shared.  Every ULT runs exactly once, and its handle answers
 * ABT_thread_get_stacksize with the default size.  Run under each stack setting whose
 * stacks are laid out differently: the default, ABT_STACK_OVERFLOW_CHECK=mprotect
 * (guard pages kept across trims) and =canary, and ABT_MEM_LP_ALLOC=thp (huge-page
 * arenas).  Outside WEFT_TEST_SLOW, the trimming is also seen to happen: after each pause
 * (waiting up to TEST_PATIENCE_S: a loaded machine runs the trim steps late, never not),
 * RSS falls by at least half of what the burst's stacks took (4 KiB each);
 * under sanitizers and valgrind that check is skipped (exit 77 after the others). */
#include "test.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <weft.h>

#define N      4000
#define BURSTS 3
/* Bytes each ULT fills: 12 KiB of its 16 KiB stack; 8 KiB under
 * ABT_STACK_OVERFLOW_CHECK=mprotect, whose guard page is the lowest page of those 16 KiB
 * (the Argobots layout), so that the frames below the buffer stay above the guard. */
static int depth = 12 * 1024;

static atomic_int started, ran[N];
static ABT_eventual ev;

static void ult(void *arg)
{
    int id = (int)(intptr_t)arg;
    volatile unsigned char buf[depth];
    for (int i = 0; i < depth; i++)
        buf[i] = (unsigned char)(id * 31 + i);
    atomic_fetch_add(&started, 1);
    CHECK_ABT(ABT_eventual_wait(ev, NULL));
    for (int i = 0; i < depth; i++)
        if (buf[i] != (unsigned char)(id * 31 + i))
            TEST_FAIL("ULT %d: its stack changed at byte %d", id, i);
    atomic_fetch_add(&ran[id], 1);
}

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, res = -1;
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

static bool slow;

static void run(const char *name, const char *value)
{
    if (name)
        setenv(name, value, 1);
    setenv("ABT_MEM_TRIM_MS", "1", 1);
    int n = N / test_scale_div();
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs[2];
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_self(&xs[0]));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs[1]));
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));
    static ABT_thread t[N];
    for (int b = 0; b < BURSTS; b++) {
        memset(ran, 0, sizeof(ran));
        atomic_store(&started, 0);
        CHECK_ABT(ABT_eventual_create(0, &ev));
        for (int i = 0; i < n; i++)
            CHECK_ABT(ABT_thread_create(pools[i % 2], ult, (void *)(intptr_t)i,
                                        ABT_THREAD_ATTR_NULL, &t[i]));
        while (atomic_load(&started) < n)
            ABT_thread_yield();
        long peak = rss_kib();
        for (int i = 0; i < n; i += 97) {
            size_t sz = 0;
            CHECK_ABT(ABT_thread_get_stacksize(t[i], &sz));
            CHECK(sz == 16384);
        }
        CHECK_ABT(ABT_eventual_set(ev, NULL, 0));
        for (int i = 0; i < n; i++)
            CHECK_ABT(ABT_thread_free(&t[i]));
        CHECK_ABT(ABT_eventual_free(&ev));
        for (int i = 0; i < n; i++)
            if (atomic_load(&ran[i]) != 1)
                TEST_FAIL("%s=%s, burst %d: ULT %d ran %d times", name ? name : "-",
                          value ? value : "-", b, i, atomic_load(&ran[i]));
        /* idle: both schedulers run their event checks, the depots trim */
        CHECK_ABT(weft_thread_sleep(0.05));
        double t0 = now_s();
        long rss = rss_kib();
        while (!slow && rss > peak - n * 2L && now_s() - t0 < TEST_PATIENCE_S) {
            CHECK_ABT(weft_thread_sleep(0.01));
            rss = rss_kib();
        }
        if (!slow && rss > peak - n * 2L)
            TEST_FAIL("%s=%s, burst %d: RSS %ld KiB at peak, still %ld KiB %.0f s after",
                      name ? name : "-", value ? value : "-", b, peak, rss, TEST_PATIENCE_S);
    }
    CHECK_ABT(ABT_xstream_free(&xs[1]));
    CHECK_ABT(ABT_finalize());
    if (name)
        unsetenv(name);
    unsetenv("ABT_MEM_TRIM_MS");
}

int main(void)
{
    slow = getenv("WEFT_TEST_SLOW") != NULL;
    run(NULL, NULL);
    depth = 8 * 1024;
    run("ABT_STACK_OVERFLOW_CHECK", "mprotect");
    depth = 12 * 1024;
    run("ABT_STACK_OVERFLOW_CHECK", "canary");
    run("ABT_MEM_LP_ALLOC", "thp");
    if (slow)
        TEST_SKIP("WEFT_TEST_SLOW: reuse checked, RSS fall not checked");
    return 0;
}
