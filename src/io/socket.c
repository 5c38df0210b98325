/* src/io/socket.c - the socket calls of weft_io.h and poll: socket, bind and listen (which
 * never wait, plain syscalls), accept, connect, send and receive (one buffer or a
 * message), shutdown, and weft_io_poll on any fd.  Each that may wait fills an op from its
 * arguments, runs it (op.c) and returns as POSIX does (-1 and errno). */
#include "io/op.h"

#include <sys/socket.h>

#include "arch/cpu.h"
#include "weft_io.h"

WEFT_API int weft_io_socket(int domain, int type, int protocol)
{
    return socket(domain, type, protocol);
}
WEFT_API int weft_io_bind(int fd, const struct sockaddr *a, socklen_t l) { return bind(fd, a, l); }
WEFT_API int weft_io_listen(int fd, int backlog) { return listen(fd, backlog); }

WEFT_API int weft_io_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
    WEFT_IO_OP(IO_ACCEPT);
    op.fd = fd;
    op.addr = addr;
    op.addrlenp = len;
    op.flags = flags;
    return (int)weft_io_fin(weft_io_run(&op));
}

WEFT_API int weft_io_accept(int fd, struct sockaddr *addr, socklen_t *len)
{
    return weft_io_accept4(fd, addr, len, 0);
}

WEFT_API int weft_io_connect(int fd, const struct sockaddr *addr, socklen_t len)
{
    WEFT_IO_OP(IO_CONNECT);
    op.fd = fd;
    op.addr = (struct sockaddr *)addr;
    op.addrlen = len;
    return (int)weft_io_fin(weft_io_run(&op));
}

static ssize_t msg1(int kind, int fd, const void *buf, size_t len, int flags)
{
    WEFT_IO_OP(kind);
    op.fd = fd;
    op.flags = flags;
    op.iov1.iov_base = (void *)buf;
    op.iov1.iov_len = len;
    op.msg1.msg_iov = &op.iov1;
    op.msg1.msg_iovlen = 1;
    op.msg = &op.msg1;
    return weft_io_fin(weft_io_run(&op));
}

WEFT_API ssize_t weft_io_recv(int fd, void *buf, size_t len, int flags)
{
    return msg1(IO_RECVMSG, fd, buf, len, flags);
}

WEFT_API ssize_t weft_io_send(int fd, const void *buf, size_t len, int flags)
{
    return msg1(IO_SENDMSG, fd, buf, len, flags);
}

static ssize_t msgn(int kind, int fd, const struct msghdr *msg, int flags)
{
    if (!msg)
        return weft_io_fin(-EFAULT);
    WEFT_IO_OP(kind);
    op.fd = fd;
    op.flags = flags;
    op.msg = (struct msghdr *)msg;
    return weft_io_fin(weft_io_run(&op));
}

WEFT_API ssize_t weft_io_recvmsg(int fd, struct msghdr *msg, int flags)
{
    return msgn(IO_RECVMSG, fd, msg, flags);
}

WEFT_API ssize_t weft_io_sendmsg(int fd, const struct msghdr *msg, int flags)
{
    return msgn(IO_SENDMSG, fd, msg, flags);
}

WEFT_API int weft_io_shutdown(int fd, int how)
{
    WEFT_IO_OP(IO_SHUTDOWN);
    op.fd = fd;
    op.mode = how;
    return (int)weft_io_fin(weft_io_run(&op));
}

WEFT_API int weft_io_poll(int fd, short events, int timeout_ms)
{
    /* poll(2)'s rules: a negative time-out waits without limit, 0 just looks; a negative
     * fd is ignored (revents 0), so the call only waits for its time-out; events 0 still
     * reports POLLERR, POLLHUP and POLLNVAL (exec.c waits for those) */
    if (timeout_ms == 0) {
        struct pollfd p = { .fd = fd, .events = events };
        int r = poll(&p, 1, 0);
        return r > 0 ? p.revents : r;
    }
    uint64_t deadline = 0;
    if (timeout_ms > 0)
        deadline = weft_clock_ns() + (uint64_t)timeout_ms * 1000000u;
    if (fd < 0) {
        if (!weft_face_self_ult()) {
            /* an OS thread sleeps in place, as poll(2) with no fd would (its own time
             * limit, weft_io_set_timeout, bounds the sleep as it bounds any call) */
            int tmo = weft_io_get_timeout();
            int ms = timeout_ms < 0 || (tmo >= 0 && tmo < timeout_ms) ? tmo : timeout_ms;
            return (int)weft_io_fin(poll(NULL, 0, ms) < 0 ? -errno : 0);
        }
        WEFT_IO_OP(IO_SLEEP);
        op.fd = -1;
        op.deadline = deadline ? deadline : WEFT_IO_FOREVER;
        return (int)weft_io_fin(weft_io_run(&op));
    }
    WEFT_IO_OP(IO_POLL);
    op.fd = fd;
    op.flags = (uint16_t)events;
    op.deadline = deadline;
    return (int)weft_io_fin(weft_io_run(&op));
}
