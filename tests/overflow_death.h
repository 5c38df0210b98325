/* tests/overflow_death.h - the driver of the overflow_death_* tests: for each overrun size
 * (64 bytes, 1 KiB, 8 KiB, 1 MiB) a child process, with ABT_STACK_OVERFLOW_CHECK set to
 * the test's mode (or unset: the default), runs one ULT on a 16 KiB stack of its own (the
 * primary ULT yields to it rather than free it fresh, which would run it on the primary
 * ULT's stack: overflow_death_lent) that writes the
 * N bytes right below the low end of its stack (ABT_thread_get_stack), from the top
 * down as a growing stack would, then returns.  In the modes mprotect and mprotect_strict
 * that low end is the top of the guard page, the lowest whole page of the reported range
 * (as Argobots lays a stack out), and the ULT first fills its stack down to a page
 * less 512 bytes above it with one frame, as a deep call chain would.  The child must die of
 * SIGABRT after one message that names the ULT (its id and its function, overrun_ult), its stack
 * size (16384 bytes), how far it overran (at least 1 and at most N bytes) and the two fixes
 * (ABT_THREAD_STACKSIZE, ABT_thread_attr_set_stacksize).  The test executables are
 * linked with exported symbols (tests/CMakeLists.txt) so that dladdr can name the
 * function.  Under valgrind the canary is off and the fault handling is valgrind's, so
 * those runs skip; AddressSanitizer and ThreadSanitizer runs check (our handler takes
 * SIGSEGV from theirs and chains to it for other faults). */
#ifndef WEFT_OVERFLOW_DEATH_H
#define WEFT_OVERFLOW_DEATH_H

#include "overflow_test.h"

#include <stdlib.h>
#include <string.h>

static size_t overrun_bytes; /* set in the child before ABT_init */
static int overrun_inside;   /* mprotect(_strict): the guard is the stack's lowest page */

__attribute__((noinline)) static void overrun_below(volatile char *floor)
{
    for (size_t i = 1; i <= overrun_bytes; i++)
        floor[-(ptrdiff_t)i] = (char)i;
}

/* Exported (not static): the report names it. */
void overrun_ult(void *arg);
__attribute__((noinline)) void overrun_ult(void *arg)
{
    ABT_thread self;
    void *lo;
    size_t size;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_get_stack(self, &lo, &size));
    *(volatile size_t *)arg = size;
    if (!overrun_inside) {
        overrun_below((volatile char *)lo);
        return;
    }
    /* the usable stack starts above the guard page, the lowest whole page of [lo, ..);
     * a frame that fills it down to a page less 512 bytes above that start (as deep
     * frames would; AddressSanitizer's calls for the frame take 3 KiB below it)
     * writes below it */
    uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE),
              floor = ((uintptr_t)lo + pg - 1) / pg * pg + pg;
    /* the frame's own address, not a local's (AddressSanitizer may keep locals on a fake
     * stack of its own) */
    size_t fill = (size_t)((uintptr_t)__builtin_frame_address(0) - floor) - (pg - 512);
    volatile char pad[fill];
    pad[0] = 0;
    overrun_below((volatile char *)floor);
    (void)pad[fill - 1];
}

static void overrun_child(void)
{
    static size_t sink;
    ABT_thread t = overflow_child_ult(overrun_ult, &sink);
    /* the scheduler runs it, on a stack of its own: freed here before it ran, it would
     * run on ours (overflow_death_lent) */
    CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_thread_free(&t));
    fprintf(stderr, "the ULT returned, its stack of %zu bytes\n", sink);
    ABT_finalize();
}

#if defined(__SANITIZE_THREAD__)
#define OD_TSAN 1
#elif defined(__SANITIZE_ADDRESS__)
#define OD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define OD_TSAN 1
#elif __has_feature(address_sanitizer)
#define OD_ASAN 1
#endif
#endif
#ifndef OD_TSAN
#define OD_TSAN 0
#endif
#ifndef OD_ASAN
#define OD_ASAN 0
#endif

/* mode NULL: ABT_STACK_OVERFLOW_CHECK unset */
static inline int overflow_death_main(const char *mode)
{
    if (!TEST_WEFT)
        TEST_SKIP("the report and these modes are weft's");
    if (getenv("WEFT_TEST_SLOW") && !OD_ASAN && !OD_TSAN) /* slow, no sanitizer: valgrind */
        TEST_SKIP("under valgrind the canary is off and valgrind takes the guard-page fault");
    static const size_t sizes[] = { 64, 1024, 8192, (size_t)1 << 20 };
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        static struct child_result r;
        memset(&r, 0, sizeof(r));
        overrun_bytes = sizes[k];
        int fd[2];
        CHECK(pipe(fd) == 0);
        fflush(NULL);
        pid_t parent = getpid();
        pid_t pid = fork();
        CHECK(pid >= 0);
        if (pid == 0) {
            child_dies_with_parent(parent);
            close(fd[0]);
            dup2(fd[1], 2);
            overrun_inside = mode && !strncmp(mode, "mprotect", 8);
            if (mode)
                setenv("ABT_STACK_OVERFLOW_CHECK", mode, 1);
            else
                unsetenv("ABT_STACK_OVERFLOW_CHECK");
            overrun_child();
            _exit(0); /* not reached if the overrun was caught */
        }
        close(fd[1]);
        size_t n = 0;
        ssize_t got;
        while (n < sizeof(r.err) - 1 && (got = read(fd[0], r.err + n, sizeof(r.err) - 1 - n)) > 0)
            n += (size_t)got;
        r.err[n] = '\0';
        close(fd[0]);
        CHECK(waitpid(pid, &r.status, 0) == pid);

        const char *m = mode ? mode : "(default)";
        if (getenv("OVERFLOW_DEATH_VERBOSE")) /* to see the reports */
            fprintf(stderr, "--- mode %s, overrun of %zu bytes:\n%s", m, sizes[k], r.err);
        if (!WIFSIGNALED(r.status) || WTERMSIG(r.status) != SIGABRT)
            TEST_FAIL("mode %s, overrun of %zu bytes: the child did not abort (status %#x); "
                      "stderr:\n%s",
                      m, sizes[k], r.status, r.err);
        unsigned long long id;
        const char *e = strstr(r.err, "expect ULT ");
        CHECK(e != NULL && sscanf(e, "expect ULT %llu", &id) == 1);
        char want[96];
        snprintf(want, sizeof(want),
                 "stack overflow in ULT %llu (created with function "
                 "overrun_ult, ABT_thread 0x",
                 id);
        const char *by = strstr(r.err, " by at least ");
        unsigned long long over = 0;
        if (!strstr(r.err, want) || !strstr(r.err, "its stack of 16384 bytes") || !by ||
            sscanf(by, " by at least %llu bytes", &over) != 1 || over == 0 || over > sizes[k] ||
            !strstr(r.err, "ABT_THREAD_STACKSIZE") ||
            !strstr(r.err, "ABT_thread_attr_set_stacksize"))
            TEST_FAIL("mode %s, overrun of %zu bytes: unexpected report:\n%s", m, sizes[k], r.err);
    }
    return 0;
}

#endif
