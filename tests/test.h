/* tests/test.h - the one helper every weft test includes.
 *
 * Each test is one program: exit 0 = pass, 1 = fail, 77 = skip (ctest SKIP_RETURN_CODE).
 * The CHECK macros print the file, line, the expression and both values, then exit(1),
 * so a failing CI log says what went wrong without a debugger.
 * Tests are written against the public Argobots API only (abt.h); the same source must
 * build and pass against a real Argobots 1.2 install. */
#ifndef WEFT_TEST_H
#define WEFT_TEST_H

#include <abt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_FAIL(...)                                        \
    do {                                                      \
        fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                         \
        fputc('\n', stderr);                                  \
        exit(1);                                              \
    } while (0)

#define TEST_SKIP(...)                \
    do {                              \
        fprintf(stderr, "SKIP: ");    \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr);          \
        exit(77);                     \
    } while (0)

/* Any ABT_* call that must succeed. */
#define CHECK_ABT(call)                                                               \
    do {                                                                              \
        int check_ret_ = (call);                                                      \
        if (check_ret_ != ABT_SUCCESS)                                                \
            TEST_FAIL("%s returned %d (%s), expected ABT_SUCCESS", #call, check_ret_, \
                      test_errname(check_ret_));                                      \
    } while (0)

/* An ABT_* call that must fail with a given code. */
#define CHECK_ERR(call, expected)                                                 \
    do {                                                                          \
        int check_ret_ = (call);                                                  \
        if (check_ret_ != (expected))                                             \
            TEST_FAIL("%s returned %d (%s), expected %s (%d)", #call, check_ret_, \
                      test_errname(check_ret_), #expected, (int)(expected));      \
    } while (0)

#define CHECK(cond)                 \
    do {                            \
        if (!(cond))                \
            TEST_FAIL("%s", #cond); \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                   \
    do {                                                                     \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);      \
        if (check_a_ != check_b_)                                            \
            TEST_FAIL("%s == %s: %lld != %lld", #a, #b, check_a_, check_b_); \
    } while (0)

#define CHECK_EQ_PTR(a, b)                                                       \
    do {                                                                         \
        const void *check_a_ = (const void *)(a), *check_b_ = (const void *)(b); \
        if (check_a_ != check_b_)                                                \
            TEST_FAIL("%s == %s: %p != %p", #a, #b, check_a_, check_b_);         \
    } while (0)

/* How long a test waits for an event that must come (a wake-up, a signal, a step of
 * another thread or stream) before it calls the event lost and fails.  Only a lost event
 * waits that long: a loaded machine delays one by seconds at most.  Below ctest's
 * per-test TIMEOUT (tests/CMakeLists.txt), so the test says what it waited for. */
#define TEST_PATIENCE_S 60.0

/* Sanitizer and valgrind runs set WEFT_TEST_SLOW=1 (tests/CMakeLists.txt): creating a
 * ULT costs a ThreadSanitizer fiber there (~0.5 ms), so stress tests scale their counts
 * down by this factor.  The behaviour checked stays the same. */
static inline int test_scale_div(void) { return getenv("WEFT_TEST_SLOW") ? 20 : 1; }

static inline const char *test_errname(int err)
{
    static char buf[64];
    size_t len = 0;
    if (ABT_error_get_str(err, NULL, &len) != ABT_SUCCESS || len >= sizeof(buf))
        return "?";
    ABT_error_get_str(err, buf, NULL);
    return buf;
}

/* The life-cycle checker (tests/lifecycle.h) wraps ABT_init/ABT_finalize; a test that
 * registers its own tool callback opts out with #define TEST_NO_LIFECYCLE. */
#ifndef TEST_NO_LIFECYCLE
#include "lifecycle.h"
#endif

#endif
