/* src/io/io.c - the public calls of weft_io.h: fill an op, run it the way the caller can
 * wait, and translate the outcome to POSIX (-1 and errno).  Also: choosing the backend,
 * per-caller time-outs, and the cancellation registry (io.h).
 *
 * Waiting protocol of a ULT.  It takes op->lock, hands op to the backend, enters op in the
 * registry, and parks with weft_face_wait_block(&op->w, &op->lock): the lock is released once
 * it has left its stack.  A backend that completes op on another thread (threads.c) takes
 * and drops op->lock before the wake, so it never wakes a ULT still on its stack, and it
 * never unregisters an op before the ULT has registered it.  The uring backend completes
 * op on the ULT's own stream, necessarily after the park.
 *
 * Registration comes after the hand-off, so a canceller that finds an op can always ask
 * its backend to cancel it; a cancel that came between the hand-off and the registration
 * is seen in the unit's cancel request bit (read under the bucket lock, which the
 * canceller took after setting that bit). */
#include "io/io.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <abt.h>

#include "arch/cpu.h"
#include "weft_io.h"

#define API __attribute__((visibility("default")))

/* ---- the cancellation registry ---- */

#define NBUCKETS 64
static struct bucket {
    weft_spinlock lock;
    weft_io_op *head; /* lock: ops of parked ULTs */
} __attribute__((aligned(WEFT_CACHE_LINE))) reg[NBUCKETS];

/* ---- backend choice ---- */

static const struct weft_io_backend *backend;
static pthread_once_t pick_once = PTHREAD_ONCE_INIT;

static const struct weft_poll_hook threads_hook = {
    .name = "io-threads",
    .cancel = weft_io_hook_cancel,
};

static void atfork_child(void)
{
    /* only the forking thread lives on: no other thread holds a bucket lock or has an
     * op in flight in the child */
    for (int i = 0; i < NBUCKETS; i++) {
        weft_atomic_store_relaxed(&reg[i].lock.v, 0);
        reg[i].head = NULL;
    }
    weft_io_threads_atfork_child();
#if WEFT_IO_HAVE_URING
    weft_io_uring_atfork_child();
#endif
}

static void pick(void)
{
    (void)pthread_atfork(NULL, NULL, atfork_child);
    const char *env = getenv("WEFT_IO_BACKEND");
    bool want_uring = true;
    if (env && *env) {
        if (!strcmp(env, "threads"))
            want_uring = false;
        else if (strcmp(env, "uring") != 0)
            fprintf(stderr,
                    "weft-io: WEFT_IO_BACKEND=%s is neither uring nor threads; "
                    "using the default\n",
                    env);
    }
    if (want_uring) {
#if WEFT_IO_HAVE_URING
        const char *why = "";
        int rc = -EPERM;
        FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
        int disabled = 0;
        if (f) {
            if (fscanf(f, "%d", &disabled) != 1)
                disabled = 0;
            fclose(f);
        }
        if (disabled == 2)
            why = "kernel.io_uring_disabled=2";
        else
            rc = weft_io_uring_probe(&why);
        if (rc == 0 && weft_poll_hook_add(&weft_io_uring_hook) == 0) {
            __atomic_store_n(&backend, &weft_io_uring_backend, __ATOMIC_RELEASE);
            return;
        }
        if (rc == 0)
            why = "no poll hook slot left";
        fprintf(stderr, "weft-io: io_uring unavailable (%s%s%s); using the threads backend\n", why,
                rc ? ": " : "", rc ? strerror(-rc) : "");
#else
        if (env && !strcmp(env, "uring"))
            fprintf(stderr, "weft-io: built without liburing; using the threads backend\n");
#endif
    }
    (void)weft_poll_hook_add(&threads_hook); /* only for ABT_thread_cancel */
    __atomic_store_n(&backend, &weft_io_threads_backend, __ATOMIC_RELEASE);
}

static inline const struct weft_io_backend *be(void)
{
    const struct weft_io_backend *b = __atomic_load_n(&backend, __ATOMIC_ACQUIRE);
    if (WEFT_UNLIKELY(!b)) {
        pthread_once(&pick_once, pick);
        b = __atomic_load_n(&backend, __ATOMIC_ACQUIRE);
    }
    return b;
}

