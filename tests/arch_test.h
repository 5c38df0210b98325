/* tests/arch_test.h - what the tests of the arch layer alone share (internal_arch_*.c).
 * They build without abt.h and without the library (tests/cross/aarch64.sh compiles them
 * with one backend file), so they do not use tests/test.h: a failed CHECK prints its file,
 * line and expression and counts in `failures`, and the test goes on to report every
 * case.  With <valgrind/valgrind.h> (HAVE_VALGRIND_H) a test can register the stacks it
 * switches to; -DARCH_TEST_NO_VALGRIND leaves it out.  UNDER_TSAN: a ThreadSanitizer
 * build, which sees no switch or release made in assembly. */
#ifndef WEFT_TESTS_ARCH_TEST_H
#define WEFT_TESTS_ARCH_TEST_H

#include <stdio.h>

#if !defined(ARCH_TEST_NO_VALGRIND) && defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define HAVE_VALGRIND_H 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif

static int failures __attribute__((unused)); /* (a test skipped whole never counts) */

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                      \
        }                                                                    \
    } while (0)

#endif
