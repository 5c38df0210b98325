/* watchdog_syscall: a ULT blocked in a system call holds its stream as much as one that
 * spins: with weft_watchdog_set(100, NULL, NULL) a ULT blocked in read() on stream 1 is
 * reported on stderr with its function's name, "blocked in system call" and its stack's
 * return addresses, among them its own function.  The read ends when the report came
 * (or after a minute).  Under valgrind only the first line is checked. */
#define TEST_NO_LIFECYCLE
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED

#include "watchdog_test.h"
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

static int fds[2];

void watchdog_reader_fn(void *arg);
void watchdog_reader_fn(void *arg)
{
    char c;
    if (read(fds[0], &c, 1) != 1)
        abort();
}

static int reported(void)
{
    char *s = wd_captured();
    int r = s && strstr(s, "(watchdog_reader_fn") != NULL;
    free(s);
    return r;
}

int main(void)
{
    CHECK(pipe(fds) == 0);
    wd_capture_stderr();
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs1;
    ABT_pool p1;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs1));
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &p1));
    CHECK_ABT(weft_watchdog_set(100, NULL, NULL));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(p1, watchdog_reader_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    double t0 = wd_now();
    while (!reported() && wd_now() - t0 < TEST_PATIENCE_S) {
        usleep(5000);
        ABT_thread_yield();
    }
    CHECK(write(fds[1], "x", 1) == 1);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_xstream_free(&xs1));
    CHECK_ABT(ABT_finalize());
    char *out = wd_captured();
    wd_restore_stderr();
    CHECK(out != NULL);
    const char *l = strstr(out, "(watchdog_reader_fn");
    /* under valgrind, /proc shows the stack pointers of valgrind's own stacks: the report
     * cannot tell the call, only the offence */
    if (!l || !strstr(l, "has held stream 1") ||
        (!RUNNING_ON_VALGRIND &&
         (!strstr(l, "blocked in system call") ||
          !strstr(strstr(l, "blocked in system call"), "watchdog_reader_fn+"))))
        TEST_FAIL("no report of the blocked reader with its frames:\n%s", out);
    fputs(out, stderr);
    free(out);
    return 0;
}

#endif
