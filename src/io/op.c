/* src/io/op.c - running an op: the way its caller can wait (in place, a no-wait try
 * first, or handed to the backend), its deadline from the caller's time-out, the wait
 * itself, and the completion the backends call.
 *
 * Waiting protocol of a ULT.  It takes op->lock, hands op to the backend, enters op in the
 * registry (registry.c), and parks with weft_face_wait_block(&op->w, &op->lock): the lock is
 * released once it has left its stack.  A backend that completes op on another thread
 * (threads.c) takes and drops op->lock before the wake, so it never wakes a ULT still on
 * its stack, and it never unregisters an op before the ULT has registered it.  The uring
 * backend completes op on the ULT's own stream, necessarily after the park. */
#include "io/op.h"

#include <weft.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <abt.h>

#include "arch/cpu.h"
#include "weft_io.h"

void weft_io_wake(weft_io_op *op) { weft_face_waiter_wake(&op->w); }

void weft_io_complete(weft_io_op *op)
{
    /* the waiter has left its stack (ULT) or is about to sleep on its futex word */
    weft_spin_lock(&op->lock);
    weft_spin_unlock(&op->lock);
    weft_io_unregister(op);
    weft_io_wake(op);
}

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
         * An EAGAIN (no room) comes back to weft_io_run(), which checks O_NONBLOCK then and sends
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
        /* the calls below may block the OS thread (a file read, the poll): announced, so
         * that a spare serves the caller's stream meanwhile (weft_blocking_begin) */
        if (op->kind != IO_SLEEP && !ev) { /* tried before the deadline is looked at */
            if (u)
                weft_blocking_begin();
            long r = weft_io_exec_try(op, &ev);
            if (u)
                weft_blocking_end();
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
        if (u)
            weft_blocking_begin();
        if (op->kind == IO_SLEEP) {
            poll(NULL, 0, slice);
        } else {
            struct pollfd p = { .fd = op->fd, .events = (short)ev };
            if (poll(&p, 1, slice) > 0)
                ev = 0;
        }
        if (u) {
            weft_blocking_end();
            ABT_thread_yield();
        }
    }
}

long weft_io_run(weft_io_op *op)
{
    const struct weft_io_backend *b = weft_io_be();
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
        weft_io_register(op, u);
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
__attribute__((noinline)) void weft_io_set_errno(int e) { errno = e; }
