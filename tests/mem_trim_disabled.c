/* mem_trim_disabled: ABT_MEM_TRIM_MS=0 turns trimming off - memory taken for a burst
 * stays with the runtime (ready for the next burst) until ABT_finalize.
 *
 * 20,000 ULTs blocked on an eventual on two streams are released; after 300 ms of idle
 * RSS must still hold at least half of what the burst added (with the default setting
 * it is given back within ~0.3 s: tests/mem_burst_trim.c).  ABT_info_print_config says
 * "never".  Under WEFT_TEST_SLOW the burst is scaled down and the RSS check skipped. */
#define TEST_NO_LIFECYCLE /* its per-unit records would be measured */
#include "test.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <weft.h>

#define N 20000

static atomic_int started;
static ABT_eventual ev;

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

static void ult(void *arg)
{
    atomic_fetch_add(&started, 1);
    CHECK_ABT(ABT_eventual_wait(ev, NULL));
}

int main(void)
{
    int slow = getenv("WEFT_TEST_SLOW") != NULL;
    int n = N / test_scale_div();
    setenv("ABT_MEM_TRIM_MS", "0", 1);
    CHECK_ABT(ABT_init(0, NULL));

    char *cfg = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&cfg, &len);
    CHECK(mf != NULL);
    CHECK_ABT(ABT_info_print_config(mf));
    fclose(mf);
    if (!strstr(cfg, "trimmed after bursts: never"))
        TEST_FAIL("ABT_info_print_config does not say trimming is off:\n%s", cfg);
    free(cfg);

    ABT_xstream xs2;
    ABT_pool pools[2];
    ABT_xstream self;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pools[0]));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pools[1]));
    CHECK_ABT(ABT_eventual_create(0, &ev));
    long before = rss_kib();
    static ABT_thread t[N];
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_create(pools[i % 2], ult, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    while (atomic_load(&started) < n)
        ABT_thread_yield();
    long peak = rss_kib();
    CHECK_ABT(ABT_eventual_set(ev, NULL, 0));
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));
    CHECK_ABT(weft_thread_sleep(0.3));
    long after = rss_kib();
    printf("%d ULTs, ABT_MEM_TRIM_MS=0: RSS before %ld KiB, peak %ld KiB, 0.3 s idle %ld KiB\n", n,
           before, peak, after);
    CHECK_ABT(ABT_eventual_free(&ev));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    if (slow)
        TEST_SKIP("WEFT_TEST_SLOW: RSS not checked");
    CHECK(peak - before > n * 2L);
    if (after - before < (peak - before) / 2)
        TEST_FAIL("trimming off, yet RSS fell from %ld to %ld KiB (before: %ld)", peak, after,
                  before);
    return 0;
}
