/* send and sendmsg on a socket whose peer is gone: EPIPE and, without MSG_NOSIGNAL, a
 * SIGPIPE to the calling thread, as send(2) does - also on the uring backend, whose ring
 * never signals (op.c raises it after an EPIPE the ring reported).  From ULTs on two
 * streams, from an external thread and before ABT_init. */
#include "io_test.h"

#include <stdatomic.h>

static _Atomic int pipes; /* SIGPIPEs handled */

static void on_pipe(int sig) { atomic_fetch_add(&pipes, 1); }

static void broken(void)
{
    int sv[2];
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    close(sv[1]);
    struct iovec v = { "m", 1 };
    struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };
    for (int i = 0; i < 3; i++) {
        int before = atomic_load(&pipes);
        CHECK_IO_ERR(weft_io_send(sv[0], "x", 1, 0), EPIPE);
        CHECK_EQ_INT(atomic_load(&pipes), before + 1);
        CHECK_IO_ERR(weft_io_send(sv[0], "x", 1, MSG_NOSIGNAL), EPIPE);
        CHECK_IO_ERR(weft_io_sendmsg(sv[0], &m, MSG_NOSIGNAL), EPIPE);
        CHECK_EQ_INT(atomic_load(&pipes), before + 1);
        CHECK_IO_ERR(weft_io_sendmsg(sv[0], &m, 0), EPIPE);
        CHECK_EQ_INT(atomic_load(&pipes), before + 2);
    }
    close(sv[0]);
}

static void ult(void *arg) { broken(); }

static void *ext(void *arg)
{
    broken();
    return NULL;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_pipe;
    CHECK_EQ_INT(sigaction(SIGPIPE, &sa, NULL), 0);
    broken(); /* before ABT_init: the plain calls */
    io_rt_init(2);
    io_test_check_backend();
    /* one caller at a time: the count is the process's */
    for (int i = 0; i < 4; i++) {
        ABT_thread t = io_spawn(ult, NULL);
        io_join(&t);
    }
    pthread_t e;
    CHECK_EQ_INT(pthread_create(&e, NULL, ext, NULL), 0);
    pthread_join(e, NULL);
    io_rt_fini();
    return 0;
}
