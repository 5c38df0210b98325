/* src/io/uring.c - the io_uring backend: one ring per execution stream, reaped by that
 * stream's scheduler loop through a poll hook (core/sched/poll_hook.h).
 *
 * Model.  A ULT running on stream S takes SQEs from S's ring (created at S's first I/O,
 * found through a thread-local pointer: a stream is one OS thread; when it cannot be made
 * for want of a descriptor or memory, S's ops go to the threads backend and S tries again
 * 100 ms later at the earliest), with user_data = the
 * op, and parks.  Nothing is submitted yet: submissions are batched and sent when S's
 * scheduler checks events (the hook's poll: one io_uring_enter for every op its ULTs
 * prepared since the last), when the SQ (1,024 entries) is full, or when S goes to sleep.
 * Only S's thread touches its ring (the ring is single-issuer), so a completion can
 * never be reaped before its ULT has parked: the op needs no lock.  A deadline is a
 * linked IORING_OP_LINK_TIMEOUT (the op then ends with -ECANCELED, reported as
 * ETIMEDOUT, or 0 for weft_io_poll).
 *
 * Sleeping.  An idle stream sleeps in io_uring_enter waiting for one CQE, with an
 * IORING_OP_FUTEX_WAIT on its idle word (core/sched/idle.h) in the ring: whoever wakes the
 * stream for new work (futex_wake on the word) completes that SQE, and so does nothing
 * else; a completion of an op ends the wait too.  The FUTEX_WAIT stays armed across
 * sleeps until it completes (user_data 1).  liburing 2.3 has no prep helper for it (the
 * kernel has it since 6.7), so the SQE is filled here; a kernel without it makes the
 * stream nap at most 1 ms while ops are in flight instead.
 *
 * Cancellation.  ABT_thread_cancel (any thread) puts the op into the ring's mailbox
 * (a spinlock list) and notifies S's idle word; S's next poll sends IORING_OP_ASYNC_CANCEL
 * for it, before it reaps anything, so the op cannot have been recycled meanwhile.  The
 * reaper unregisters an op (registry.c: no canceller can find it any more) and then takes it
 * out of the mailbox, before waking the ULT.  Operations this kernel's rings cannot do
 * (probed once) go to the threads backend. */
#include "io/io.h"

#include <liburing.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "core/face.h"

#define OP_FUTEX_WAIT 51 /* IORING_OP_FUTEX_WAIT (Linux 6.7) */
#define OP_FTRUNCATE  55 /* IORING_OP_FTRUNCATE (Linux 6.9) */
#define FUTEX2_U32    0x02
#define FUTEX2_PRIV   128
#define UD_IGNORE     0    /* link time-outs, cancel requests */
#define UD_FUTEX      1    /* the stream's idle-word wait */
#define SQ_ENTRIES    1024 /* one poll sends 1,000 connections' receives at once */

struct ring {
    struct io_uring r;
    unsigned unsubmitted; /* SQEs prepared, not yet sent */
    unsigned inflight;    /* ops sent, not yet reaped */
    bool futex_armed;
    bool defer; /* DEFER_TASKRUN: completions are run when we enter for events */
    _Atomic(_Atomic uint32_t *) word; /* the stream's idle word, once it slept here */
    weft_spinlock mlock;
    weft_io_op *mail; /* mlock: ops to cancel (qnext) */
    _Atomic int has_mail;
};

static __thread struct ring *tls_ring;
static pthread_key_t ring_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static bool kind_ok[IO_KINDS];
static bool futex_ok;

