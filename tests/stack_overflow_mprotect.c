/* stack_overflow_mprotect: with ABT_STACK_OVERFLOW_CHECK=mprotect, a ULT that recurses
 * without end hits the guard page at the bottom of its stack; the process dies (abort) after one
 * message on stderr that names the ULT, its stack size and the address, and says how to
 * give it a larger stack (ABT_THREAD_STACKSIZE, ABT_thread_attr_set_stacksize).  The
 * overflow runs in a child process.  With Argobots (no message) only the death counts. */
#include "overflow_test.h"

static volatile int forever = 1; /* no end, but the compiler cannot prove it */

static int recurse(int n)
{
    volatile char pad[512];
    pad[0] = (char)n;
    pad[511] = (char)(n >> 8);
    if (!forever)
        return n;
    return recurse(n + 1) + pad[0] + pad[511];
}

static void ult(void *arg) { *(int *)arg = recurse(0); }

static void body(void)
{
    static int result;
    ABT_thread t = overflow_child_ult(ult, &result);
    /* the scheduler runs it, on its own stack (freed fresh, it would run on ours; a ULT
     * that recurses without end there is tests/overflow_death_lent.c's) */
    CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_thread_free(&t));
}

int main(void)
{
    static struct child_result r;
    run_child("mprotect", body, &r);
    if (!child_failed(&r))
        TEST_FAIL("the child survived its overflow; stderr:\n%s", r.err);
    if (TEST_WEFT) {
        unsigned long long id;
        const char *e = strstr(r.err, "expect ULT ");
        CHECK(e != NULL && sscanf(e, "expect ULT %llu", &id) == 1);
        char want[64];
        snprintf(want, sizeof(want), "stack overflow in ULT %llu (", id);
        if (!strstr(r.err, want) || !strstr(r.err, "its stack of 16384 bytes") ||
            !strstr(r.err, "ABT_THREAD_STACKSIZE") ||
            !strstr(r.err, "ABT_thread_attr_set_stacksize"))
            TEST_FAIL("unexpected report:\n%s", r.err);
        CHECK(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGABRT);
    }
    return 0;
}
