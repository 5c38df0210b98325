/* src/io/threads.c - the threads backend: the abt-io design (dedicated I/O OS threads run
 * the calls while the caller waits on its core waiter), for kernels or sandboxes without
 * io_uring, and for the operations a ring of this kernel cannot do.
 *
 * Model.  WEFT_IO_THREADS workers (default 4) take ops from one FIFO queue (mutex and
 * condition variable).  A file operation is run blocking by the worker.  An operation
 * that waits for readiness (socket, pipe, poll) is tried once without waiting
 * (exec.c, weft_io_exec_try); if it would block, it is "armed" and the worker moves on,
 * so 10,000 idle connections hold no thread.  Armed ops wait in one epoll set: one entry
 * per fd (struct fdw: the union of the events its ops wait for, EPOLLONESHOT, and the list
 * of those ops, so that several ops may wait on one fd: acceptors of one listener, a
 * reader and a writer of one socket).  A poller thread waits on the set; when an fd fires,
 * its entry is removed and every op on it is queued again, to be retried (an op that
 * still would block is armed again).  The poller also fires deadlines of armed ops (its
 * epoll_wait times out at the earliest one) and finishes armed ops whose ULT was
 * cancelled (the canceller writes an eventfd that is in the set).
 *
 * Protocol.  An op is in exactly one place: the queue (qlock), a worker, or armed
 * (alock: the armed list, through qnext/qprev, and its fd's list, through fnext/fprev);
 * it moves between them under the lock of the place it leaves.  Whoever holds it last
 * completes it (weft_io_complete), after which the op is never touched again.  An fd epoll
 * refuses (EPERM: a regular file, always ready) is run blocking; if no fd entry can be
 * allocated the op waits in its worker with poll in slices of 20 ms that check cancel and
 * the deadline.  An IO_SLEEP (weft_io_poll of a negative fd) is armed on no fd: only its
 * deadline or a cancel takes it off the armed list.
 *
 * Start.  The epoll set, the eventfd, the poller and the workers are made at the first op
 * and, if one of them cannot be made (no descriptor, no thread), by the next op again:
 * the caller meanwhile waits for its op itself (op.c, run_here). */
#include "io/io.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "arch/cpu.h"

#define FDW_BUCKETS 4096

struct fdw {
    int fd;
    uint32_t events;  /* what the epoll entry waits for */
    weft_io_op *ops;  /* armed ops on fd (fnext/fprev) */
    struct fdw *next; /* hash chain */
};

static struct {
    pthread_mutex_t slock; /* starting: the fds and threads below */
    _Atomic int started;   /* epoll set, eventfd, poller and at least one worker exist */
    int nworkers, want;    /* slock */
    bool poller_up;        /* slock */
    pthread_mutex_t qlock;
    pthread_cond_t qcond;
    weft_io_op *qhead, *qtail; /* qlock */
    int epfd, evfd;
    pthread_mutex_t alock;
    weft_io_op *armed;             /* alock: doubly linked through qnext/qprev */
    uint64_t next_deadline;        /* alock: earliest deadline of an armed op, or 0 */
    struct fdw *fdws[FDW_BUCKETS]; /* alock */
    _Atomic int scan;              /* a cancel arrived: the poller scans the armed list */
} T = { .slock = PTHREAD_MUTEX_INITIALIZER,
        .epfd = -1,
        .evfd = -1,
        .qlock = PTHREAD_MUTEX_INITIALIZER,
        .qcond = PTHREAD_COND_INITIALIZER,
        .alock = PTHREAD_MUTEX_INITIALIZER };

static void finish(weft_io_op *op, long res)
{
    op->res = res;
    weft_io_complete(op);
}

static void enqueue(weft_io_op *op)
{
    op->qnext = NULL;
    pthread_mutex_lock(&T.qlock);
    if (T.qtail)
        T.qtail->qnext = op;
    else
        T.qhead = op;
    T.qtail = op;
    pthread_cond_signal(&T.qcond);
    pthread_mutex_unlock(&T.qlock);
}

static void poke(void)
{
    uint64_t one = 1;
    ssize_t r = write(T.evfd, &one, sizeof one);
    (void)r; /* a full counter still wakes the poller */
}

/* ---- fd entries (alock) ---- */