API const char *weft_io_backend(void)
{
    const struct weft_io_backend *b = be();
#if WEFT_IO_HAVE_URING
    if (b == &weft_io_uring_backend && weft_io_uring_dead())
        return weft_io_threads_backend.name;
#endif
    return b->name;
}

/* ---- time-outs: per ULT (an ABT key), per OS thread otherwise ---- */

static _Atomic int timeouts_used; /* no call looks a limit up before the first set */
static ABT_key tkey = ABT_KEY_NULL;
static pthread_mutex_t tkey_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int os_timeout = -1;

API int weft_io_get_timeout(void)
{
    if (!weft_atomic_load_acquire(&timeouts_used))
        return -1;
    if (!weft_face_self_ult())
        return os_timeout;
    void *v = NULL;
    if (tkey == ABT_KEY_NULL || ABT_key_get(tkey, &v) != ABT_SUCCESS || !v)
        return -1;
    return (int)((intptr_t)v - 2);
}

API int weft_io_set_timeout(int timeout_ms)
{
    if (timeout_ms < -1) {
        errno = EINVAL;
        return -1;
    }
    int prev = weft_io_get_timeout();
    if (!weft_face_self_ult()) {
        os_timeout = timeout_ms;
    } else {
        pthread_mutex_lock(&tkey_lock);
        int rc = tkey == ABT_KEY_NULL ? ABT_key_create(NULL, &tkey) : ABT_SUCCESS;
        pthread_mutex_unlock(&tkey_lock);
        if (rc != ABT_SUCCESS ||
            ABT_key_set(tkey, (void *)(intptr_t)(timeout_ms + 2)) != ABT_SUCCESS) {
            errno = ENOMEM;
            return -1;
        }
    }
    weft_atomic_store_release(&timeouts_used, 1);
    return prev;
}

static inline struct bucket *bucket_of(const weft_unit *u)
{
    return &reg[(((uintptr_t)u >> 6) * 0x9E3779B97F4A7C15ull) >> 58];
}

/* Enter op (already with its backend); true if a cancel was already asked for. */
static void reg_add(weft_io_op *op, weft_unit *u)
{
    struct bucket *b = bucket_of(u);
    weft_spin_lock(&b->lock);
    op->unit = u;
    op->reg_prev = NULL;
    op->reg_next = b->head;
    if (b->head)
        b->head->reg_prev = op;
    b->head = op;
    if (weft_face_unit_cancel_requested(u)) {
        weft_atomic_store_release(&op->cancel, 1);
        be()->cancel(op);
    }
    weft_spin_unlock(&b->lock);
}

void weft_io_unregister(weft_io_op *op)
{
    weft_unit *u = op->unit;
    if (!u)
        return;
    struct bucket *b = bucket_of(u);
    weft_spin_lock(&b->lock);
    if (op->reg_prev)
        op->reg_prev->reg_next = op->reg_next;
    else
        b->head = op->reg_next;
    if (op->reg_next)
        op->reg_next->reg_prev = op->reg_prev;
    op->unit = NULL;
    weft_spin_unlock(&b->lock);
}

void weft_io_hook_cancel(weft_unit *u)
{
    struct bucket *b = bucket_of(u);
    weft_spin_lock(&b->lock);
    for (weft_io_op *op = b->head; op; op = op->reg_next) {
        if (op->unit == u && !weft_atomic_load_relaxed(&op->cancel)) {
            weft_atomic_store_release(&op->cancel, 1);
            be()->cancel(op);
        }
    }
    weft_spin_unlock(&b->lock);
}

void weft_io_wake(weft_io_op *op) { weft_face_waiter_wake(&op->w); }

void weft_io_complete(weft_io_op *op)
{
    /* the waiter has left its stack (ULT) or is about to sleep on its futex word */
    weft_spin_lock(&op->lock);
    weft_spin_unlock(&op->lock);
    weft_io_unregister(op);
    weft_io_wake(op);
}

/* ---- running an op ---- */

