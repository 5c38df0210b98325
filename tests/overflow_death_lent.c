/* overflow_death_lent: a default (RoC-L) ULT that the primary ULT frees before it ran
 * runs on the primary ULT's stack (src/core/unit/lend.c, "a fresh unit on its joiner's stack");
 * when it recurses without end it runs past the low end of its stack size and on to the
 * low end of that stack, and the process stops (SIGABRT) with one message that names the
 * ULT (its id and function), its stack of 16384 bytes, says that it ran on the stack its
 * joiner lent it, and gives the fixes.  Where nothing is lent (a tool listening for RUN
 * and FINISH: the life-cycle checker; ThreadSanitizer builds; and always with
 * ABT_STACK_OVERFLOW_CHECK=mprotect, the second child) the ULT runs on its own 16 KiB
 * stack, and the usual report is checked instead.  weft only; child processes
 * (tests/overflow_test.h), skipped under sanitizers and valgrind. */
#include "overflow_test.h"

#include <stdlib.h>
#include <string.h>

#if TEST_WEFT
/* Exported (not static): the report names it. */
void deep_ult(void *arg);
static volatile unsigned never = ~0u; /* the recursion's end, never reached */
__attribute__((noinline)) static unsigned deep(volatile char *prev, unsigned n)
{
    volatile char frame[2048];
    if (n == never)
        return 0;
    frame[0] = (char)n;
    frame[sizeof(frame) - 1] = prev ? prev[0] : 0;
    return deep(frame, n + 1) + frame[1]; /* not a tail call */
}
__attribute__((noinline)) void deep_ult(void *arg) { *(volatile unsigned *)arg = deep(NULL, 0); }

static void child(void)
{
    static unsigned sink;
    ABT_thread t = overflow_child_ult(deep_ult, &sink);
    CHECK_ABT(ABT_thread_free(&t)); /* runs it, on our stack when it may */
    fprintf(stderr, "the ULT returned\n");
    ABT_finalize();
}
#endif

int main(void)
{
#if !TEST_WEFT
    TEST_SKIP("the report is weft's");
#else
    const char *lc = getenv("WEFT_TEST_LIFECYCLE");
    int lent = !(lc && strcmp(lc, "1") == 0);
#if defined(__SANITIZE_THREAD__)
    lent = 0;
#endif
    for (int k = 0; k < 2; k++) {
        /* the default (ABT_STACK_OVERFLOW_CHECK set but empty), then mprotect by name */
        const char *mode = k ? "mprotect" : "";
        int lent_here = lent && k == 0;
        static struct child_result r;
        memset(&r, 0, sizeof(r));
        run_child(mode, child, &r);
        if (getenv("OVERFLOW_DEATH_VERBOSE"))
            fprintf(stderr, "--- mode '%s', child's stderr:\n%s", mode, r.err);
        if (!WIFSIGNALED(r.status) || WTERMSIG(r.status) != SIGABRT)
            TEST_FAIL("mode '%s': the child did not abort (status %#x); stderr:\n%s", mode,
                      r.status, r.err);
        unsigned long long id;
        const char *e = strstr(r.err, "expect ULT ");
        CHECK(e != NULL && sscanf(e, "expect ULT %llu", &id) == 1);
        char want[96];
        snprintf(want, sizeof(want),
                 "stack overflow in ULT %llu (created with function deep_ult, ABT_thread 0x", id);
        if (!strstr(r.err, want) || !strstr(r.err, " by at least ") ||
            !strstr(r.err, "its stack of 16384 bytes") || !strstr(r.err, "ABT_THREAD_STACKSIZE") ||
            !strstr(r.err, "ABT_thread_attr_set_stacksize"))
            TEST_FAIL("mode '%s': unexpected report:\n%s", mode, r.err);
        if (lent_here && !strstr(r.err, "the stack its joiner lent it"))
            TEST_FAIL("mode '%s': the report does not say the stack was lent:\n%s", mode, r.err);
        if (!lent_here && strstr(r.err, "lent"))
            TEST_FAIL("mode '%s': the ULT ran on a lent stack:\n%s", mode, r.err);
    }
    return 0;
#endif
}