static struct fdw **fdw_slot(int fd)
{
    struct fdw **pp = &T.fdws[(unsigned)fd % FDW_BUCKETS];
    while (*pp && (*pp)->fd != fd)
        pp = &(*pp)->next;
    return pp;
}

/* Remove entry w (and its epoll registration); its ops must be taken off first. */
static void fdw_drop(struct fdw *w)
{
    struct fdw **pp = fdw_slot(w->fd);
    *pp = w->next;
    epoll_ctl(T.epfd, EPOLL_CTL_DEL, w->fd, NULL);
    free(w);
}

/* Take op off the armed list and its fd's list (the entry stays, maybe empty). */
static void unarm(weft_io_op *op)
{
    if (op->qprev)
        op->qprev->qnext = op->qnext;
    else
        T.armed = op->qnext;
    if (op->qnext)
        op->qnext->qprev = op->qprev;
    struct fdw *w = op->fdw;
    if (w) { /* an IO_SLEEP waits on no fd */
        if (op->fprev)
            op->fprev->fnext = op->fnext;
        else
            w->ops = op->fnext;
        if (op->fnext)
            op->fnext->fprev = op->fprev;
    }
    op->armed = 0;
    op->fdw = NULL;
}

/* Arm op for `ev` on its fd: 0, or -errno from epoll (EPERM: a regular file). */
static int arm(weft_io_op *op, uint32_t ev)
{
    if (op->kind == IO_SLEEP) { /* only its deadline (or a cancel) ends it */
        op->fdw = NULL;
        goto listed;
    }
    struct fdw **pp = fdw_slot(op->fd), *w = *pp;
    if (w) {
        uint32_t want = w->events | ev;
        struct epoll_event e = { .events = want | EPOLLONESHOT, .data.ptr = w };
        /* re-arm (ONESHOT may have disabled it); ENOENT: the fd was closed and reused */
        if (epoll_ctl(T.epfd, EPOLL_CTL_MOD, op->fd, &e) < 0 &&
            (errno != ENOENT || epoll_ctl(T.epfd, EPOLL_CTL_ADD, op->fd, &e) < 0))
            return -errno;
        w->events = want;
    } else {
        w = malloc(sizeof *w);
        if (!w)
            return -ENOMEM;
        struct epoll_event e = { .events = ev | EPOLLONESHOT, .data.ptr = w };
        if (epoll_ctl(T.epfd, EPOLL_CTL_ADD, op->fd, &e) < 0) {
            int err = errno;
            free(w);
            return -err;
        }
        w->fd = op->fd;
        w->events = ev;
        w->ops = NULL;
        w->next = NULL;
        *pp = w;
    }
    op->fdw = w;
    op->fprev = NULL;
    op->fnext = w->ops;
    if (w->ops)
        w->ops->fprev = op;
    w->ops = op;
listed:
    op->armed = 1;
    op->qprev = NULL;
    op->qnext = T.armed;
    if (T.armed)
        T.armed->qprev = op;
    T.armed = op;
    return 0;
}

/* No fd entry could be made: wait in this worker, checking cancel and deadline. */
static bool wait_slow(weft_io_op *op, uint32_t events)
{
    for (;;) {
        if (weft_atomic_load_acquire(&op->cancel)) {
            finish(op, -ECANCELED);
            return false;
        }
        if (op->deadline && weft_clock_ns() >= op->deadline) {
            op->timed_out = 1;
            finish(op, weft_io_timeout_res(op));
            return false;
        }
        struct pollfd p = { .fd = op->fd, .events = (short)events };
        if (poll(&p, 1, 20) != 0)
            return true;
    }
}

