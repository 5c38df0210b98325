/* src/io/io.h - the I/O face: one operation record, two backends (weft_io.h says what the
 * public calls promise; docs/design/io.md tells the whole story).
 *
 * An operation (weft_io_op) lives on the caller's stack from the call until its
 * completion.  file.c or socket.c fills it from the public call's arguments and op.c
 * runs it:
 *   - an OS-thread caller (external thread, tasklet, scheduler) without a time limit runs
 *     it in place with weft_io_exec_blocking (the plain syscall);
 *   - a ULT, or an OS-thread caller with a time limit, hands it to a backend: uring.c (the
 *     ring of the calling stream) or threads.c (dedicated I/O threads).  The caller waits
 *     on op->w (core/face.h: a ULT parks, an OS thread sleeps on the futex word).
 * The backend sets op->res (>= 0 or -errno) and calls weft_io_complete exactly once.
 *
 * Cancellation registry.  A parked ULT's op is entered in a table keyed by its unit
 * (a few locked buckets) from before it parks until its completion.  ABT_thread_cancel
 * calls our poll hook's `cancel` (core/sched/poll_hook.h); under the bucket lock we flag every
 * op of that unit and ask its backend to cancel it.  weft_io_complete removes the op under
 * the same lock before it wakes the waiter, so a canceller never touches a finished op. */
#ifndef WEFT_IO_IO_H
#define WEFT_IO_IO_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "arch/atomic.h"
#include "arch/spinlock.h"
#include "core/face.h"

enum weft_io_kind {
    IO_OPENAT,
    IO_CLOSE,
    IO_READ,  /* readv/preadv family: iov, iovcnt, off (-1: file position) */
    IO_WRITE, /* writev/pwritev family */
    IO_FSYNC, /* flags: 1 = fdatasync */
    IO_FTRUNCATE,
    IO_FALLOCATE,
    IO_UNLINKAT,
    IO_RENAMEAT,
    IO_MKDIRAT,
    IO_STAT, /* path != NULL: stat(path); else fstat(fd) */
    IO_ACCEPT,
    IO_CONNECT,
    IO_RECVMSG, /* recv/recvmsg: msg */
    IO_SENDMSG, /* send/sendmsg: msg */
    IO_SHUTDOWN,
    IO_POLL,
    IO_SLEEP, /* weft_io_poll of a negative fd: wait for the deadline (or a cancel) only */
    IO_KINDS
};

typedef struct weft_io_op weft_io_op;

struct weft_io_op {
    /* --- the call --- */
    int kind;
    int fd;
    int flags;  /* open/accept4/recv/send flags, fsync datasync, fallocate mode, poll events */
    int mode;   /* open/mkdir mode, shutdown how */
    int iovcnt; /* IO_READ/IO_WRITE */
    const struct iovec *iov;
    int64_t off; /* IO_READ/IO_WRITE offset (-1: position), ftruncate/fallocate */
    int64_t len; /* fallocate length */
    const char *path, *path2;
    struct sockaddr *addr; /* accept: out, connect: in */
    socklen_t *addrlenp;   /* accept */
    socklen_t addrlen;     /* connect */
    struct msghdr *msg;
    struct stat *st;
    struct iovec iov1;  /* read/write/recv/send of one buffer */
    struct msghdr msg1; /* recv/send of one buffer */
    uint64_t deadline;  /* CLOCK_MONOTONIC ns; 0: none */
    /* --- outcome --- */
    long res;           /* >= 0, or -errno; written by the backend before the wake */
    _Atomic int cancel; /* ABT_thread_cancel asked (registry bucket lock) */
    uint8_t timed_out;  /* the deadline passed first (poll: return 0) */
    uint8_t is_ult;     /* waits parked */
    /* --- waiting --- */
    weft_face_waiter w;
    weft_spinlock lock;              /* held from hand-off to park (the post action releases it) */
    weft_unit *unit;                 /* registry key; NULL: not registered */
    weft_io_op *reg_next, *reg_prev; /* registry bucket links (bucket lock) */
    /* --- backend private --- */
    void *owner;               /* uring: the ring; threads: unused */
    weft_io_op *qnext, *qprev; /* threads: queue / armed list; uring: cancel mailbox */
    uint8_t in_mail;           /* uring: in its ring's cancel mailbox (mailbox lock) */
    uint8_t armed;             /* threads: in the epoll set (armed lock) */
    void *fdw;                 /* threads: its fd's waiter entry (armed lock) */
    weft_io_op *fnext, *fprev; /* threads: ops waiting on the same fd (armed lock) */
    uint8_t again;             /* exec_try: a connect in progress */
    uint8_t ring_try;          /* uring: a send sent with MSG_DONTWAIT (op.c retries an
                                * EAGAIN without it when the socket is not O_NONBLOCK) */
    uint8_t sigpipe;           /* uring: a send's EPIPE without MSG_NOSIGNAL (the ring never
                                * signals): op.c raises the SIGPIPE send(2) would have */
    uint32_t events;           /* threads: epoll events it waits for */
    struct statx stx;          /* uring: IO_STAT */
    struct {
        int64_t tv_sec;
        long long tv_nsec;
    } ts; /* uring: linked time-out (struct __kernel_timespec) */
};