static int opcode_of(int kind)
{
    switch (kind) {
    case IO_OPENAT: return IORING_OP_OPENAT;
    case IO_CLOSE: return IORING_OP_CLOSE;
    case IO_READ: return IORING_OP_READV;
    case IO_WRITE: return IORING_OP_WRITEV;
    case IO_FSYNC: return IORING_OP_FSYNC;
    case IO_FTRUNCATE: return OP_FTRUNCATE;
    case IO_FALLOCATE: return IORING_OP_FALLOCATE;
    case IO_UNLINKAT: return IORING_OP_UNLINKAT;
    case IO_RENAMEAT: return IORING_OP_RENAMEAT;
    case IO_MKDIRAT: return IORING_OP_MKDIRAT;
    case IO_STAT: return IORING_OP_STATX;
    case IO_ACCEPT: return IORING_OP_ACCEPT;
    case IO_CONNECT: return IORING_OP_CONNECT;
    case IO_RECVMSG: return IORING_OP_RECVMSG;
    case IO_SENDMSG: return IORING_OP_SENDMSG;
    case IO_SHUTDOWN: return IORING_OP_SHUTDOWN;
    case IO_POLL: return IORING_OP_POLL_ADD;
    case IO_SLEEP: return IORING_OP_TIMEOUT;
    default: return -1;
    }
}

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int probed; /* kind_ok and futex_ok are filled (probe_lock, then release) */
static _Atomic int dead;   /* rings cannot be made in this process after all */

/* Fill kind_ok and futex_ok from ring r; false when r lacks the basic operations. */
static bool probe_with(struct io_uring *r)
{
    struct io_uring_probe *p = io_uring_get_probe_ring(r);
    if (!p)
        return false;
    for (int k = 0; k < IO_KINDS; k++)
        kind_ok[k] = io_uring_opcode_supported(p, opcode_of(k));
    futex_ok = io_uring_opcode_supported(p, OP_FUTEX_WAIT);
    io_uring_free_probe(p);
    return kind_ok[IO_RECVMSG] && kind_ok[IO_READ] && kind_ok[IO_POLL];
}

/* A ring could not be made for lack of a resource that may come back (a descriptor,
 * memory, locked memory): not a reason to give io_uring up for the process. */
static bool transient(int err)
{
    return err == -EMFILE || err == -ENFILE || err == -ENOMEM || err == -EAGAIN;
}

int weft_io_uring_probe(const char **why)
{
    struct io_uring r;
    int rc = io_uring_queue_init(8, &r, 0);
    if (rc < 0) {
        if (transient(rc))
            return 0; /* the first ring a stream makes is probed instead (ring_get) */
        *why = "io_uring_queue_init failed";
        return rc;
    }
    pthread_mutex_lock(&probe_lock);
    bool ok = probe_with(&r);
    weft_atomic_store_release(&probed, 1);
    pthread_mutex_unlock(&probe_lock);
    io_uring_queue_exit(&r);
    if (!ok) {
        *why = "io_uring lacks basic operations";
        return -ENOSYS;
    }
    return 0;
}

bool weft_io_uring_dead(void) { return weft_atomic_load_acquire(&dead) != 0; }

static void ring_free(void *p)
{
    struct ring *rg = p;
    if (!rg)
        return;
    tls_ring = NULL;
    io_uring_queue_exit(&rg->r);
    free(rg);
}

static void key_make(void) { (void)pthread_key_create(&ring_key, ring_free); }

/* When this thread may try to make its ring again (CLOCK_MONOTONIC ns). */
static __thread uint64_t ring_retry_ns;

/* The calling stream's ring, made at its first use; NULL when none can be made now (the
 * caller goes to the threads backend).  A failure for want of a descriptor or memory is
 * retried 100 ms later at the earliest, so a stream out of descriptors gets its ring once
 * one is free and does not pay a failing io_uring_setup per op meanwhile. */