/* Run one step of op in a worker; it is completed, armed or retried here. */
static void run(weft_io_op *op)
{
    for (;;) {
        if (weft_atomic_load_acquire(&op->cancel)) {
            finish(op, -ECANCELED);
            return;
        }
        /* the try comes first, even past the deadline: an op that is ready when it is
         * looked at completes (poll(2) reports a bad fd or a ready one whatever its
         * time-out), and on a loaded machine a worker may take an op late */
        uint32_t ev = 0;
        if (op->kind != IO_SLEEP) {
            long r = weft_io_exec_try(op, &ev);
            if (!ev) {
                finish(op, r);
                return;
            }
        }
        if (op->deadline && weft_clock_ns() >= op->deadline) {
            op->timed_out = 1;
            finish(op, weft_io_timeout_res(op));
            return;
        }
        pthread_mutex_lock(&T.alock);
        int rc = arm(op, ev);
        if (rc == 0) {
            bool earlier = op->deadline && (!T.next_deadline || op->deadline < T.next_deadline);
            if (earlier)
                T.next_deadline = op->deadline;
            bool cancelled = weft_atomic_load_acquire(&op->cancel);
            if (cancelled)
                weft_atomic_store_release(&T.scan, 1);
            pthread_mutex_unlock(&T.alock); /* op may be finished by the poller from here */
            if (earlier || cancelled)
                poke(); /* the poller's epoll_wait timeout is too long, or it must scan */
            return;
        }
        pthread_mutex_unlock(&T.alock);
        if (rc == -ENOMEM) {
            if (!wait_slow(op, ev))
                return;
            continue;
        }
        /* EPERM: a regular file (always ready); EBADF...: let the call report it */
        finish(op, weft_io_exec_blocking(op));
        return;
    }
}

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&T.qlock);
        while (!T.qhead)
            pthread_cond_wait(&T.qcond, &T.qlock);
        weft_io_op *op = T.qhead;
        T.qhead = op->qnext;
        if (!T.qhead)
            T.qtail = NULL;
        pthread_mutex_unlock(&T.qlock);
        run(op);
    }
    return NULL;
}

static void *poller(void *arg)
{
    (void)arg;
    struct epoll_event evs[128];
    for (;;) {
        int timeout = -1;
        pthread_mutex_lock(&T.alock);
        uint64_t next = T.next_deadline;
        pthread_mutex_unlock(&T.alock);
        if (next) {
            uint64_t now = weft_clock_ns();
            uint64_t ms = next <= now ? 0 : (next - now + 999999) / 1000000;
            timeout = ms > INT32_MAX ? INT32_MAX : (int)ms;
        }
        int n = epoll_wait(T.epfd, evs, 128, timeout);
        weft_io_op *ready = NULL;
        pthread_mutex_lock(&T.alock);
        for (int i = 0; i < n; i++) {
            struct fdw *w = evs[i].data.ptr;
            if (!w) {
                uint64_t v;
                ssize_t r = read(T.evfd, &v, sizeof v);
                (void)r;
                continue;
            }
            /* an entry dropped earlier in this batch cannot be here: each fd has one
             * registration and ONESHOT reports it once */
            while (w->ops) {
                weft_io_op *op = w->ops;
                unarm(op);
                op->qnext = ready;
                ready = op;
            }
            fdw_drop(w);
        }
        /* deadlines and cancels of the ops still armed */
        uint64_t now = weft_clock_ns();
        weft_io_op *dead = NULL;
        if (weft_atomic_exchange_acq_rel(&T.scan, 0) ||
            (T.next_deadline && now >= T.next_deadline)) {
            uint64_t nd = 0;
            for (weft_io_op *op = T.armed, *nx; op; op = nx) {
                nx = op->qnext;
                if (weft_atomic_load_acquire(&op->cancel) ||
                    (op->deadline && now >= op->deadline)) {
                    struct fdw *w = op->fdw;
                    unarm(op);
                    if (w && !w->ops)
                        fdw_drop(w);
                    op->qnext = dead;
                    dead = op;
                } else if (op->deadline && (!nd || op->deadline < nd)) {
                    nd = op->deadline;
                }
            }
            T.next_deadline = nd;
        }
        pthread_mutex_unlock(&T.alock);
        while (ready) {
            weft_io_op *op = ready;
            ready = op->qnext;
            enqueue(op);
        }
        while (dead) {
            weft_io_op *op = dead;
            dead = op->qnext;
            if (weft_atomic_load_acquire(&op->cancel)) {
                finish(op, -ECANCELED);
            } else {
                op->timed_out = 1;
                finish(op, weft_io_timeout_res(op));
            }
        }
    }
    return NULL;
}

static int spawn(void *(*fn)(void *))
{
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&a, 256 * 1024);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* I/O threads take no process signal */
    pthread_t t;
    int rc = pthread_create(&t, &a, fn, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&a);
    return rc;
}

