/* weft_io.h - blocking POSIX I/O for weft ULTs that never blocks an execution stream.
 *
 * Link: `pkg-config --cflags --libs weft-io` (libweft-io, which links weft).
 *
 * Convention.  For each POSIX call X below, weft_io_X has X's signature, return value and
 * errno convention: it returns what X returns, and on failure -1 (or MAP-style NULL: none
 * here) with errno set to what X would set.  Short reads and writes happen exactly where
 * X has them (a socket read returns what has arrived; loop for more).
 *
 * Who may call, and what happens:
 *   - a ULT: the call is handed to the kernel and the ULT parks; its execution stream runs
 *     other units until the kernel completes the call, then the ULT is made ready again
 *     (it may resume on another stream of its pool).  The ULT must run under a scheduler
 *     that checks events (every predefined scheduler does; a user-defined one must call
 *     ABT_xstream_check_events when idle), since completions are reaped there.
 *   - a tasklet, a scheduler, an external thread, or a program before ABT_init: the call
 *     simply blocks the calling OS thread, as X would.
 * socket, bind and listen never wait for a device or a peer: they run in the caller.
 * A ULT's read, write, readv, writev, send, sendmsg, accept and poll are first tried
 * without waiting (a socket with data or room, a page-cache hit): only a call that would
 * wait parks.  recv and recvmsg are tried that way on the threads backend and on an
 * O_NONBLOCK socket; on the uring backend a ULT's receive goes to the ring at once (the
 * ULT parks, and the kernel tries it when the stream sends its batch: no failed syscall
 * per message), and so does its send or sendmsg without MSG_DONTWAIT or MSG_WAITALL,
 * tried by the kernel without waiting when the batch is sent (one io_uring_enter for the
 * sends of every ULT of the stream); one that finds no room returns EAGAIN on an
 * O_NONBLOCK socket and waits in the ring on a blocking one.  read/write/readv/writev on an
 * O_DIRECT file hold the stream for the device (RWF_NOWAIT still waits there): use the p-variants
 * (pread...) on O_DIRECT files, which always go through the backend (WEFT_IO_NOWAIT_READ=1: a
 * p-read of a file that is not O_DIRECT is first tried with RWF_NOWAIT, and the ULT yields after a
 * hit).
 *
 * Backends, chosen once per process at the first call (WEFT_IO_BACKEND=uring|threads):
 *   - uring (default when the kernel allows it): one io_uring per execution stream,
 *     submissions batched and sent when the scheduler checks events (one io_uring_enter
 *     for every call its ULTs made since the last check), completions reaped
 *     by the scheduler loop; an idle stream sleeps inside its ring and is woken by a
 *     completion or by new work.  A blocked ULT costs no OS thread.
 *   - threads: WEFT_IO_THREADS (default 4) dedicated I/O OS threads run the calls; calls
 *     that wait for readiness (sockets, pipes) do not hold a thread while they wait (one
 *     epoll set watches them).  Used when io_uring is unavailable (a one-line notice on
 *     stderr says so), or when asked for.
 * weft_io_backend() names the backend in use.
 * Out of descriptors (or of locked memory) when a stream makes its ring, its calls go to
 * the threads backend, and the stream tries to make its ring again 100 ms later at the
 * earliest; the process keeps the uring backend.  When the threads backend cannot start
 * either (no descriptor for its epoll set), the caller waits for its call itself, in
 * slices of 1 ms (a ULT yields between them, so its stream runs its other units) until a
 * backend can be made.  No call fails with EMFILE for want of a backend.
 *
 * errno.  errno belongs to the OS thread, and a ULT may resume on another stream than the
 * one it called from: weft_io sets errno on the thread the ULT returns on.  glibc declares
 * __errno_location const, so in a function that used errno before the call a compiler
 * may reuse the old thread's errno address after it.  Read errno in a ULT only right
 * after the failed call, or through a function of your own marked noinline.
 *
 * Time-outs.  weft_io_set_timeout(ms) gives every following call of the calling ULT (or
 * external thread) a time limit: a call that has not completed after ms milliseconds
 * fails with ETIMEDOUT (weft_io_poll returns 0 instead).  -1 (the default) removes the
 * limit.  A call that does not wait for readiness (a regular-file read, fsync, open...)
 * may complete after its limit once the device has started on it.
 *
 * Cancellation.  ABT_thread_cancel on a ULT parked in a weft_io call asks the kernel to
 * cancel the call; once the kernel has let go of the ULT's buffers the ULT is woken and,
 * as for every cancelled ULT, terminates instead of running again.  Whether the
 * operation took effect is then unknown (as for a POSIX call interrupted by a signal).
 *
 * Signals.  A ULT's call is not interrupted by a signal delivered to its stream's thread
 * (the stream keeps running other units); an EINTR reported by the kernel is passed on.
 * A call made by an OS thread behaves exactly like X (EINTR when X would return it).
 */
