/* src/pthread/blocking.c - the blocking calls of libc, made by a program thread run as a
 * ULT, announced to weft so that they do not block the ULT's stream.
 *
 * Each wrapper reads the who-calls word first: weft's own calls (the word set: weft
 * itself, glibc or a sanitizer runtime on weft's behalf) go to the real function at once.
 * A call from a thread that is not one of our ULTs (an external thread, or any thread
 * before the runtime runs) goes to the real function too.  A ULT's call is bracketed by
 * weft_blocking_begin()/weft_blocking_end() (weft.h: meanwhile a spare OS thread serves
 * the stream's pools, the caller stays on its OS thread) and keeps the real call's
 * result and errno.  Between the two the word is clear, since a signal handler that runs
 * in the call is program code, and the record holds the OS thread the call blocks, so
 * that pthread_kill of the thread interrupts the call there (EINTR, or sigwait returns
 * the signal) whatever weft does with the stream meanwhile (signal.c).  Calls that
 * cannot block as asked (a zero time-out, WNOHANG) are not bracketed.
 *
 * The sleep family (sleep.c) parks the ULT instead.  glibc's internal calls (fread
 * calling read) do not come through here, nor, in a sanitized program (which links the
 * layer after glibc, weft_pthread.h), does any of these: there the call blocks its
 * stream (docs/design/pthread.md).  The _FORTIFY_SOURCE entry points (__read_chk, ...)
 * are wrapped as well: a fortified program calls them instead of read.  Both names of the
 * calls that take an offset (pread, pread64, ...) are wrapped: a program built with
 * _FILE_OFFSET_BITS=64 calls the second. */
#undef _FORTIFY_SOURCE /* this file defines read, poll, ...: no inline wrappers of them */
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <weft.h>

#include "pthread/face.h"

pth_thread *pth_block_self(void) { return pth_started() ? pth_self() : NULL; }

pthread_t pth_block_begin(pth_thread *self, bool *began)
{
    pthread_t os = pth_real(pthread_self)();
    pth_enter();
    *began = weft_blocking_begin() == ABT_SUCCESS;
    /* nested (a handler's call inside a call): keep the outer one's, restored at its end */
    pthread_t prev = weft_atomic_exchange_acq_rel(&self->blocked_os, os);
    pth_set_internal(0);
    return prev;
}

void pth_block_end(pth_thread *self, pthread_t prev, bool began)
{
    int e = pth_get_errno();
    pth_enter();
    weft_atomic_store_release(&self->blocked_os, prev);
    if (began)
        weft_blocking_end();
    pth_leave(); /* signals held for it meanwhile */
    pth_set_errno(e);
}

/* Define `name` with parameters `params`, calling the real one with `args`; `blocks` says
 * whether the call may block as asked.  weft's own calls cost the word check and a tail
 * call (the rest is name_prog, out of line). */
#define PTH_BLOCKING_IF(rtype, name, params, args, blocks)      \
    static __attribute__((noinline)) rtype name##_prog params   \
    {                                                           \
        __typeof__(&name) real_ = pth_real(name);               \
        if (WEFT_UNLIKELY(!real_)) { /* glibc has not got it */ \
            errno = ENOSYS;                                     \
            return -1;                                          \
        }                                                       \
        pth_thread *self_;                                      \
        if (!(blocks) || !(self_ = pth_block_self()))           \
            return real_ args;                                  \
        bool began_;                                            \
        pthread_t prev_ = pth_block_begin(self_, &began_);      \
        rtype r_ = real_ args;                                  \
        pth_block_end(self_, prev_, began_);                    \
        return r_;                                              \
    }                                                           \
    PTH_API rtype name params                                   \
    {                                                           \
        if (pth_internal())                                     \
            return pth_real(name) args;                         \
        return name##_prog args;                                \
    }
#define PTH_BLOCKING(rtype, name, params, args) PTH_BLOCKING_IF(rtype, name, params, args, 1)

static bool zero_ts(const struct timespec *t) { return t && t->tv_sec == 0 && t->tv_nsec == 0; }
static bool zero_tv(const struct timeval *t) { return t && t->tv_sec == 0 && t->tv_usec == 0; }

/* clang-format off */
PTH_BLOCKING(ssize_t, read, (int fd, void *buf, size_t n), (fd, buf, n))
PTH_BLOCKING(ssize_t, write, (int fd, const void *buf, size_t n), (fd, buf, n))
PTH_BLOCKING(ssize_t, pread, (int fd, void *buf, size_t n, off_t off), (fd, buf, n, off))
PTH_BLOCKING(ssize_t, pwrite, (int fd, const void *buf, size_t n, off_t off), (fd, buf, n, off))
PTH_BLOCKING(ssize_t, pread64, (int fd, void *buf, size_t n, off64_t off), (fd, buf, n, off))
PTH_BLOCKING(ssize_t, pwrite64, (int fd, const void *buf, size_t n, off64_t off),
             (fd, buf, n, off))