/* Make what is missing of the backend: 0 once it can run ops, else -errno (no
 * descriptor for the epoll set or the eventfd, no thread).  Not final: the next op tries
 * again (a process out of descriptors gets its I/O threads once one is free). */
static int start_slow(void)
{
    pthread_mutex_lock(&T.slock);
    int rc = 0;
    if (weft_atomic_load_acquire(&T.started))
        goto out;
    if (T.epfd < 0 && (T.epfd = epoll_create1(EPOLL_CLOEXEC)) < 0) {
        rc = -errno;
        goto out;
    }
    if (T.evfd < 0) {
        int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (fd < 0) {
            rc = -errno;
            goto out;
        }
        struct epoll_event e = { .events = EPOLLIN, .data.ptr = NULL };
        if (epoll_ctl(T.epfd, EPOLL_CTL_ADD, fd, &e) < 0) {
            rc = -errno;
            close(fd);
            goto out;
        }
        T.evfd = fd;
    }
    if (!T.want) {
        T.want = 4;
        const char *s = getenv("WEFT_IO_THREADS");
        if (s && atoi(s) > 0)
            T.want = atoi(s) > 256 ? 256 : atoi(s);
    }
    if (!T.poller_up) {
        if (spawn(poller) != 0) {
            rc = -EAGAIN;
            goto out;
        }
        T.poller_up = true;
    }
    while (T.nworkers < T.want && spawn(worker) == 0)
        T.nworkers++;
    if (!T.nworkers) {
        rc = -EAGAIN;
        goto out;
    }
    weft_atomic_store_release(&T.started, 1);
out:
    pthread_mutex_unlock(&T.slock);
    return rc;
}

static inline int start(void)
{
    return WEFT_LIKELY(weft_atomic_load_acquire(&T.started)) ? 0 : start_slow();
}

/* op's fd is one of ours: the caller's number was free when it called, and starting the
 * backend took it (io.h, submit) */
static bool ours(const weft_io_op *op)
{
    return op->fd >= 0 && op->kind != IO_SLEEP && (op->fd == T.epfd || op->fd == T.evfd);
}

int weft_io_threads_submit(weft_io_op *op)
{
    int rc = start();
    if (rc < 0)
        return rc;
    if (ours(op))
        return -EBADF;
    enqueue(op);
    return 0;
}

void weft_io_threads_atfork_child(void)
{
    /* The I/O threads did not come along, and the epoll set is the parent's: start
     * afresh at the child's first use (ops of the parent's other threads are gone). */
    if (T.epfd >= 0)
        close(T.epfd);
    if (T.evfd >= 0)
        close(T.evfd);
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    T.slock = m;
    weft_atomic_store_relaxed(&T.started, 0);
    T.nworkers = 0;
    T.poller_up = false;
    T.qlock = m;
    T.alock = m;
    T.qcond = c;
    T.qhead = T.qtail = T.armed = NULL;
    T.next_deadline = 0;
    T.epfd = T.evfd = -1;
    memset(T.fdws, 0, sizeof T.fdws);
    weft_atomic_store_relaxed(&T.scan, 0);
}

int weft_io_threads_arm(weft_io_op *op, uint32_t ev)
{
    int rc = start();
    if (rc < 0)
        return rc;
    if (ours(op))
        return -EBADF;
    pthread_mutex_lock(&T.alock);
    if (arm(op, ev) != 0) {
        pthread_mutex_unlock(&T.alock);
        enqueue(op); /* EPERM, EEXIST on a stale fd, ENOMEM...: a worker sorts it out */
        return 0;
    }
    bool earlier = op->deadline && (!T.next_deadline || op->deadline < T.next_deadline);
    if (earlier)
        T.next_deadline = op->deadline;
    pthread_mutex_unlock(&T.alock); /* the poller may take op from here (op->lock held) */
    if (earlier)
        poke();
    return 0;
}

static void threads_cancel(weft_io_op *op)
{
    (void)op;
    weft_atomic_store_release(&T.scan, 1);
    poke();
}

const struct weft_io_backend weft_io_threads_backend = {
    .name = "threads",
    .submit = weft_io_threads_submit,
    .cancel = threads_cancel,
};
