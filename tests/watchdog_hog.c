/* watchdog_hog: a ULT that spins without a switch is reported by the watchdog.
 * 1. WEFT_WATCHDOG_MS=100 (read by ABT_init): a ULT spinning on stream 1 for at least
 *    300 ms is reported on stderr exactly once, in one line with "watchdog", its id, its
 *    function's name, the stream's rank and a time of at least 100 ms, then its backtrace
 *    with a frame of that function (but under ThreadSanitizer, see below).
 * 2. weft_watchdog_set(100, cb, arg): the callback gets the unit's handle, id, function,
 *    the stream's rank and a time of at least 0.1 s; weft_thread_get_func gives the same
 *    function.
 * 3. weft_watchdog_set(0, ...) turns it off: a spin of 300 ms is not reported.
 * The spins last until the report came (at most a minute), so a loaded machine only
 * makes them longer. */
#define TEST_NO_LIFECYCLE
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED

#include <stdatomic.h>

#include "watchdog_test.h"

static atomic_int done;

/* exported (ENABLE_EXPORTS): the report names them */
void watchdog_hog_fn(void *arg);
void watchdog_hog2_fn(void *arg);

void watchdog_hog_fn(void *arg)
{
    double t0 = wd_now();
    while ((wd_now() - t0 < 0.3 || !atomic_load(&done)) && wd_now() - t0 < TEST_PATIENCE_S)
        ;
}

void watchdog_hog2_fn(void *arg) { watchdog_hog_fn(arg); }

static _Atomic int got;
static weft_watchdog_info seen;
static void cb(const weft_watchdog_info *info, void *arg)
{
    if (atomic_load(&got))
        return;
    seen = *info;
    void (*fn)(void *) = NULL;
    if (weft_thread_get_func(info->thread, &fn) != ABT_SUCCESS || fn != info->func)
        seen.rank = -100;
    *(int *)arg += 1;
    atomic_store(&got, 1);
}

/* Wait (yielding, never holding stream 0 for long) until cond or the deadline. */
static void wait_for(int (*cond)(void))
{
    double t0 = wd_now();
    while (!cond() && wd_now() - t0 < TEST_PATIENCE_S) {
        usleep(5000);
        ABT_thread_yield();
    }
}

static int stderr_has_report(void)
{
    char *s = wd_captured();
    int r = s && strstr(s, "watchdog_hog_fn") != NULL;
    free(s);
    return r;
}

static int cb_fired(void) { return atomic_load(&got); }

int main(void)
{
    wd_capture_stderr();
    setenv("WEFT_WATCHDOG_MS", "100", 1);
    CHECK_ABT(ABT_init(0, NULL));
    unsetenv("WEFT_WATCHDOG_MS");
    ABT_xstream xs1;
    ABT_pool p1;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs1));
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &p1));

    /* 1. the environment variable, the report on stderr */
    ABT_thread t;
    ABT_unit_id id;
    CHECK_ABT(ABT_thread_create(p1, watchdog_hog_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_get_id(t, &id));
    wait_for(stderr_has_report);
    atomic_store(&done, 1);
    CHECK_ABT(ABT_thread_free(&t));
    char *out = wd_captured();
    CHECK(out != NULL);
    char want[128];
    snprintf(want, sizeof(want), "weft: watchdog: ULT %llu (watchdog_hog_fn",
             (unsigned long long)id);
    const char *line = strstr(out, want);
    if (!line || wd_count(out, "(watchdog_hog_fn") != 1) {
        wd_restore_stderr();
        TEST_FAIL("expected one report starting \"%s\"; stderr:\n%s", want, out);
    }
    unsigned long ms = 0;
    const char *held = strstr(line, "has held stream 1 for ");
    if (!held || sscanf(held, "has held stream 1 for %lu ms", &ms) != 1 || ms < 100) {
        wd_restore_stderr();
        TEST_FAIL("report without stream 1 and a time >= 100 ms:\n%s", out);
    }
#if !defined(__SANITIZE_THREAD__)
    /* its backtrace, taken by its own thread (ThreadSanitizer delivers the watchdog's
     * signal only at the thread's next call into its runtime: there a line says so) */
    if (!strstr(line, "running user code:\n  #") || !strstr(line, " watchdog_hog_fn+")) {
        wd_restore_stderr();
        TEST_FAIL("report without the spinning ULT's backtrace naming watchdog_hog_fn:\n%s", out);
    }
#endif
    free(out);

    /* 2. a callback */
    int calls = 0;
    atomic_store(&done, 0);
    CHECK_ABT(weft_watchdog_set(100, cb, &calls));
    CHECK_ABT(ABT_thread_create(p1, watchdog_hog2_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_get_id(t, &id));
    wait_for(cb_fired);
    atomic_store(&done, 1);
    CHECK(atomic_load(&got));
    CHECK(seen.func == watchdog_hog2_fn);
    CHECK_EQ_INT(seen.rank, 1);
    CHECK(seen.id == id);
    CHECK(seen.is_tasklet == ABT_FALSE);
    CHECK(seen.seconds >= 0.1);
    ABT_bool same;
    CHECK_ABT(ABT_thread_equal(seen.thread, t, &same));
    CHECK(same == ABT_TRUE);
    CHECK_ABT(ABT_thread_free(&t));

    /* 3. off */
    CHECK_ABT(weft_watchdog_set(0, cb, &calls));
    int before = calls;
    atomic_store(&done, 1);
    CHECK_ABT(ABT_thread_create(p1, watchdog_hog_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(calls, before);

    /* the API's errors */
    void (*fn)(void *);
    CHECK_ERR(weft_thread_get_func(ABT_THREAD_NULL, &fn), ABT_ERR_INV_THREAD);
    ABT_thread me;
    CHECK_ABT(ABT_self_get_thread(&me));
    CHECK_ERR(weft_thread_get_func(me, NULL), ABT_ERR_INV_ARG);
    CHECK_ABT(weft_thread_get_func(me, &fn));
    CHECK(fn == NULL); /* the primary ULT runs main() */

    CHECK_ABT(ABT_xstream_free(&xs1));
    CHECK_ABT(ABT_finalize());
    CHECK_ERR(weft_watchdog_set(100, cb, &calls), ABT_ERR_UNINITIALIZED);
    wd_restore_stderr();
    return 0;
}

#endif