PTH_BLOCKING(ssize_t, readv, (int fd, const struct iovec *iov, int cnt), (fd, iov, cnt))
PTH_BLOCKING(ssize_t, writev, (int fd, const struct iovec *iov, int cnt), (fd, iov, cnt))
PTH_BLOCKING(ssize_t, preadv, (int fd, const struct iovec *iov, int cnt, off_t off),
             (fd, iov, cnt, off))
PTH_BLOCKING(ssize_t, pwritev, (int fd, const struct iovec *iov, int cnt, off_t off),
             (fd, iov, cnt, off))
PTH_BLOCKING(ssize_t, preadv64, (int fd, const struct iovec *iov, int cnt, off64_t off),
             (fd, iov, cnt, off))
PTH_BLOCKING(ssize_t, pwritev64, (int fd, const struct iovec *iov, int cnt, off64_t off),
             (fd, iov, cnt, off))
PTH_BLOCKING(ssize_t, preadv2, (int fd, const struct iovec *iov, int cnt, off_t off, int fl),
             (fd, iov, cnt, off, fl))
PTH_BLOCKING(ssize_t, pwritev2, (int fd, const struct iovec *iov, int cnt, off_t off, int fl),
             (fd, iov, cnt, off, fl))
PTH_BLOCKING(ssize_t, preadv64v2, (int fd, const struct iovec *iov, int cnt, off64_t off, int fl),
             (fd, iov, cnt, off, fl))
PTH_BLOCKING(ssize_t, pwritev64v2, (int fd, const struct iovec *iov, int cnt, off64_t off, int fl),
             (fd, iov, cnt, off, fl))
PTH_BLOCKING(ssize_t, __read_chk, (int fd, void *buf, size_t n, size_t buflen), (fd, buf, n, buflen))
PTH_BLOCKING(ssize_t, __pread_chk, (int fd, void *buf, size_t n, off_t off, size_t buflen),
             (fd, buf, n, off, buflen))
PTH_BLOCKING(ssize_t, __pread64_chk, (int fd, void *buf, size_t n, off64_t off, size_t buflen),
             (fd, buf, n, off, buflen))

PTH_BLOCKING(ssize_t, recv, (int fd, void *buf, size_t n, int fl), (fd, buf, n, fl))
PTH_BLOCKING(ssize_t, recvfrom, (int fd, void *restrict buf, size_t n, int fl,
                                 __SOCKADDR_ARG addr, socklen_t *restrict len),
             (fd, buf, n, fl, addr, len))
PTH_BLOCKING(ssize_t, recvmsg, (int fd, struct msghdr *msg, int fl), (fd, msg, fl))
PTH_BLOCKING(int, recvmmsg, (int fd, struct mmsghdr *v, unsigned int n, int fl,
                             struct timespec *t), (fd, v, n, fl, t))
PTH_BLOCKING(ssize_t, send, (int fd, const void *buf, size_t n, int fl), (fd, buf, n, fl))
PTH_BLOCKING(ssize_t, sendto, (int fd, const void *buf, size_t n, int fl,
                               __CONST_SOCKADDR_ARG addr, socklen_t len),
             (fd, buf, n, fl, addr, len))
PTH_BLOCKING(ssize_t, sendmsg, (int fd, const struct msghdr *msg, int fl), (fd, msg, fl))
PTH_BLOCKING(int, sendmmsg, (int fd, struct mmsghdr *v, unsigned int n, int fl), (fd, v, n, fl))
PTH_BLOCKING(ssize_t, __recv_chk, (int fd, void *buf, size_t n, size_t buflen, int fl),
             (fd, buf, n, buflen, fl))
PTH_BLOCKING(ssize_t, __recvfrom_chk, (int fd, void *restrict buf, size_t n, size_t buflen, int fl,
                                       __SOCKADDR_ARG addr, socklen_t *restrict len),
             (fd, buf, n, buflen, fl, addr, len))
PTH_BLOCKING(int, accept, (int fd, __SOCKADDR_ARG addr, socklen_t *restrict len), (fd, addr, len))
PTH_BLOCKING(int, accept4, (int fd, __SOCKADDR_ARG addr, socklen_t *restrict len, int fl),
             (fd, addr, len, fl))