#ifndef WEFT_IO_H
#define WEFT_IO_H

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- files ---- */
int weft_io_open(const char *path, int flags, ... /* mode_t mode */);
int weft_io_openat(int dirfd, const char *path, int flags, ... /* mode_t mode */);
int weft_io_close(int fd);
ssize_t weft_io_read(int fd, void *buf, size_t count);
ssize_t weft_io_write(int fd, const void *buf, size_t count);
ssize_t weft_io_pread(int fd, void *buf, size_t count, off_t offset);
ssize_t weft_io_pwrite(int fd, const void *buf, size_t count, off_t offset);
ssize_t weft_io_readv(int fd, const struct iovec *iov, int iovcnt);
ssize_t weft_io_writev(int fd, const struct iovec *iov, int iovcnt);
ssize_t weft_io_preadv(int fd, const struct iovec *iov, int iovcnt, off_t offset);
ssize_t weft_io_pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset);
int weft_io_fsync(int fd);
int weft_io_fdatasync(int fd);
int weft_io_ftruncate(int fd, off_t length);
int weft_io_fallocate(int fd, int mode, off_t offset, off_t len);
int weft_io_unlink(const char *path);
int weft_io_rename(const char *oldpath, const char *newpath);
int weft_io_mkdir(const char *path, mode_t mode);
int weft_io_stat(const char *path, struct stat *st);
int weft_io_fstat(int fd, struct stat *st);

/* ---- sockets ---- */
int weft_io_socket(int domain, int type, int protocol);
int weft_io_bind(int fd, const struct sockaddr *addr, socklen_t len);
int weft_io_listen(int fd, int backlog);
int weft_io_accept(int fd, struct sockaddr *addr, socklen_t *len);
int weft_io_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
int weft_io_connect(int fd, const struct sockaddr *addr, socklen_t len);
ssize_t weft_io_recv(int fd, void *buf, size_t len, int flags);
ssize_t weft_io_send(int fd, const void *buf, size_t len, int flags);
ssize_t weft_io_recvmsg(int fd, struct msghdr *msg, int flags);
ssize_t weft_io_sendmsg(int fd, const struct msghdr *msg, int flags);
int weft_io_shutdown(int fd, int how);

/* Wait until fd has one of `events` (POLLIN, POLLOUT, ...) or timeout_ms passes (any
 * negative value: no limit; 0: just look).  Returns the events that occurred (POLLERR,
 * POLLHUP, POLLNVAL included, as poll(2) reports them in revents), 0 on time-out, -1 with
 * errno on error.  As poll(2) with one pollfd: events 0 waits only for POLLERR or POLLHUP
 * (so it sleeps timeout_ms and returns 0 on a healthy fd), and a negative fd is ignored:
 * the call sleeps timeout_ms and returns 0 (a ULT parks meanwhile; the caller's
 * weft_io_set_timeout limit bounds the sleep, as it bounds every call). */
int weft_io_poll(int fd, short events, int timeout_ms);

/* ---- time-outs and introspection ---- */
/* Set the time limit of each following weft_io call of the caller (the calling ULT, or
 * the calling OS thread for tasklets and external threads) to timeout_ms milliseconds;
 * -1 removes it.  Returns the previous limit, or -1 with errno = EINVAL for a value
 * below -1, ENOMEM if the ULT-local slot cannot be made. */
int weft_io_set_timeout(int timeout_ms);
/* The caller's current limit (-1: none). */
int weft_io_get_timeout(void);
/* "uring" or "threads": the backend this process uses (chosen at the first call). */
const char *weft_io_backend(void);

#ifdef __cplusplus
}
#endif

#endif