static struct ring *ring_get(void)
{
    struct ring *rg = tls_ring;
    if (WEFT_LIKELY(rg != NULL))
        return rg;
    if (weft_atomic_load_relaxed(&dead))
        return NULL;
    uint64_t now = weft_clock_ns();
    if (now < ring_retry_ns)
        return NULL;
    pthread_once(&key_once, key_make);
    rg = calloc(1, sizeof *rg);
    if (!rg) {
        ring_retry_ns = now + 100000000u;
        return NULL;
    }
    /* Only this thread submits and waits (SINGLE_ISSUER), and completions are run when
     * it enters the kernel to look for them (DEFER_TASKRUN): no interrupt of the stream
     * per completion.  TASKRUN_FLAG marks the SQ when completions are waiting to be run,
     * so the poll knows when to enter.  Older kernels: plain flags. */
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
              IORING_SETUP_TASKRUN_FLAG;
    p.cq_entries = 16384;
    int rc = io_uring_queue_init_params(SQ_ENTRIES, &rg->r, &p);
    if (rc < 0 && !transient(rc)) {
        memset(&p, 0, sizeof p);
        p.flags = IORING_SETUP_CQSIZE;
        p.cq_entries = 16384;
        rc = io_uring_queue_init_params(SQ_ENTRIES, &rg->r, &p);
    }
    if (rc < 0) {
        free(rg);
        ring_retry_ns = now + 100000000u;
        if (!transient(rc) && !weft_atomic_load_acquire(&probed))
            weft_atomic_store_release(&dead, 1); /* never had a ring: threads for good */
        return NULL;
    }
    if (!weft_atomic_load_acquire(&probed)) {
        /* the probe at the backend's choice found no descriptor: probe this ring */
        pthread_mutex_lock(&probe_lock);
        bool ok = true;
        if (!weft_atomic_load_relaxed(&probed)) {
            ok = probe_with(&rg->r);
            if (!ok)
                weft_atomic_store_relaxed(&dead, 1);
            weft_atomic_store_release(&probed, 1);
        }
        pthread_mutex_unlock(&probe_lock);
        if (!ok) {
            io_uring_queue_exit(&rg->r);
            free(rg);
            return NULL;
        }
    }
    rg->defer = (p.flags & IORING_SETUP_DEFER_TASKRUN) != 0;
    tls_ring = rg;
    (void)pthread_setspecific(ring_key, rg);
    return rg;
}

/* At least n free SQEs (sending the batch first if need be); false when the kernel
 * takes none (its CQ overflowing): the caller goes another way. */
static bool sq_room(struct ring *rg, unsigned n)
{
    if (io_uring_sq_space_left(&rg->r) >= n)
        return true;
    io_uring_submit_and_get_events(&rg->r);
    rg->unsubmitted = 0;
    return io_uring_sq_space_left(&rg->r) >= n;
}

/* A free SQE, sq_room having said there is one. */
static __attribute__((returns_nonnull)) struct io_uring_sqe *sqe_get(struct ring *rg)
{
    struct io_uring_sqe *s = io_uring_get_sqe(&rg->r);
    rg->unsubmitted++;
    return s;
}

