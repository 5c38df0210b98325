/* tests/pthread/pth_test.h - the helper of the Pthreads-layer tests.
 *
 * Each test is a plain Pthreads program (exit 0 pass, 1 fail, 77 skip) built twice
 * (tests/pthread/CMakeLists.txt): linked with -lweft-pthread, and plain, run with
 * LD_PRELOAD=libweft-pthread.so.  WEFT_PTHREAD_TEST_EXPECT=ult (set by ctest) makes the
 * test also check that its threads ran as weft ULTs: through abt.h's ABT_self_get_type,
 * looked up at run time so that the plain program does not link weft, and by counting
 * the OS threads (gettid) that ran them.  WEFT_PTHREAD_TEST_SKIP=<reason> skips (the
 * preload runs of sanitizer builds: the sanitizer runtime must come first). */
#ifndef PTH_TEST_H
#define PTH_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <abt.h> /* constants only: the plain programs do not link weft */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TEST_FAIL(...)                                        \
    do {                                                      \
        fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                         \
        fputc('\n', stderr);                                  \
        exit(1);                                              \
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

/* A pthread call returning an errno value. */
#define CHECK_RC(call, expected) CHECK_EQ_INT((call), (expected))

/* Skip if asked; returns whether the threads must be ULTs. */
static inline int pth_test_start(void)
{
    const char *skip = getenv("WEFT_PTHREAD_TEST_SKIP");
    if (skip && *skip) {
        fprintf(stderr, "SKIP: %s\n", skip);
        exit(77);
    }
    const char *e = getenv("WEFT_PTHREAD_TEST_EXPECT");
    return e && strcmp(e, "ult") == 0;
}

/* The caller is a weft ULT (abt.h, found at run time). */
static inline int pth_test_is_ult(void)
{
    int (*get_type)(ABT_unit_type *) =
        (int (*)(ABT_unit_type *))dlsym(RTLD_DEFAULT, "ABT_self_get_type");
    ABT_unit_type t;
    return get_type && get_type(&t) == ABT_SUCCESS && t == ABT_UNIT_TYPE_THREAD;
}

/* WEFT_TEST_SLOW (sanitizers, valgrind): divide the work by this. */
static inline int pth_test_scale(void) { return getenv("WEFT_TEST_SLOW") ? 10 : 1; }

/* How long a test waits for an event that must come (another thread's step) before it
 * calls the event lost and fails: tests/test.h's value (the plain programs cannot include
 * test.h, which calls weft), below ctest's TIMEOUT. */
#define TEST_PATIENCE_S 60.0

static inline double pth_test_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* An absolute CLOCK_REALTIME time `sec` from now. */
static inline struct timespec pth_test_deadline(double sec)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    long long ns = t.tv_nsec + (long long)(sec * 1e9);
    t.tv_sec += ns / 1000000000;
    t.tv_nsec = ns % 1000000000;
    return t;
}

#endif