/* A backend. */
struct weft_io_backend {
    const char *name;
    /* Take op (the caller then waits on op->w).  Returns 0; -EBADF when op->fd is one of
     * the backend's own descriptors (the caller's number was free, a bad fd, and making
     * the backend in this call took it: the call fails with EBADF, as it would have);
     * or another -errno when the op cannot be started (no descriptor, no memory): the
     * caller then waits for it itself (op.c, run_here). */
    int (*submit)(weft_io_op *op);
    /* op->cancel was just set, registry bucket lock held: make it finish soon. */
    void (*cancel)(weft_io_op *op);
};

extern const struct weft_io_backend weft_io_threads_backend;
extern const struct weft_io_backend weft_io_uring_backend;
/* uring backend: 0 when it can run in this process, else -errno (with a reason). */
int weft_io_uring_probe(const char **why);
/* uring backend: no ring can be made in this process after all (its first ring failed
 * for good, after a probe that had found no descriptor): every op goes to the threads
 * backend, and weft_io_backend() says so. */
bool weft_io_uring_dead(void);
/* The poll hook of the uring backend (registered when it is chosen). */
extern const struct weft_poll_hook weft_io_uring_hook;
/* The hooks' `cancel`: ABT_thread_cancel of unit u (registry.c). */
void weft_io_hook_cancel(weft_unit *u);

/* Run op in the calling OS thread, blocking as the POSIX call would (no deadline). */
long weft_io_exec_blocking(weft_io_op *op);
/* One attempt that does not wait for readiness.  *events != 0: op would block, wait for
 * those poll events and try again; else the return value is op's result (an EAGAIN of an
 * O_NONBLOCK fd or of MSG_DONTWAIT is a result, as in POSIX). */
long weft_io_exec_try(weft_io_op *op, uint32_t *events);
/* A p-read (op->off >= 0) of a file that is not O_DIRECT, tried with RWF_NOWAIT: its
 * result, or -EAGAIN when it would wait (not in the page cache, O_DIRECT, no NOWAIT
 * support): then the backend runs it. */
long weft_io_exec_nowait_read(weft_io_op *op);
/* Threads backend entry for the uring backend's ops its kernel lacks. */
int weft_io_threads_submit(weft_io_op *op);
/* Threads backend: op (a ULT's, op->lock held) was just tried and would block on
 * `events`: arm it in the epoll set from the caller's thread, skipping a worker hand-off
 * (or queue it when it cannot be armed).  0, or -errno as submit. */
int weft_io_threads_arm(weft_io_op *op, uint32_t events);
/* fork(): make the child's first I/O start afresh (backend.c registers these). */
void weft_io_threads_atfork_child(void);
void weft_io_uring_atfork_child(void);

/* Finish op (res set): weft_io_unregister, then weft_io_wake.  The uring backend calls
 * the two steps itself, to take the op out of its cancel mailbox in between. */
void weft_io_complete(weft_io_op *op);
/* Take op out of the cancellation registry: no canceller can reach it afterwards. */
void weft_io_unregister(weft_io_op *op);
/* Wake op's waiter; op must not be touched afterwards. */
void weft_io_wake(weft_io_op *op);

/* The deadline of an IO_SLEEP without a time-out (weft_io_poll(-1, ev, -1)). */
#define WEFT_IO_FOREVER (UINT64_MAX / 2)

/* Deadline-derived outcome: the -errno for a timed-out op. */
static inline long weft_io_timeout_res(const weft_io_op *op)
{
    return op->kind == IO_POLL || op->kind == IO_SLEEP ? 0 : -ETIMEDOUT;
}

#endif