static void prep(struct io_uring_sqe *s, weft_io_op *op)
{
    switch (op->kind) {
    case IO_OPENAT: io_uring_prep_openat(s, op->fd, op->path, op->flags, (mode_t)op->mode); break;
    case IO_CLOSE: io_uring_prep_close(s, op->fd); break;
    case IO_READ:
        if (op->iovcnt == 1)
            io_uring_prep_read(s, op->fd, op->iov[0].iov_base, (unsigned)op->iov[0].iov_len,
                               (uint64_t)op->off);
        else
            io_uring_prep_readv(s, op->fd, op->iov, (unsigned)op->iovcnt, (uint64_t)op->off);
        break;
    case IO_WRITE:
        if (op->iovcnt == 1)
            io_uring_prep_write(s, op->fd, op->iov[0].iov_base, (unsigned)op->iov[0].iov_len,
                                (uint64_t)op->off);
        else
            io_uring_prep_writev(s, op->fd, op->iov, (unsigned)op->iovcnt, (uint64_t)op->off);
        break;
    case IO_FSYNC: io_uring_prep_fsync(s, op->fd, op->flags ? IORING_FSYNC_DATASYNC : 0); break;
    case IO_FTRUNCATE: io_uring_prep_rw(OP_FTRUNCATE, s, op->fd, NULL, 0, (uint64_t)op->off); break;
    case IO_FALLOCATE:
        io_uring_prep_fallocate(s, op->fd, op->flags, (off_t)op->off, (off_t)op->len);
        break;
    case IO_UNLINKAT: io_uring_prep_unlinkat(s, op->fd, op->path, 0); break;
    case IO_RENAMEAT: io_uring_prep_renameat(s, op->fd, op->path, op->fd, op->path2, 0); break;
    case IO_MKDIRAT: io_uring_prep_mkdirat(s, op->fd, op->path, (mode_t)op->mode); break;
    case IO_STAT:
        if (op->path)
            io_uring_prep_statx(s, AT_FDCWD, op->path, 0, STATX_BASIC_STATS, &op->stx);
        else
            io_uring_prep_statx(s, op->fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &op->stx);
        break;
    case IO_ACCEPT: io_uring_prep_accept(s, op->fd, op->addr, op->addrlenp, op->flags); break;
    case IO_CONNECT: io_uring_prep_connect(s, op->fd, op->addr, op->addrlen); break;
    case IO_RECVMSG:
        if (op->msg == &op->msg1)
            io_uring_prep_recv(s, op->fd, op->iov1.iov_base, op->iov1.iov_len, op->flags);
        else
            io_uring_prep_recvmsg(s, op->fd, op->msg, (unsigned)op->flags);
        break;
    case IO_SENDMSG: {
        int fl = op->flags | (op->ring_try ? MSG_DONTWAIT : 0); /* op.c: the first try */
        if (op->msg == &op->msg1)
            io_uring_prep_send(s, op->fd, op->iov1.iov_base, op->iov1.iov_len, fl);
        else
            io_uring_prep_sendmsg(s, op->fd, op->msg, (unsigned)fl);
        break;
    }
    case IO_SHUTDOWN: io_uring_prep_shutdown(s, op->fd, op->mode); break;
    case IO_POLL: {
        unsigned ev = (uint16_t)op->flags;
        io_uring_prep_poll_add(s, op->fd, ev ? ev : POLLERR | POLLHUP); /* exec.c: events 0 */
        break;
    }
    case IO_SLEEP: io_uring_prep_timeout(s, (struct __kernel_timespec *)&op->ts, 0, 0); break;
    }
    io_uring_sqe_set_data(s, op);
}

static int uring_submit(weft_io_op *op)
{
    struct ring *rg = ring_get();
    if (rg && op->fd >= 0 && op->fd == rg->r.ring_fd && op->kind != IO_SLEEP)
        return -EBADF; /* the caller's fd number was free: our ring took it (io.h) */
    if (!rg || !kind_ok[op->kind] || !sq_room(rg, op->deadline && op->kind != IO_SLEEP ? 2 : 1)) {
        op->ring_try = 0; /* the threads backend makes its own no-wait try */
        return weft_io_threads_submit(op);
    }
    op->owner = rg;
    if (op->deadline) {
        uint64_t now = weft_clock_ns();
        uint64_t left = op->deadline > now ? op->deadline - now : 1;
        op->ts.tv_sec = (int64_t)(left / 1000000000u);
        op->ts.tv_nsec = (long long)(left % 1000000000u);
    }
    struct io_uring_sqe *s = sqe_get(rg);
    prep(s, op);
    if (op->deadline && op->kind != IO_SLEEP) {
        s->flags |= IOSQE_IO_LINK;
        struct io_uring_sqe *t = sqe_get(rg);
        io_uring_prep_link_timeout(t, (struct __kernel_timespec *)&op->ts, 0);
        io_uring_sqe_set_data64(t, UD_IGNORE);
    }
    rg->inflight++;
    /* no io_uring_enter here: the stream's next poll (or its sleep) sends the batch, so
     * the ULTs that run meanwhile add theirs to it (a full SQ is sent by sq_room) */
    return 0;
}

