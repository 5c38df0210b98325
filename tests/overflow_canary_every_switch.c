/* overflow_canary_every_switch: with ABT_STACK_OVERFLOW_CHECK=canary, a ULT that overran
 * its stack by a few bytes (the canary only: no fault) is caught at the very switch that
 * takes it off its stack, on every path: yield (the scheduler bypass of the BASIC
 * scheduler), yield_to, suspend_to, exit_to, self_schedule, a join that runs its fresh
 * target itself, and a park (an eventual wait, with the park bypass).  The other ULT, B,
 * which that switch would run, writes "B ran" to stderr: the child must abort with the
 * report before B runs.  One child process per path. */
#include "overflow_test.h"

#include <stdlib.h>
#include <string.h>

enum { P_YIELD, P_YIELD_TO, P_SUSPEND_TO, P_EXIT_TO, P_SCHEDULE, P_JOIN, P_PARK, P_COUNT };
static const char *const path_name[P_COUNT] = { "yield",   "yield_to",      "suspend_to",
                                                "exit_to", "self_schedule", "join",
                                                "park" };
static int path;
static ABT_pool pool;
static ABT_thread b;
static ABT_eventual ev;

static void b_fn(void *arg)
{
    static const char msg[] = "B ran\n";
    CHECK(write(2, msg, sizeof(msg) - 1) > 0);
}

static void a_fn(void *arg)
{
    ABT_thread self;
    void *lo;
    size_t size;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_get_stack(self, &lo, &size));
    volatile char *below = (volatile char *)lo;
    for (int i = 1; i <= 16; i++) /* within the canary, short of any guard page */
        below[-i] = (char)i;
    switch (path) {
    case P_YIELD:
        CHECK_ABT(ABT_thread_create(pool, b_fn, NULL, ABT_THREAD_ATTR_NULL, NULL));
        ABT_thread_yield();
        break;
    case P_YIELD_TO: ABT_thread_yield_to(b); break;
    case P_SUSPEND_TO: ABT_self_suspend_to(b); break;
    case P_EXIT_TO: ABT_self_exit_to(b); break;
    case P_SCHEDULE: ABT_self_schedule(b, ABT_POOL_NULL); break;
    case P_JOIN: ABT_thread_join(b); break;
    case P_PARK:
        CHECK_ABT(ABT_thread_create(pool, b_fn, NULL, ABT_THREAD_ATTR_NULL, NULL));
        ABT_eventual_wait(ev, NULL);
        break;
    }
    static const char msg[] = "A went on\n";
    CHECK(write(2, msg, sizeof(msg) - 1) > 0);
}

static void body(void)
{
    setenv("ABT_THREAD_STACKSIZE", "16384", 1);
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_eventual_create(0, &ev));
    ABT_thread a;
    /* B is made in a pool nobody runs, so that only A's switch can start it */
    ABT_pool side;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &side));
    CHECK_ABT(ABT_thread_create(pool, a_fn, NULL, ABT_THREAD_ATTR_NULL, &a));
    /* for P_JOIN, B is behind A in the main pool: A's join takes it from there and runs it */
    if (path != P_YIELD && path != P_PARK)
        CHECK_ABT(
            ABT_thread_create(path == P_JOIN ? pool : side, b_fn, NULL, ABT_THREAD_ATTR_NULL, &b));
    /* A runs from the scheduler, on its own stack: joined here before it ran, it would run
     * on ours (src/core/unit/lend.c, "a fresh unit on its joiner's stack") */
    CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_thread_join(a));
    _exit(0);
}

int main(void)
{
    if (!TEST_WEFT)
        TEST_SKIP("the report is weft's");
    for (path = 0; path < P_COUNT; path++) {
        static struct child_result r;
        memset(&r, 0, sizeof(r));
        run_child("canary", body, &r);
        if (!WIFSIGNALED(r.status) || WTERMSIG(r.status) != SIGABRT ||
            !strstr(r.err, "stack overflow in ULT") || !strstr(r.err, "canary") ||
            strstr(r.err, "B ran") || strstr(r.err, "A went on"))
            TEST_FAIL("%s: not caught at the switch (status %#x); stderr:\n%s", path_name[path],
                      r.status, r.err);
    }
    return 0;
}
