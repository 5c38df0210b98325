/* Every socket call of weft_io.h, and read/write/poll on pipes, from ULTs on two streams
 * and from an external thread: TCP over loopback, short reads, EOF after shutdown, and the
 * error paths (EBADF, ENOTSOCK, EAGAIN with MSG_DONTWAIT and O_NONBLOCK, ECONNREFUSED,
 * ECONNRESET from a peer's reset, EPIPE, POLLNVAL).  No fixed count of tries and no upper
 * bound of time: a loaded machine only delays the peer's answers. */
#include "io_test.h"

#include <sys/un.h>

static void sockets(void)
{
    int port;
    int l = io_listen_any(&port, 16);
    struct sockaddr_in a = io_loopback(port);
    int c = (int)CHECK_IO(weft_io_socket(AF_INET, SOCK_STREAM, 0));
    CHECK_IO(weft_io_connect(c, (struct sockaddr *)&a, sizeof a));
    struct sockaddr_in peer;
    socklen_t plen = sizeof peer;
    int s = (int)CHECK_IO(weft_io_accept4(l, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC));
    CHECK_EQ_INT(plen, sizeof peer);
    CHECK_EQ_INT(peer.sin_addr.s_addr, htonl(INADDR_LOOPBACK));
    CHECK(fcntl(s, F_GETFD) & FD_CLOEXEC);

    char buf[128];
    CHECK_EQ_INT(CHECK_IO(weft_io_send(c, "ping", 4, 0)), 4);
    CHECK_EQ_INT(CHECK_IO(weft_io_recv(s, buf, sizeof buf, 0)), 4); /* short: what arrived */
    CHECK(!memcmp(buf, "ping", 4));
    CHECK_EQ_INT(CHECK_IO(weft_io_write(s, "pong", 4)), 4);
    CHECK_EQ_INT(CHECK_IO(weft_io_read(c, buf, sizeof buf)), 4);
    CHECK(!memcmp(buf, "pong", 4));

    char h[2] = "ab", t[3] = "cde", rh[2], rt[8];
    struct iovec wv[2] = { { h, 2 }, { t, 3 } }, rv[2] = { { rh, 2 }, { rt, 3 } };
    struct msghdr wm = { .msg_iov = wv, .msg_iovlen = 2 }, rm = { .msg_iov = rv, .msg_iovlen = 2 };
    CHECK_EQ_INT(CHECK_IO(weft_io_sendmsg(c, &wm, MSG_NOSIGNAL)), 5);
    CHECK_EQ_INT(CHECK_IO(weft_io_recvmsg(s, &rm, MSG_WAITALL)), 5);
    CHECK(!memcmp(rh, "ab", 2) && !memcmp(rt, "cde", 3));
    CHECK_EQ_INT(CHECK_IO(weft_io_writev(c, wv, 2)), 5);
    CHECK_EQ_INT(CHECK_IO(weft_io_recv(s, buf, 5, MSG_WAITALL)), 5);

    /* poll: nothing yet, then readable */
    CHECK_EQ_INT(CHECK_IO(weft_io_poll(s, POLLIN, 20)), 0);
    CHECK_EQ_INT(CHECK_IO(weft_io_poll(s, POLLIN, 0)), 0);
    CHECK(CHECK_IO(weft_io_poll(c, POLLOUT, -1)) & POLLOUT);
    CHECK_IO(weft_io_send(c, "x", 1, 0));
    CHECK(CHECK_IO(weft_io_poll(s, POLLIN, (int)(TEST_PATIENCE_S * 1000))) & POLLIN);
    CHECK_EQ_INT(CHECK_IO(weft_io_recv(s, buf, 1, 0)), 1);

    /* EAGAIN: MSG_DONTWAIT, and an O_NONBLOCK socket / listener */
    CHECK_IO_ERR(weft_io_recv(s, buf, 1, MSG_DONTWAIT), EAGAIN);
    CHECK_EQ_INT(fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK), 0);
    CHECK_IO_ERR(weft_io_recv(s, buf, 1, 0), EAGAIN);
    CHECK_IO_ERR(weft_io_read(s, buf, 1), EAGAIN);
    CHECK_EQ_INT(fcntl(s, F_SETFL, fcntl(s, F_GETFL) & ~O_NONBLOCK), 0);
    CHECK_EQ_INT(fcntl(l, F_SETFL, fcntl(l, F_GETFL) | O_NONBLOCK), 0);
    CHECK_IO_ERR(weft_io_accept(l, NULL, NULL), EAGAIN);

    /* shutdown: the peer reads EOF */
    CHECK_IO(weft_io_shutdown(c, SHUT_WR));
    CHECK_EQ_INT(CHECK_IO(weft_io_recv(s, buf, sizeof buf, 0)), 0);
    CHECK_IO(weft_io_close(c));
    /* EPIPE once the peer is gone (MSG_NOSIGNAL: no SIGPIPE).  The first send succeeds
     * (into the buffer) and the peer's kernel answers it with a reset; sends fail once that
     * reset has been processed, which on a loaded machine (loopback processing deferred to
     * ksoftirqd) may take longer than any fixed number of sends: send until the error,
     * pausing 1 ms between tries, within a generous deadline. */
    int err = 0, sends = 0;
    double t_end = io_now() + TEST_PATIENCE_S;
    while (!err && io_now() < t_end) {
        io_errno_clear();
        if (weft_io_send(s, "y", 1, MSG_NOSIGNAL) < 0)
            err = io_errno();
        else if (++sends > 1)
            weft_io_poll(-1, 0, 1);
    }
    if (sends > 1)
        fprintf(stderr, "note: %d sends to a closed peer succeeded before the error\n", sends);
    if (err != EPIPE && err != ECONNRESET)
        TEST_FAIL("send to a closed peer: errno %d (%s) after %d sends", err, strerror(err), sends);
    CHECK_IO(weft_io_close(s));

    /* peer reset: linger 0 then close sends RST */
    CHECK_EQ_INT(fcntl(l, F_SETFL, fcntl(l, F_GETFL) & ~O_NONBLOCK), 0);
    c = (int)CHECK_IO(weft_io_socket(AF_INET, SOCK_STREAM, 0));
    CHECK_IO(weft_io_connect(c, (struct sockaddr *)&a, sizeof a));
    s = (int)CHECK_IO(weft_io_accept(l, NULL, NULL));
    struct linger lg = { 1, 0 };
    CHECK_EQ_INT(setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg), 0);
    CHECK_IO(weft_io_close(c));
    CHECK_IO_ERR(weft_io_recv(s, buf, 1, 0), ECONNRESET);
    CHECK_IO(weft_io_close(s));

    /* refused: nobody listens any more */
    CHECK_IO(weft_io_close(l));
    c = (int)CHECK_IO(weft_io_socket(AF_INET, SOCK_STREAM, 0));
    CHECK_IO_ERR(weft_io_connect(c, (struct sockaddr *)&a, sizeof a), ECONNREFUSED);
    CHECK_IO(weft_io_close(c));

    /* bad descriptors */
    static _Atomic int nbad;
    int bad = 900100 + nbad++; /* one per caller (ThreadSanitizer tracks fd numbers) */
    CHECK_IO_ERR(weft_io_recv(bad, buf, 1, 0), EBADF);
    CHECK_IO_ERR(weft_io_send(bad, buf, 1, 0), EBADF);
    CHECK_IO_ERR(weft_io_recvmsg(bad, &rm, 0), EBADF);
    CHECK_IO_ERR(weft_io_sendmsg(bad, &wm, 0), EBADF);
    CHECK_IO_ERR(weft_io_accept(bad, NULL, NULL), EBADF);
    CHECK_IO_ERR(weft_io_connect(bad, (struct sockaddr *)&a, sizeof a), EBADF);
    CHECK_IO_ERR(weft_io_shutdown(bad, SHUT_RDWR), EBADF);
    CHECK_IO_ERR(weft_io_bind(bad, (struct sockaddr *)&a, sizeof a), EBADF);
    CHECK_IO_ERR(weft_io_listen(bad, 1), EBADF);
    CHECK_IO_ERR(weft_io_socket(AF_INET, 12345, 0), EINVAL);
    CHECK_EQ_INT(weft_io_poll(bad, POLLIN, 100), POLLNVAL);

    /* pipes: short reads, ENOTSOCK */
    int p[2];
    CHECK_EQ_INT(pipe(p), 0);
    CHECK_EQ_INT(CHECK_IO(weft_io_write(p[1], "abc", 3)), 3);
    CHECK_EQ_INT(CHECK_IO(weft_io_read(p[0], buf, sizeof buf)), 3);
    CHECK_IO_ERR(weft_io_recv(p[0], buf, 1, 0), ENOTSOCK);
    CHECK_IO_ERR(weft_io_shutdown(p[0], SHUT_RD), ENOTSOCK);
    CHECK_IO(weft_io_close(p[1]));
    CHECK_EQ_INT(CHECK_IO(weft_io_read(p[0], buf, sizeof buf)), 0); /* EOF */
    CHECK_IO(weft_io_close(p[0]));

    /* a UNIX stream socket */
    int sv[2];
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    CHECK_EQ_INT(CHECK_IO(weft_io_send(sv[0], "unix", 4, 0)), 4);
    CHECK_EQ_INT(CHECK_IO(weft_io_recv(sv[1], buf, 4, MSG_WAITALL)), 4);
    close(sv[0]);
    close(sv[1]);
}

static void ult(void *arg) { sockets(); }

static void *ext(void *arg)
{
    sockets();
    return NULL;
}

int main(void)
{
    sockets(); /* before ABT_init */
    io_rt_init(2);
    io_test_check_backend();
    ABT_thread t[6];
    for (int i = 0; i < 6; i++)
        t[i] = io_spawn(ult, NULL);
    pthread_t e;
    CHECK_EQ_INT(pthread_create(&e, NULL, ext, NULL), 0);
    for (int i = 0; i < 6; i++)
        io_join(&t[i]);
    pthread_join(e, NULL);
    io_rt_fini();
    return 0;
}