/* How a ULT's op starts (before any hand-off to the backend). */
enum { TO_BACKEND, TRY_FIRST, RUN_HERE, NOWAIT_READ, RING_TRY };

/* -1 until read: WEFT_IO_NOWAIT_READ=1 turns the page-cache fast path of p-reads on
 * (bench/io/README.md measured it against the ring's batch; the ring won, so it is off). */
static _Atomic int nowait_reads = -1;

static int nowait_reads_on(void)
{
    int v = weft_atomic_load_relaxed(&nowait_reads);
    if (WEFT_UNLIKELY(v < 0)) {
        const char *e = getenv("WEFT_IO_NOWAIT_READ");
        v = e && *e == '1';
        weft_atomic_store_relaxed(&nowait_reads, v);
    }
    return v;
}

static int prefer(weft_io_op *op, const struct weft_io_backend *b)
{
    switch (op->kind) {
    case IO_READ:
    case IO_WRITE:
        /* pread/pwrite and friends address files: the ring makes its own no-wait attempt
         * (page-cache hits complete when the batch is sent, one io_uring_enter for all
         * the stream's ULTs), whereas a RWF_NOWAIT read of an O_DIRECT file would hold
         * the stream for the device.  WEFT_IO_NOWAIT_READ=1: a p-read of a file that is
         * not O_DIRECT is first tried with RWF_NOWAIT (exec.c), the ring taking a miss. */
        if (op->off >= 0) {
            if (op->kind == IO_READ && b == &weft_io_uring_backend && nowait_reads_on())
                return NOWAIT_READ;
            return TO_BACKEND;
        }
        return TRY_FIRST;
    case IO_RECVMSG:
        /* On the ring a receive is submitted at once: the kernel's own attempt when the
         * batch is sent is the no-wait try (a user-space try that fails costs a syscall
         * per message, and most do fail: a request/response peer has not answered yet).
         * Only an O_NONBLOCK socket, on which POSIX wants EAGAIN and the ring would wait,
         * is tried here; its flag is read each time (F_GETFL, the cheapest syscall there
         * is), since the program may change it with fcntl at any moment. */
        if (b == &weft_io_uring_backend && !(op->flags & MSG_DONTWAIT)) {
            int fl = fcntl(op->fd, F_GETFL);
            if (fl >= 0 && !(fl & O_NONBLOCK))
                return TO_BACKEND;
        }
        return TRY_FIRST;
    case IO_SENDMSG:
        /* On the ring a send joins the stream's batch with MSG_DONTWAIT: one
         * io_uring_enter sends the replies of every ULT that ran since the last poll
         * (instead of a send(2) each, each of which may also switch to the woken peer
         * before it returns), and a send mostly succeeds at once (socket buffer room).
         * An EAGAIN (no room) comes back to run(), which checks O_NONBLOCK then and sends
         * again without MSG_DONTWAIT (the ring waits for room) on a blocking socket.
         * MSG_WAITALL and the caller's own MSG_DONTWAIT keep the direct try. */
        if (b == &weft_io_uring_backend && !(op->flags & (MSG_DONTWAIT | MSG_WAITALL)))
            return RING_TRY;
        return TRY_FIRST;
    case IO_ACCEPT:
    case IO_POLL:
        /* Fast path: a call that waits for readiness is first tried without waiting;
         * only one that would wait is handed over (and one on an O_NONBLOCK fd returns
         * EAGAIN here, as POSIX says). */
        return TRY_FIRST;
    case IO_CONNECT: {
        int fl = fcntl(op->fd, F_GETFL);
        return fl < 0 || (fl & O_NONBLOCK) ? RUN_HERE : TO_BACKEND;
    }
    default: return TO_BACKEND;
    }
}

/* Neither backend can take op now (no descriptor for a ring or for the I/O threads'
 * epoll set, no thread can be made): the caller waits for it itself, in slices of 1 ms
 * (an OS thread: 20 ms) that check the deadline; a ULT yields between slices, so its
 * stream runs its other units (and a cancel ends it at the yield, as a cancel does).
 * Slower than a backend, but the op neither fails with the backend's EMFILE nor holds
 * the stream until it completes. */