static void stat_from_statx(struct stat *st, const struct statx *x)
{
    memset(st, 0, sizeof *st);
    st->st_dev = makedev(x->stx_dev_major, x->stx_dev_minor);
    st->st_ino = x->stx_ino;
    st->st_mode = x->stx_mode;
    st->st_nlink = x->stx_nlink;
    st->st_uid = x->stx_uid;
    st->st_gid = x->stx_gid;
    st->st_rdev = makedev(x->stx_rdev_major, x->stx_rdev_minor);
    st->st_size = (off_t)x->stx_size;
    st->st_blksize = x->stx_blksize;
    st->st_blocks = (blkcnt_t)x->stx_blocks;
    st->st_atim.tv_sec = x->stx_atime.tv_sec;
    st->st_atim.tv_nsec = x->stx_atime.tv_nsec;
    st->st_mtim.tv_sec = x->stx_mtime.tv_sec;
    st->st_mtim.tv_nsec = x->stx_mtime.tv_nsec;
    st->st_ctim.tv_sec = x->stx_ctime.tv_sec;
    st->st_ctim.tv_nsec = x->stx_ctime.tv_nsec;
}

static void drain_mail(struct ring *rg)
{
    weft_spin_lock(&rg->mlock);
    weft_io_op *m = rg->mail;
    rg->mail = NULL;
    weft_atomic_store_relaxed(&rg->has_mail, 0);
    for (weft_io_op *op = m; op; op = op->qnext)
        op->in_mail = 0;
    weft_spin_unlock(&rg->mlock);
    /* Only this thread reaps, so every op in m is still in flight. */
    for (weft_io_op *op = m, *nx; op; op = nx) {
        nx = op->qnext;
        if (!sq_room(rg, 1)) { /* no SQE now: back to the mailbox, next poll */
            weft_spin_lock(&rg->mlock);
            op->qnext = rg->mail;
            rg->mail = op;
            op->in_mail = 1;
            weft_spin_unlock(&rg->mlock);
            weft_atomic_store_seq_cst(&rg->has_mail, 1);
            continue;
        }
        struct io_uring_sqe *s = sqe_get(rg);
        io_uring_prep_cancel64(s, (uint64_t)(uintptr_t)op, 0);
        io_uring_sqe_set_data64(s, UD_IGNORE);
    }
}

static void reaped(struct ring *rg, struct io_uring_cqe *cqe)
{
    uint64_t ud = cqe->user_data;
    if (ud == UD_IGNORE)
        return;
    if (ud == UD_FUTEX) {
        rg->futex_armed = false;
        return;
    }
    weft_io_op *op = (weft_io_op *)(uintptr_t)ud;
    long res = cqe->res;
    rg->inflight--;
    if (op->kind == IO_STAT && res == 0)
        stat_from_statx(op->st, &op->stx);
    else if (op->kind == IO_SENDMSG && res == -EPIPE && !(op->flags & MSG_NOSIGNAL))
        op->sigpipe = 1; /* the ring sends with MSG_NOSIGNAL always */
    weft_io_unregister(op);
    bool cancelled = weft_atomic_load_acquire(&op->cancel);
    if (cancelled) {
        weft_spin_lock(&rg->mlock);
        if (op->in_mail) {
            weft_io_op **pp = &rg->mail;
            while (*pp != op)
                pp = &(*pp)->qnext;
            *pp = op->qnext;
            op->in_mail = 0;
        }
        weft_spin_unlock(&rg->mlock);
    }
    if (op->kind == IO_SLEEP && res == -ETIME) {
        res = 0; /* its time-out is its completion */
    } else if (res == -ECANCELED && op->deadline && !cancelled) {
        op->timed_out = 1;
        res = weft_io_timeout_res(op);
    }
    op->res = res;
    weft_io_wake(op);
}

static bool ring_poll(void)
{
    struct ring *rg = tls_ring;
    if (!rg)
        return false;
    if (weft_atomic_load_acquire(&rg->has_mail))
        drain_mail(rg);
    bool run_tw = rg->defer && (IO_URING_READ_ONCE(*rg->r.sq.kflags) & IORING_SQ_TASKRUN);
    if (rg->unsubmitted || run_tw || io_uring_cq_has_overflow(&rg->r)) {
        /* send the batch, run deferred completions, flush an overflowed CQ: one enter */
        io_uring_submit_and_get_events(&rg->r);
        rg->unsubmitted = 0;
    }
    unsigned head, n = 0;
    struct io_uring_cqe *cqe;
    bool woke = false;
    io_uring_for_each_cqe(&rg->r, head, cqe)
    {
        n++;
        woke |= cqe->user_data > UD_FUTEX;
        reaped(rg, cqe);
    }
    if (n)
        io_uring_cq_advance(&rg->r, n);
    return woke;
}

