/* tests/io/io_test.h - what the I/O tests share: the backend check, a runtime of N
 * BASIC_WAIT streams on one shared pool, running ULTs to completion, loopback sockets. */
#ifndef WEFT_IO_TEST_H
#define WEFT_IO_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <weft_io.h>

#include "test.h"

/* The backend the test was registered for (WEFT_IO_BACKEND) must be the one in use: a
 * uring run on a kernel without io_uring is skipped, not passed on the threads backend. */
static inline void io_test_check_backend(void)
{
    const char *want = getenv("WEFT_IO_BACKEND");
    const char *have = weft_io_backend();
    if (want && strcmp(want, have) != 0)
        TEST_SKIP("backend %s asked for, %s in use (io_uring unavailable here)", want, have);
}

/* errno is per OS thread and a ULT may resume elsewhere after a call: read and clear it
 * through calls the compiler cannot fold (weft_io.h, "errno"). */
static __attribute__((noinline, unused)) int io_errno(void) { return errno; }
static __attribute__((noinline, unused)) void io_errno_clear(void) { errno = 0; }

#define CHECK_IO(call)                                                                           \
    ({                                                                                           \
        long check_r_ = (long)(call);                                                            \
        int check_e_ = io_errno();                                                               \
        if (check_r_ < 0)                                                                        \
            TEST_FAIL("%s = %ld, errno %d (%s)", #call, check_r_, check_e_, strerror(check_e_)); \
        check_r_;                                                                                \
    })

/* call must fail with errno e */
#define CHECK_IO_ERR(call, e)                                                                    \
    do {                                                                                         \
        io_errno_clear();                                                                        \
        long check_r_ = (long)(call);                                                            \
        int check_e_ = io_errno();                                                               \
        if (check_r_ != -1 || check_e_ != (e))                                                   \
            TEST_FAIL("%s = %ld errno %d (%s), expected -1 errno %s", #call, check_r_, check_e_, \
                      strerror(check_e_), #e);                                                   \
    } while (0)

static ABT_pool io_pool;
static ABT_xstream io_xs[16];
static int io_nxs;

/* ABT_init with `n` BASIC_WAIT streams (the primary one included) sharing one pool. */
static inline void io_rt_init(int n)
{
    CHECK_ABT(ABT_init(0, NULL));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &io_pool));
    CHECK_ABT(ABT_xstream_self(&io_xs[0]));
    CHECK_ABT(ABT_xstream_set_main_sched_basic(io_xs[0], ABT_SCHED_BASIC_WAIT, 1, &io_pool));
    for (int i = 1; i < n; i++)
        CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &io_pool, ABT_SCHED_CONFIG_NULL,
                                           &io_xs[i]));
    io_nxs = n;
}

static inline void io_rt_fini(void)
{
    for (int i = 1; i < io_nxs; i++) {
        CHECK_ABT(ABT_xstream_join(io_xs[i]));
        CHECK_ABT(ABT_xstream_free(&io_xs[i]));
    }
    CHECK_ABT(ABT_finalize());
}

static inline ABT_thread io_spawn(void (*fn)(void *), void *arg)
{
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(io_pool, fn, arg, ABT_THREAD_ATTR_NULL, &t));
    return t;
}

static inline void io_join(ABT_thread *t)
{
    CHECK_ABT(ABT_thread_join(*t));
    CHECK_ABT(ABT_thread_free(t));
}

/* A listening TCP socket on 127.0.0.1, any port; *port gets it. */
static inline int io_listen_any(int *port, int backlog)
{
    int fd = CHECK_IO(weft_io_socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    CHECK_IO(weft_io_bind(fd, (struct sockaddr *)&a, sizeof a));
    CHECK_IO(weft_io_listen(fd, backlog));
    socklen_t l = sizeof a;
    CHECK_IO(getsockname(fd, (struct sockaddr *)&a, &l));
    *port = ntohs(a.sin_port);
    return fd;
}

static inline struct sockaddr_in io_loopback(int port)
{
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    return a;
}

static inline double io_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Raise the soft limit of open files to at least `want` (or the hard limit); returns it. */
static inline long io_raise_nofile(long want)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0)
        return 0;
    if ((long)r.rlim_cur < want) {
        r.rlim_cur =
            r.rlim_max == RLIM_INFINITY || (long)r.rlim_max > want ? (rlim_t)want : r.rlim_max;
        setrlimit(RLIMIT_NOFILE, &r);
        getrlimit(RLIMIT_NOFILE, &r);
    }
    return (long)r.rlim_cur;
}

#endif