static long run_here(weft_io_op *op, weft_unit *u)
{
    op->ring_try = 0;
    op->again = 0;
    uint32_t ev = 0; /* the last try would block on these: try again once they come */
    for (;;) {
        if (op->kind != IO_SLEEP && !ev) { /* tried before the deadline is looked at */
            long r = weft_io_exec_try(op, &ev);
            if (!ev)
                return r;
        }
        uint64_t now = weft_clock_ns();
        if (op->deadline && now >= op->deadline) {
            op->timed_out = 1;
            return weft_io_timeout_res(op);
        }
        int slice = u ? 1 : 20;
        if (op->deadline && op->deadline - now < (uint64_t)slice * 1000000u)
            slice = (int)((op->deadline - now + 999999) / 1000000);
        if (op->kind == IO_SLEEP) {
            poll(NULL, 0, slice);
        } else {
            struct pollfd p = { .fd = op->fd, .events = (short)ev };
            if (poll(&p, 1, slice) > 0)
                ev = 0;
        }
        if (u)
            ABT_thread_yield();
    }
}

static long run(weft_io_op *op)
{
    const struct weft_io_backend *b = be();
    int tmo = weft_io_get_timeout();
    if (tmo >= 0) {
        uint64_t d = weft_clock_ns() + (uint64_t)tmo * 1000000u;
        if (!op->deadline || d < op->deadline)
            op->deadline = d;
    }
    weft_unit *u = weft_face_self_ult();
    if (!u && !op->deadline)
        return weft_io_exec_blocking(op);
    uint32_t wait_ev = 0; /* the no-wait try would block: these poll events */
    if (u) {
        switch (prefer(op, b)) {
        case TRY_FIRST: {
            long r = weft_io_exec_try(op, &wait_ev);
            if (!wait_ev)
                return r;
            break;
        }
        case RUN_HERE: return weft_io_exec_blocking(op);
        case NOWAIT_READ: {
            long r = weft_io_exec_nowait_read(op);
            if (r != -EAGAIN) {
                /* a hit never parked: let the stream's other units (and its poll) run,
                 * or a ULT reading cached data in a loop would hold the stream */
                ABT_thread_yield();
                return r;
            }
            break;
        }
        case RING_TRY: op->ring_try = 1; break;
        default: break;
        }
    }
submit:
    weft_face_waiter_init(&op->w);
    weft_atomic_store_relaxed(&op->lock.v, 0);
    weft_spin_lock(&op->lock);
    int rc;
    if (!u) {
        rc = weft_io_threads_submit(op);
    } else if (wait_ev && b == &weft_io_threads_backend) {
        rc = weft_io_threads_arm(op, wait_ev); /* tried already: straight to the epoll set */
    } else {
        op->again = 0; /* the backend starts the op afresh */
        rc = b->submit(op);
    }
    if (rc < 0) {
        weft_spin_unlock(&op->lock);
        if (rc == -EBADF) /* a bad fd whose number the backend took meanwhile (io.h) */
            return op->kind == IO_POLL ? POLLNVAL : -EBADF;
        return run_here(op, u);
    }
    if (u)
        reg_add(op, u);
    weft_face_wait_block(&op->w, &op->lock);
    if (WEFT_UNLIKELY(op->ring_try) && op->res == -EAGAIN) {
        /* the ring's MSG_DONTWAIT send found no room: POSIX's answer on an O_NONBLOCK
         * socket; on a blocking one, send again and let the ring wait for room */
        op->ring_try = 0;
        int fl = fcntl(op->fd, F_GETFL);
        if (fl >= 0 && !(fl & O_NONBLOCK))
            goto submit;
    }
    if (WEFT_UNLIKELY(op->sigpipe))
        pthread_kill(pthread_self(), SIGPIPE); /* as send(2) does, to the calling thread */
    if (op->kind == IO_POLL && op->res == -EBADF)
        return POLLNVAL; /* as poll(2) reports a bad fd */
    return op->res;
}

