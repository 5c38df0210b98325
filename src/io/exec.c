/* src/io/exec.c - running an operation with plain syscalls in the calling OS thread: the
 * blocking form (OS-thread callers, and the threads backend's file operations) and the
 * one-attempt form that never waits for readiness (the threads backend's socket and pipe
 * operations, which then wait in its epoll set, holding no thread). */
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static long ret(long r) { return r < 0 ? -errno : r; }

long weft_io_exec_blocking(weft_io_op *op)
{
    switch (op->kind) {
    case IO_OPENAT: return ret(openat(op->fd, op->path, op->flags, (mode_t)op->mode));
    case IO_CLOSE: return ret(close(op->fd));
    case IO_READ:
        if (op->off < 0)
            return ret(readv(op->fd, op->iov, op->iovcnt));
        return ret(preadv(op->fd, op->iov, op->iovcnt, (off_t)op->off));
    case IO_WRITE:
        if (op->off < 0)
            return ret(writev(op->fd, op->iov, op->iovcnt));
        return ret(pwritev(op->fd, op->iov, op->iovcnt, (off_t)op->off));
    case IO_FSYNC: return ret(op->flags ? fdatasync(op->fd) : fsync(op->fd));
    case IO_FTRUNCATE: return ret(ftruncate(op->fd, (off_t)op->off));
    case IO_FALLOCATE: return ret(fallocate(op->fd, op->flags, (off_t)op->off, (off_t)op->len));
    case IO_UNLINKAT: return ret(unlinkat(op->fd, op->path, 0));
    case IO_RENAMEAT: return ret(renameat(op->fd, op->path, op->fd, op->path2));
    case IO_MKDIRAT: return ret(mkdirat(op->fd, op->path, (mode_t)op->mode));
    case IO_STAT: return ret(op->path ? stat(op->path, op->st) : fstat(op->fd, op->st));
    case IO_ACCEPT: return ret(accept4(op->fd, op->addr, op->addrlenp, op->flags));
    case IO_CONNECT: return ret(connect(op->fd, op->addr, op->addrlen));
    case IO_RECVMSG: return ret(recvmsg(op->fd, op->msg, op->flags));
    case IO_SENDMSG: return ret(sendmsg(op->fd, op->msg, op->flags));
    case IO_SHUTDOWN: return ret(shutdown(op->fd, op->mode));
    case IO_POLL: {
        struct pollfd p = { .fd = op->fd, .events = (short)op->flags };
        long r = ret(poll(&p, 1, -1));
        return r > 0 ? p.revents : r;
    }
    case IO_SLEEP:
        for (;;) { /* until the deadline */
            uint64_t now = weft_clock_ns();
            if (now >= op->deadline)
                return 0;
            uint64_t ms = (op->deadline - now + 999999) / 1000000;
            if (poll(NULL, 0, ms > 1000000 ? 1000000 : (int)ms) < 0 && errno != EINTR)
                return -errno;
        }
    default: return -EINVAL;
    }
}

static bool fd_nonblocking(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl >= 0 && (fl & O_NONBLOCK);
}

/* poll(fd, ev, 0): > 0 ready (or error: let the call report it), 0 not ready. */
static int ready_now(int fd, short ev)
{
    struct pollfd p = { .fd = fd, .events = ev };
    int r = poll(&p, 1, 0);
    return r != 0;
}

long weft_io_exec_try(weft_io_op *op, uint32_t *events)
{
    long r;
    *events = 0;
    switch (op->kind) {
    case IO_READ:
    case IO_WRITE: {
        bool rd = op->kind == IO_READ;
        uint32_t want = rd ? POLLIN : POLLOUT;
        r = rd ? preadv2(op->fd, op->iov, op->iovcnt, (off_t)op->off, RWF_NOWAIT)
               : pwritev2(op->fd, op->iov, op->iovcnt, (off_t)op->off, RWF_NOWAIT);
        r = ret(r);
        if (r == -EOPNOTSUPP) { /* fd kind without NOWAIT: wait, then block */
            if (ready_now(op->fd, (short)want))
                return weft_io_exec_blocking(op);
            *events = want;
            return -EAGAIN;
        }
        if (r == -EAGAIN && !fd_nonblocking(op->fd))
            *events = want;
        return r;
    }
    case IO_RECVMSG:
    case IO_SENDMSG: {
        bool rd = op->kind == IO_RECVMSG;
        if ((op->flags & MSG_WAITALL) && !(op->flags & MSG_DONTWAIT) && !fd_nonblocking(op->fd)) {
            /* MSG_DONTWAIT would end a MSG_WAITALL early: wait for readiness, then block
             * until all has come (the threads backend holds a worker meanwhile) */
            if (op->again)
                return weft_io_exec_blocking(op);
            op->again = 1;
            *events = rd ? POLLIN : POLLOUT;
            return -EAGAIN;
        }
        int fl = op->flags | MSG_DONTWAIT;
        if (op->msg == &op->msg1) /* recv/send: no msghdr for the kernel to copy in */
            r = ret(rd ? recv(op->fd, op->iov1.iov_base, op->iov1.iov_len, fl)
                       : send(op->fd, op->iov1.iov_base, op->iov1.iov_len, fl));
        else
            r = ret(rd ? recvmsg(op->fd, op->msg, fl) : sendmsg(op->fd, op->msg, fl));
        if (r == -EAGAIN && !(op->flags & MSG_DONTWAIT) && !fd_nonblocking(op->fd))
            *events = rd ? POLLIN : POLLOUT;
        return r;
    }
    case IO_ACCEPT:
        if (fd_nonblocking(op->fd) || ready_now(op->fd, POLLIN))
            return weft_io_exec_blocking(op);
        *events = POLLIN;
        return -EAGAIN;
    case IO_CONNECT: {
        if (op->again) { /* in progress: ready now, read the outcome */
            int err = 0;
            socklen_t l = sizeof err;
            if (getsockopt(op->fd, SOL_SOCKET, SO_ERROR, &err, &l) < 0)
                return -errno;
            return err ? -err : 0;
        }
        int fl = fcntl(op->fd, F_GETFL);
        if (fl < 0)
            return -errno;
        if (fl & O_NONBLOCK)
            return weft_io_exec_blocking(op);
        if (fcntl(op->fd, F_SETFL, fl | O_NONBLOCK) < 0)
            return -errno;
        r = weft_io_exec_blocking(op);
        fcntl(op->fd, F_SETFL, fl);
        if (r == -EINPROGRESS) {
            op->again = 1;
            *events = POLLOUT;
            return -EAGAIN;
        }
        return r;
    }
    case IO_POLL: {
        struct pollfd p = { .fd = op->fd, .events = (short)op->flags };
        r = ret(poll(&p, 1, 0));
        if (r == 0) {
            /* events 0: poll(2) still reports an error or a hang-up; wait for those */
            *events = op->flags ? (uint16_t)op->flags : POLLERR | POLLHUP;
            return -EAGAIN;
        }
        return r > 0 ? p.revents : r;
    }
    default: /* file operations never wait for readiness */ return weft_io_exec_blocking(op);
    }
}

long weft_io_exec_nowait_read(weft_io_op *op)
{
    int fl = fcntl(op->fd, F_GETFL);
    if (fl < 0 || (fl & O_DIRECT))
        return -EAGAIN; /* the backend reports the error, or reads from the device */
    long r = ret(preadv2(op->fd, op->iov, op->iovcnt, (off_t)op->off, RWF_NOWAIT));
    return r == -EOPNOTSUPP ? -EAGAIN : r;
}