static uint64_t ring_idle_ns(void)
{
    struct ring *rg = tls_ring;
    if (!rg || futex_ok || !rg->inflight)
        return UINT64_MAX;
    return 1000000; /* no FUTEX_WAIT: nap, then poll */
}

static bool ring_sleep(_Atomic uint32_t *word, uint64_t timeout_ns)
{
    struct ring *rg = tls_ring;
    if (!rg || !futex_ok)
        return false;
    weft_atomic_store_seq_cst(&rg->word, word);
    if (weft_atomic_load_seq_cst(&rg->has_mail))
        return true; /* a cancel came in: poll first */
    struct __kernel_timespec ts, *tp = NULL;
    if (!rg->futex_armed && !sq_room(rg, 1)) {
        /* no SQE for the futex wait: nap 1 ms in the ring (completions still end it) */
        ts.tv_sec = 0;
        ts.tv_nsec = 1000000;
        struct io_uring_cqe *cqe;
        io_uring_submit_and_wait_timeout(&rg->r, &cqe, 1, &ts, NULL);
        rg->unsubmitted = 0;
        return true;
    }
    if (!rg->futex_armed) {
        struct io_uring_sqe *s = sqe_get(rg);
        /* prep_rw clears every other field (the kernel wants len, futex_flags,
         * buf_index and file_index zero); fd holds the FUTEX2 flags, off (addr2) the
         * value to sleep on */
        io_uring_prep_rw(OP_FUTEX_WAIT, s, FUTEX2_U32 | FUTEX2_PRIV, (const void *)word, 0,
                         WEFT_IDLE_SLEEPING);
        s->addr3 = 0xffffffffu; /* FUTEX_BITSET_MATCH_ANY */
        s->user_data = UD_FUTEX;
        rg->futex_armed = true;
    }
    if (timeout_ns) {
        ts.tv_sec = (long long)(timeout_ns / 1000000000u);
        ts.tv_nsec = (long long)(timeout_ns % 1000000000u);
        tp = &ts;
    }
    struct io_uring_cqe *cqe;
    io_uring_submit_and_wait_timeout(&rg->r, &cqe, 1, tp, NULL);
    rg->unsubmitted = 0;
    return true;
}

void weft_io_uring_atfork_child(void)
{
    /* The ring of the forking thread is the parent's (shared rings, shared fd): forget
     * it; the child's first I/O makes its own.  Its memory is left mapped. */
    tls_ring = NULL;
    ring_retry_ns = 0;
}

static void uring_cancel(weft_io_op *op)
{
    struct ring *rg = op->owner;
    if (!rg) { /* handed to the threads backend */
        weft_io_threads_backend.cancel(op);
        return;
    }
    weft_spin_lock(&rg->mlock);
    if (!op->in_mail) {
        op->qnext = rg->mail;
        rg->mail = op;
        op->in_mail = 1;
    }
    weft_spin_unlock(&rg->mlock);
    weft_atomic_store_seq_cst(&rg->has_mail, 1);
    _Atomic uint32_t *w = weft_atomic_load_seq_cst(&rg->word);
    if (w)
        weft_face_idle_notify(w);
}

const struct weft_poll_hook weft_io_uring_hook = {
    .name = "io_uring",
    .poll = ring_poll,
    .idle_ns = ring_idle_ns,
    .sleep = ring_sleep,
    .cancel = weft_io_hook_cancel,
};

const struct weft_io_backend weft_io_uring_backend = {
    .name = "uring",
    .submit = uring_submit,
    .cancel = uring_cancel,
};
