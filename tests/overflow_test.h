/* tests/overflow_test.h - death tests of ABT_STACK_OVERFLOW_CHECK: run a body in a child
 * process with the check set in its environment, and collect how the child ended and
 * what it wrote to stderr.  Sanitizer and valgrind builds (WEFT_TEST_SLOW=1) skip: they
 * install their own fault handling and stack accounting. */
#ifndef WEFT_OVERFLOW_TEST_H
#define WEFT_OVERFLOW_TEST_H

#include "child_test.h"
#include "test.h"

#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<weft.h>)
#define TEST_WEFT 1
#endif
#endif
#ifndef TEST_WEFT
#define TEST_WEFT 0
#endif

struct child_result {
    int status;     /* from waitpid */
    char err[8192]; /* what it wrote to stderr */
};

/* Run body() in a child with ABT_STACK_OVERFLOW_CHECK=mode; body must not return. */
static inline void run_child(const char *mode, void (*body)(void), struct child_result *r)
{
    if (getenv("WEFT_TEST_SLOW"))
        TEST_SKIP("death test under a sanitizer or valgrind");
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
        setenv("ABT_STACK_OVERFLOW_CHECK", mode, 1);
        body();
        _exit(0); /* not reached if the overflow was caught */
    }
    close(fd[1]);
    size_t n = 0;
    ssize_t k;
    while (n < sizeof(r->err) - 1 && (k = read(fd[0], r->err + n, sizeof(r->err) - 1 - n)) > 0)
        n += (size_t)k;
    r->err[n] = '\0';
    close(fd[0]);
    CHECK(waitpid(pid, &r->status, 0) == pid);
}

/* In a child: ABT_init with 16 KiB ULT stacks, then one ULT created into the primary
 * stream's pool (not run yet), its id written to stderr as "expect ULT <id>" for the
 * parent to find in the report. */
static inline ABT_thread overflow_child_ult(void (*fn)(void *), void *arg)
{
    setenv("ABT_THREAD_STACKSIZE", "16384", 1);
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, fn, arg, ABT_THREAD_ATTR_NULL, &t));
    ABT_unit_id id;
    CHECK_ABT(ABT_thread_get_id(t, &id));
    fprintf(stderr, "expect ULT %llu\n", (unsigned long long)id);
    fflush(stderr);
    return t;
}

/* The child died (signal) or exited with a failure code. */
static inline int child_failed(const struct child_result *r)
{
    return WIFSIGNALED(r->status) || (WIFEXITED(r->status) && WEXITSTATUS(r->status) != 0);
}

#endif
