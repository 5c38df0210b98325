/* A call on a bad descriptor fails with EBADF even when it is the call that makes the
 * backend: the descriptor the backend makes (a stream's io_uring ring, the I/O threads'
 * epoll set and eventfd) takes the lowest free number, which is the caller's bad one when
 * it was just closed.  Without care the call would run on weft's own descriptor: a pread
 * parked on the ring's fd for ever, a close that closes the ring.  Checked on a fresh
 * process (first call of all) and on fresh streams (first call of each), for pread,
 * fstat, fsync, close and poll; each stream still works afterwards. */
#include "io_test.h"

static int pp[2];

static int freed_fd(void)
{
    int fd = dup(0);
    CHECK(fd >= 0);
    close(fd);
    return fd;
}

static void first_calls(void *arg)
{
    char b[8];
    struct stat st;
    CHECK_IO_ERR(weft_io_pread(freed_fd(), b, sizeof b, 0), EBADF);
    CHECK_IO_ERR(weft_io_fstat(freed_fd(), &st), EBADF);
    CHECK_IO_ERR(weft_io_fsync(freed_fd()), EBADF);
    CHECK_IO_ERR(weft_io_close(freed_fd()), EBADF);
    CHECK_EQ_INT(weft_io_poll(freed_fd(), POLLIN, 50), POLLNVAL);
    /* the stream's backend still works */
    CHECK_EQ_INT(CHECK_IO(weft_io_write(pp[1], "x", 1)), 1);
    CHECK_EQ_INT(CHECK_IO(weft_io_read(pp[0], b, 1)), 1);
}

int main(void)
{
    CHECK_EQ_INT(pipe2(pp, O_CLOEXEC), 0);
    io_rt_init(1);
    ABT_thread t = io_spawn(first_calls, NULL);
    io_join(&t);
    for (int i = 0; i < 3; i++) { /* fresh streams: a ring each on the uring backend */
        ABT_pool p;
        ABT_xstream x;
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &p));
        CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &p, ABT_SCHED_CONFIG_NULL, &x));
        CHECK_ABT(ABT_thread_create(p, first_calls, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_ABT(ABT_thread_join(t));
        CHECK_ABT(ABT_thread_free(&t));
        CHECK_ABT(ABT_xstream_join(x));
        CHECK_ABT(ABT_xstream_free(&x));
    }
    io_test_check_backend();
    io_rt_fini();
    return 0;
}
