/* stack_overflow_canary: with ABT_STACK_OVERFLOW_CHECK=canary, a ULT that writes past the
 * low end of its stack (an alloca larger than the stack) is caught when it terminates:
 * the process aborts after one message on stderr naming the ULT and its stack size and
 * saying how to give it a larger stack.  Runs in a child process.  Argobots sets its
 * canary at build time, not through this variable: weft only. */
#include "overflow_test.h"

#include <alloca.h>

static void overrun(void *arg)
{
    size_t n = 16384 + 256; /* more than the whole stack */
    volatile char *buf = alloca(n);
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)i;
    *(volatile char *)arg = buf[n / 2];
}

static void body(void)
{
    static char sink;
    ABT_thread t = overflow_child_ult(overrun, &sink);
    /* the scheduler runs it, on its own stack (freed fresh, it would run on ours) */
    CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_thread_free(&t));
}

int main(void)
{
    if (!TEST_WEFT)
        TEST_SKIP("the canary is a build-time option of Argobots");
    static struct child_result r;
    run_child("canary", body, &r);
    if (!child_failed(&r))
        TEST_FAIL("the child survived its overflow; stderr:\n%s", r.err);
    unsigned long long id;
    const char *e = strstr(r.err, "expect ULT ");
    CHECK(e != NULL && sscanf(e, "expect ULT %llu", &id) == 1);
    char want[64];
    snprintf(want, sizeof(want), "stack overflow in ULT %llu (", id);
    if (!strstr(r.err, want) || !strstr(r.err, "its stack of 16384 bytes") ||
        !strstr(r.err, "canary") || !strstr(r.err, "ABT_THREAD_STACKSIZE") ||
        !strstr(r.err, "ABT_thread_attr_set_stacksize"))
        TEST_FAIL("unexpected report:\n%s", r.err);
    CHECK(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGABRT);
    return 0;
}