/* errno lives in the OS thread, and a ULT may resume on another stream than the one it
 * parked on: the address of errno must be taken after the wait.  glibc declares
 * __errno_location const, so a compiler may reuse an address computed before the wait;
 * a call it cannot see into takes it afresh. */
static __attribute__((noinline)) void set_errno(int e) { errno = e; }

static inline long fin(long r)
{
    if (r < 0) {
        set_errno((int)-r);
        return -1;
    }
    return r;
}

#define OP(k)                                  \
    weft_io_op op;                             \
    memset(&op, 0, offsetof(weft_io_op, stx)); \
    op.kind = (k)

/* ---- files ---- */

static int do_openat(int dirfd, const char *path, int flags, mode_t mode)
{
    OP(IO_OPENAT);
    op.fd = dirfd;
    op.path = path;
    op.flags = flags;
    op.mode = (int)mode;
    return (int)fin(run(&op));
}

API int weft_io_open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & (O_CREAT | __O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return do_openat(AT_FDCWD, path, flags, mode);
}

API int weft_io_openat(int dirfd, const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & (O_CREAT | __O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return do_openat(dirfd, path, flags, mode);
}

API int weft_io_close(int fd)
{
    OP(IO_CLOSE);
    op.fd = fd;
    return (int)fin(run(&op));
}

static ssize_t rw(int kind, int fd, const struct iovec *iov, int cnt, int64_t off)
{
    OP(kind);
    op.fd = fd;
    op.iov = iov;
    op.iovcnt = cnt;
    op.off = off;
    return fin(run(&op));
}

static ssize_t rw1(int kind, int fd, const void *buf, size_t n, int64_t off)
{
    struct iovec v = { .iov_base = (void *)buf, .iov_len = n };
    return rw(kind, fd, &v, 1, off);
}

API ssize_t weft_io_read(int fd, void *buf, size_t n) { return rw1(IO_READ, fd, buf, n, -1); }
API ssize_t weft_io_write(int fd, const void *buf, size_t n)
{
    return rw1(IO_WRITE, fd, buf, n, -1);
}

API ssize_t weft_io_pread(int fd, void *buf, size_t n, off_t off)
{
    if (off < 0)
        return fin(-EINVAL);
    return rw1(IO_READ, fd, buf, n, off);
}

API ssize_t weft_io_pwrite(int fd, const void *buf, size_t n, off_t off)
{
    if (off < 0)
        return fin(-EINVAL);
    return rw1(IO_WRITE, fd, buf, n, off);
}

API ssize_t weft_io_readv(int fd, const struct iovec *iov, int cnt)
{
    return rw(IO_READ, fd, iov, cnt, -1);
}

API ssize_t weft_io_writev(int fd, const struct iovec *iov, int cnt)
{
    return rw(IO_WRITE, fd, iov, cnt, -1);
}

API ssize_t weft_io_preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
    if (off < 0)
        return fin(-EINVAL);
    return rw(IO_READ, fd, iov, cnt, off);
}

API ssize_t weft_io_pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
    if (off < 0)
        return fin(-EINVAL);
    return rw(IO_WRITE, fd, iov, cnt, off);
}

static int sync1(int fd, int data)
{
    OP(IO_FSYNC);
    op.fd = fd;
    op.flags = data;
    return (int)fin(run(&op));
}

API int weft_io_fsync(int fd) { return sync1(fd, 0); }
API int weft_io_fdatasync(int fd) { return sync1(fd, 1); }

API int weft_io_ftruncate(int fd, off_t length)
{
    if (length < 0)
        return (int)fin(-EINVAL);
    OP(IO_FTRUNCATE);
    op.fd = fd;
    op.off = length;
    return (int)fin(run(&op));
}

API int weft_io_fallocate(int fd, int mode, off_t offset, off_t len)
{
    OP(IO_FALLOCATE);
    op.fd = fd;
    op.flags = mode;
    op.off = offset;
    op.len = len;
    return (int)fin(run(&op));
}

static int path_op(int kind, const char *p1, const char *p2, mode_t mode)
{
    if (!p1 || (kind == IO_RENAMEAT && !p2))
        return (int)fin(-EFAULT);
    OP(kind);
    op.fd = AT_FDCWD;
    op.path = p1;
    op.path2 = p2;
    op.mode = (int)mode;
    return (int)fin(run(&op));
}