PTH_BLOCKING(int, connect, (int fd, __CONST_SOCKADDR_ARG addr, socklen_t len), (fd, addr, len))

PTH_BLOCKING_IF(int, poll, (struct pollfd *fds, nfds_t n, int t), (fds, n, t), t != 0)
PTH_BLOCKING_IF(int, ppoll, (struct pollfd *fds, nfds_t n, const struct timespec *t,
                             const sigset_t *m), (fds, n, t, m), !zero_ts(t))
PTH_BLOCKING_IF(int, __poll_chk, (struct pollfd *fds, nfds_t n, int t, size_t len),
                (fds, n, t, len), t != 0)
PTH_BLOCKING_IF(int, __ppoll_chk, (struct pollfd *fds, nfds_t n, const struct timespec *t,
                                   const sigset_t *m, size_t len), (fds, n, t, m, len),
                !zero_ts(t))
PTH_BLOCKING_IF(int, select, (int n, fd_set *restrict r, fd_set *restrict w, fd_set *restrict e,
                              struct timeval *restrict t), (n, r, w, e, t), !zero_tv(t))
PTH_BLOCKING_IF(int, pselect, (int n, fd_set *restrict r, fd_set *restrict w, fd_set *restrict e,
                               const struct timespec *restrict t, const sigset_t *restrict m),
                (n, r, w, e, t, m), !zero_ts(t))
PTH_BLOCKING_IF(int, epoll_wait, (int fd, struct epoll_event *ev, int n, int t), (fd, ev, n, t),
                t != 0)
PTH_BLOCKING_IF(int, epoll_pwait, (int fd, struct epoll_event *ev, int n, int t, const sigset_t *m),
                (fd, ev, n, t, m), t != 0)
PTH_BLOCKING_IF(int, epoll_pwait2, (int fd, struct epoll_event *ev, int n,
                                    const struct timespec *t, const sigset_t *m),
                (fd, ev, n, t, m), !zero_ts(t))

PTH_BLOCKING(int, pause, (void), ())
PTH_BLOCKING(int, sigsuspend, (const sigset_t *m), (m))
PTH_BLOCKING(int, sigwait, (const sigset_t *restrict set, int *restrict sig), (set, sig))
PTH_BLOCKING(int, sigwaitinfo, (const sigset_t *restrict set, siginfo_t *restrict info),
             (set, info))
PTH_BLOCKING_IF(int, sigtimedwait, (const sigset_t *restrict set, siginfo_t *restrict info,
                                    const struct timespec *restrict t), (set, info, t), !zero_ts(t))

PTH_BLOCKING(pid_t, wait, (int *st), (st))
PTH_BLOCKING_IF(pid_t, waitpid, (pid_t pid, int *st, int opt), (pid, st, opt), !(opt & WNOHANG))
PTH_BLOCKING_IF(pid_t, wait3, (int *st, int opt, struct rusage *ru), (st, opt, ru),
                !(opt & WNOHANG))
PTH_BLOCKING_IF(pid_t, wait4, (pid_t pid, int *st, int opt, struct rusage *ru), (pid, st, opt, ru),
                !(opt & WNOHANG))
PTH_BLOCKING_IF(int, waitid, (idtype_t type, id_t id, siginfo_t *info, int opt),
                (type, id, info, opt), !(opt & WNOHANG))

PTH_BLOCKING(int, fsync, (int fd), (fd))
PTH_BLOCKING(int, fdatasync, (int fd), (fd))
PTH_BLOCKING_IF(int, flock, (int fd, int op), (fd, op), !(op & LOCK_NB))
/* clang-format on */

/* fcntl is variadic: its third argument, when there is one, is an int or a pointer, and is
 * passed on as a pointer-sized word as glibc's own fcntl does.  Only the waiting lock
 * commands are bracketed. */
static bool lock_waits(int cmd) { return cmd == F_SETLKW || cmd == F_OFD_SETLKW; }

static int fcntl_common(__typeof__(&fcntl) real, int fd, int cmd, void *arg)
{
    pth_thread *self;
    if (pth_internal() || !lock_waits(cmd) || !(self = pth_block_self()))
        return real(fd, cmd, arg);
    bool began;
    pthread_t prev = pth_block_begin(self, &began);
    int r = real(fd, cmd, arg);
    pth_block_end(self, prev, began);
    return r;
}

PTH_API int fcntl(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return fcntl_common(pth_real(fcntl), fd, cmd, arg);
}

PTH_API int fcntl64(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    __typeof__(&fcntl) real = pth_real(fcntl64);
    return fcntl_common(real ? real : pth_real(fcntl), fd, cmd, arg);
}
