/* watchdog_healthy: units that yield every 5 ms are never reported (weft_watchdog_set
 * 100 ms), on 2 streams with 3 ULTs each, for about a second.  A report is a false alarm
 * unless the unit itself saw a stretch of 90 ms or more without a switch (between two of
 * its yields, or inside one: a loaded machine may stop its thread), which it measures. */
#define TEST_NO_LIFECYCLE
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED

#include <stdatomic.h>

#include "watchdog_test.h"

#define N 6

struct worker {
    ABT_thread t;
    ABT_unit_id id;
    double max_gap; /* the longest stretch it saw without a switch */
};
static struct worker w[N];
static _Atomic int nreports;
static ABT_unit_id reported_ids[64];

static void worker_fn(void *arg)
{
    struct worker *me = arg;
    double end = wd_now() + 1.0 / test_scale_div() + 0.2;
    double last = wd_now();
    while (wd_now() < end) {
        while (wd_now() - last < 0.005)
            ;
        double before = wd_now();
        if (before - last > me->max_gap)
            me->max_gap = before - last;
        ABT_thread_yield();
        last = wd_now();
        /* alone on its stream a yield returns at once: its own time counts too */
        if (last - before > me->max_gap)
            me->max_gap = last - before;
    }
}

static void cb(const weft_watchdog_info *info, void *arg)
{
    int i = atomic_fetch_add(&nreports, 1);
    if (i < 64)
        reported_ids[i] = info->id;
}

int main(void)
{
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs1;
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs1));
    ABT_xstream self;
    CHECK_ABT(ABT_self_get_xstream(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pools[0]));
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &pools[1]));
    CHECK_ABT(weft_watchdog_set(100, cb, NULL));
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_thread_create(pools[i % 2], worker_fn, &w[i], ABT_THREAD_ATTR_NULL, &w[i].t));
        CHECK_ABT(ABT_thread_get_id(w[i].t, &w[i].id));
    }
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_free(&w[i].t));
    CHECK_ABT(weft_watchdog_set(0, NULL, NULL));
    int n = atomic_load(&nreports);
    for (int r = 0; r < n && r < 64; r++) {
        int k = -1;
        for (int i = 0; i < N; i++)
            if (w[i].id == reported_ids[r])
                k = i;
        if (k < 0)
            continue; /* the primary ULT, parked in its join: a report would be wrong */
        if (w[k].max_gap < 0.09)
            TEST_FAIL("false alarm: ULT %llu reported, its longest stretch without a "
                      "switch was %.1f ms",
                      (unsigned long long)w[k].id, w[k].max_gap * 1e3);
        fprintf(stderr, "ULT %llu reported after a stretch of %.1f ms (a stopped thread)\n",
                (unsigned long long)w[k].id, w[k].max_gap * 1e3);
    }
    for (int r = 0; r < n && r < 64; r++) {
        ABT_unit_id main_id;
        CHECK_ABT(ABT_thread_self_id(&main_id));
        if (reported_ids[r] == main_id)
            TEST_FAIL("the primary ULT, parked in a join, was reported");
    }
    CHECK_ABT(ABT_xstream_free(&xs1));
    CHECK_ABT(ABT_finalize());
    return 0;
}

#endif