API int weft_io_unlink(const char *path) { return path_op(IO_UNLINKAT, path, NULL, 0); }
API int weft_io_rename(const char *a, const char *b) { return path_op(IO_RENAMEAT, a, b, 0); }
API int weft_io_mkdir(const char *path, mode_t mode)
{
    return path_op(IO_MKDIRAT, path, NULL, mode);
}

API int weft_io_stat(const char *path, struct stat *st)
{
    if (!path || !st)
        return (int)fin(-EFAULT);
    OP(IO_STAT);
    op.fd = AT_FDCWD;
    op.path = path;
    op.st = st;
    return (int)fin(run(&op));
}

API int weft_io_fstat(int fd, struct stat *st)
{
    if (!st)
        return (int)fin(-EFAULT);
    OP(IO_STAT);
    op.fd = fd;
    op.st = st;
    return (int)fin(run(&op));
}

/* ---- sockets ---- */

API int weft_io_socket(int domain, int type, int protocol)
{
    return socket(domain, type, protocol);
}
API int weft_io_bind(int fd, const struct sockaddr *a, socklen_t l) { return bind(fd, a, l); }
API int weft_io_listen(int fd, int backlog) { return listen(fd, backlog); }

API int weft_io_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
    OP(IO_ACCEPT);
    op.fd = fd;
    op.addr = addr;
    op.addrlenp = len;
    op.flags = flags;
    return (int)fin(run(&op));
}

API int weft_io_accept(int fd, struct sockaddr *addr, socklen_t *len)
{
    return weft_io_accept4(fd, addr, len, 0);
}

API int weft_io_connect(int fd, const struct sockaddr *addr, socklen_t len)
{
    OP(IO_CONNECT);
    op.fd = fd;
    op.addr = (struct sockaddr *)addr;
    op.addrlen = len;
    return (int)fin(run(&op));
}

static ssize_t msg1(int kind, int fd, const void *buf, size_t len, int flags)
{
    OP(kind);
    op.fd = fd;
    op.flags = flags;
    op.iov1.iov_base = (void *)buf;
    op.iov1.iov_len = len;
    op.msg1.msg_iov = &op.iov1;
    op.msg1.msg_iovlen = 1;
    op.msg = &op.msg1;
    return fin(run(&op));
}

API ssize_t weft_io_recv(int fd, void *buf, size_t len, int flags)
{
    return msg1(IO_RECVMSG, fd, buf, len, flags);
}

API ssize_t weft_io_send(int fd, const void *buf, size_t len, int flags)
{
    return msg1(IO_SENDMSG, fd, buf, len, flags);
}

static ssize_t msgn(int kind, int fd, const struct msghdr *msg, int flags)
{
    if (!msg)
        return fin(-EFAULT);
    OP(kind);
    op.fd = fd;
    op.flags = flags;
    op.msg = (struct msghdr *)msg;
    return fin(run(&op));
}

API ssize_t weft_io_recvmsg(int fd, struct msghdr *msg, int flags)
{
    return msgn(IO_RECVMSG, fd, msg, flags);
}

API ssize_t weft_io_sendmsg(int fd, const struct msghdr *msg, int flags)
{
    return msgn(IO_SENDMSG, fd, msg, flags);
}

API int weft_io_shutdown(int fd, int how)
{
    OP(IO_SHUTDOWN);
    op.fd = fd;
    op.mode = how;
    return (int)fin(run(&op));
}

API int weft_io_poll(int fd, short events, int timeout_ms)
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
            return (int)fin(poll(NULL, 0, ms) < 0 ? -errno : 0);
        }
        OP(IO_SLEEP);
        op.fd = -1;
        op.deadline = deadline ? deadline : WEFT_IO_FOREVER;
        return (int)fin(run(&op));
    }
    OP(IO_POLL);
    op.fd = fd;
    op.flags = (uint16_t)events;
    op.deadline = deadline;
    return (int)fin(run(&op));
}
