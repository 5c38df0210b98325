/* src/mpi/layer.h - the internals of libweft-mpi (include/weft_mpi.h): its state, how a
 * call is routed, and the ULT-level wait every interposed blocking call ends in.
 *
 * The model.  A blocking MPI call from a ULT = its nonblocking start (PMPI_I*) + a
 * ULT-level wait (progress.c): test once; if not complete, the request goes into the
 * calling stream's table, the ULT parks (ABT_self_suspend), and the stream's scheduler
 * loop, through the core/sched/poll_hook.h hook, tests every request of its table with one
 * PMPI_Testsome and resumes (ABT_thread_resume) the ULTs whose wait is over.
 *
 * Why the public suspend/resume and not a waiter of core/face.h: a request's wait is
 * found by the poll through the stream's table, not through a waiter object, and
 * ABT_self_suspend / ABT_thread_resume are the same park and wake.  The core functions
 * used are those of core/face.h: weft_poll_hook_add / _eager, and weft_face_self_ult /
 * weft_face_self_on_stream, which every interposed call asks ("am I a ULT?", "am I a
 * stream's thread?"): one call into libweft each, where ABT_self_get_type also checks
 * its argument and translates the answer (docs/scaling.md).
 *
 * Why per stream and lock-free: the table of a stream is touched only by code running on
 * that stream's OS thread - a ULT registering itself before it parks, and the stream's
 * scheduler polling.  Those never run at once, so the table needs no lock or atomic; the
 * table is found through a thread-local pointer (a stream is an OS thread).  A ULT
 * registers on the stream it runs on and may be resumed anywhere (its pool decides).
 *
 * Thread levels and the lock (init.c, docs/design/mpi.md).  The layer asks MPI for
 * the program's own level (FUNNELED raised to SERIALIZED, which costs nothing more in Open
 * MPI or MPICH and lets ULTs of several streams call MPI one at a time).  Below
 * MPI_THREAD_MULTIPLE its lock stays off while only the thread that initialised MPI (the
 * owner) calls MPI through it: wm_g.lockmode WM_LK_OWNER.  The first call from another
 * thread turns it on for good (wm_lock_on, WM_LK_ON): it waits until the owner is out of
 * the PMPI call it may be making (wm_g.owner_inside, counted by the owner around its
 * calls; an asymmetric fence, membarrier(2), spares the owner a fence of its own). */
#ifndef WEFT_MPI_LAYER_H
#define WEFT_MPI_LAYER_H

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <abt.h>

#include <weft.h>

#include "core/face.h"
#include "weft_mpi.h"

#define WM_HIDDEN __attribute__((visibility("hidden")))

/* Life of the layer: MPI not initialised (or not through us yet), running, finalised. */
enum { WM_OFF = 0, WM_ACTIVE = 1, WM_FINALIZED = 2 };

#define WM_DIRECT_ALL ((const void *)1)

/* Who may be inside MPI at once (wm_g.lockmode). */
enum {
    WM_LK_NONE = 0,  /* MPI gave MULTIPLE (or the layer is off or bypassed): never a lock */
    WM_LK_OWNER = 1, /* below MULTIPLE, only the owner has called MPI: no lock */
    WM_LK_ON = 2,    /* below MULTIPLE, a second thread has called MPI: PMPI under `lock` */
};

struct wm_global {
    _Atomic int phase;             /* WM_*; written at init/finalize, read by every call */
    _Atomic int lockmode;          /* WM_LK_*; OWNER -> ON once, by wm_lock_on */
    _Atomic unsigned owner_inside; /* PMPI calls the owner is in while lockmode is OWNER */
    const void *owner;             /* wm_self_mark() of the thread that initialised MPI */
    /* wm_direct's answer in one word: the owner's mark while the layer runs with the lock
     * off, WM_DIRECT_ALL with no lock ever (MULTIPLE, bypass, disabled), else NULL */
    const void *_Atomic direct;
    bool owner_fence;    /* no membarrier(2): the owner's count is a seq_cst RMW */
    bool bypass;         /* WEFT_MPI_BYPASS: the layer passes everything through */
    bool raised;         /* the layer asked MPI for more than the program did */
    int level;           /* the thread level MPI gave the layer */
    int reported;        /* the level the program sees (provided, MPI_Query_thread) */
    unsigned nap_min_ns; /* idle naps of a stream with waiters (WEFT_MPI_NAP_US) */
    unsigned nap_max_ns;
    uint64_t spin_ns;     /* no sleep so long after activity (WEFT_MPI_SPIN_US) */
    uint64_t poll_gap_ns; /* between-units polls at most this often (WEFT_MPI_POLL_GAP_US) */
    long direct_send;     /* MPI_Send of at most this many bytes: PMPI_Send (see p2p.c) */
    pthread_mutex_t lock; /* the serialising lock (WM_LK_ON only) */
};
extern WM_HIDDEN struct wm_global wm_g;

/* A byte per thread whose address names the thread (initial-exec: two instructions). */
extern WM_HIDDEN __thread char wm_mark __attribute__((tls_model("initial-exec")));
static inline const void *wm_self_mark(void) { return &wm_mark; }
/* The same, read through a call: for code that runs after a park or a yield, where a ULT
 * may be on another OS thread and the compiler would reuse the thread pointer it read
 * before (progress.c). */
WM_HIDDEN const void *wm_self_mark_reload(void);

/* A thread other than the owner calls MPI while the lock is off: turn it on, once the
 * owner is out of MPI (init.c). */
WM_HIDDEN void wm_lock_on(void);

/* What a wm_lock holds, for wm_unlock. */
enum { WM_H_NONE, WM_H_OWNER, WM_H_MUTEX };

/* Around every PMPI call the layer makes (and the program's nonblocking ones): nothing
 * with MULTIPLE; the owner's count while the lock is off; else the mutex.  `mark` names
 * the calling thread (wm_self_mark, or wm_self_mark_reload after a possible switch). */
static inline __attribute__((always_inline)) int wm_lock_as(const void *(*mark)(void))
{
    int m = atomic_load_explicit(&wm_g.lockmode, memory_order_relaxed);
    if (m == WM_LK_NONE)
        return WM_H_NONE;
    if (m == WM_LK_OWNER) {
        if (wm_g.owner == mark()) {
            if (__builtin_expect(wm_g.owner_fence, 0)) {
                atomic_fetch_add_explicit(&wm_g.owner_inside, 1, memory_order_seq_cst);
                if (atomic_load_explicit(&wm_g.lockmode, memory_order_seq_cst) == WM_LK_OWNER)
                    return WM_H_OWNER;
            } else {
                /* only the owner writes the count: no RMW; wm_lock_on's membarrier orders
                 * this store before the load below as a fence here would */
                unsigned v = atomic_load_explicit(&wm_g.owner_inside, memory_order_relaxed);
                atomic_store_explicit(&wm_g.owner_inside, v + 1, memory_order_relaxed);
                atomic_signal_fence(memory_order_seq_cst);
                if (atomic_load_explicit(&wm_g.lockmode, memory_order_relaxed) == WM_LK_OWNER)
                    return WM_H_OWNER;
            }
            /* the lock went on meanwhile: out again, and take it */
            atomic_fetch_sub_explicit(&wm_g.owner_inside, 1, memory_order_release);
        } else {
            wm_lock_on();
        }
    }
    pthread_mutex_lock(&wm_g.lock);
    return WM_H_MUTEX;
}
static inline int wm_lock(void) { return wm_lock_as(wm_self_mark); }
static inline int wm_lock_moved(void) { return wm_lock_as(wm_self_mark_reload); }
static inline void wm_unlock(int h)
{
    if (h == WM_H_OWNER) {
        unsigned v = atomic_load_explicit(&wm_g.owner_inside, memory_order_relaxed);
        atomic_store_explicit(&wm_g.owner_inside, v - 1, memory_order_release);
    } else if (h == WM_H_MUTEX) {
        pthread_mutex_unlock(&wm_g.lock);
    }
}

/* How a call is carried out (wm_route). */
enum wm_route {
    WM_DIRECT, /* straight to the blocking PMPI call */
    WM_LOCKED, /* the blocking PMPI call under the lock (lock on, weft not running) */
    WM_SPIN,   /* nonblocking + test loop dropping the lock (below MULTIPLE, not a ULT) */
    WM_ULT,    /* nonblocking + park: the point of the layer */
};

/* Set the layer up from what MPI says (MPI initialised behind our back); the route. */
WM_HIDDEN enum wm_route wm_route_slow(void);
/* The route of a caller that is not a running ULT by weft_face_self_ult (init.c): what
 * ABT_self_get_type says (a tasklet, a scheduler, an external thread, weft not running). */
WM_HIDDEN enum wm_route wm_route_other(void);

static inline enum wm_route wm_route(void)
{
    if (__builtin_expect(atomic_load_explicit(&wm_g.phase, memory_order_acquire) != WM_ACTIVE, 0))
        return wm_route_slow();
    if (wm_g.bypass)
        return WM_DIRECT;
    if (__builtin_expect(weft_face_self_ult() != NULL, 1))
        return WM_ULT; /* the unit its stream runs, a ULT: what ABT_self_get_type says too */
    if (!weft_face_self_on_stream()) {
        /* not a stream's thread (no ULT, or weft not running): MPI's own call, with no
         * lock to take or to turn on - MPI_THREAD_MULTIPLE, or the owner while it is off */
        int m = atomic_load_explicit(&wm_g.lockmode, memory_order_relaxed);
        if (m == WM_LK_NONE || (m == WM_LK_OWNER && wm_g.owner == wm_self_mark()))
            return WM_DIRECT;
    }
    return wm_route_other();
}

/* The caller gets MPI's own call and nothing else: it is not a stream's thread, and there
 * is no lock to take or to turn on (MPI_THREAD_MULTIPLE, or the owner while the lock is
 * off).  Every interposed function tests this first and then jumps to PMPI itself: in a
 * program whose ULTs never call MPI this is all the layer does (p2p.c, coll.c). */
static inline bool wm_direct(void)
{
    const void *d = atomic_load_explicit(&wm_g.direct, memory_order_relaxed);
    return (d == wm_self_mark() || d == WM_DIRECT_ALL) && !weft_face_self_on_stream();
}

/* Start the layer after PMPI_Init_thread gave `provided` (init.c). */
WM_HIDDEN void wm_start(int provided);

/* ---- the wait (progress.c) ----
 * Wait for the requests started by an interposed call, as `route` says (WM_ULT parks,
 * WM_SPIN tests and drops the lock in between; the others are not valid here).
 *   wm_wait_one: one request, MPI_Wait's result (status's MPI_ERROR left alone).
 *   wm_wait_all: MPI_Waitall's (MPI_ERR_IN_STATUS when one failed).
 *   wm_wait_any: MPI_Waitany's.
 *   wm_probe:    MPI_Probe's, by polling PMPI_Iprobe. */
WM_HIDDEN int wm_wait_one(enum wm_route route, MPI_Request *req, MPI_Status *status);
WM_HIDDEN int wm_wait_all(enum wm_route route, int n, MPI_Request *reqs, MPI_Status *statuses);
/* wm_wait_one for a request the caller just started under wm_lock, still held (h): the
 * first test is made under the same hold (one lock round trip less per call below
 * MPI_THREAD_MULTIPLE, where MPI_Recv is Irecv + Test); rc is the start's result.  Returns
 * with the lock released. */
WM_HIDDEN int wm_start_wait_one(enum wm_route route, int h, int rc, MPI_Request *req,
                                MPI_Status *status);
WM_HIDDEN int wm_wait_any(enum wm_route route, int n, MPI_Request *reqs, int *index,
                          MPI_Status *status);
WM_HIDDEN int wm_probe(enum wm_route route, int source, int tag, MPI_Comm comm, MPI_Status *status);

/* Count a send passed straight to PMPI_Send (weft_mpi_stats.direct). */
WM_HIDDEN void wm_count_direct(void);

/* Register the poll hook with core (progress.c); false when core's hook table is full. */
WM_HIDDEN bool wm_progress_start(void);

/* The pattern of every interposed call:
 *     enum wm_route r = wm_route();
 *     if (r <= WM_LOCKED) { int h = wm_enter(r); return wm_leave(h, PMPI_Bcast(...)); }
 *     int h = wm_lock(); rc = PMPI_Ibcast(..., &q); wm_unlock(h);
 *     return wm_finish(r, rc, &q);                                                       */
/* Where MPI gave MPI_THREAD_MULTIPLE, the blocking PMPI call is announced to weft
 * (weft_blocking_begin/end: a spare serves the caller's stream while it blocks; a no-op
 * for an external thread): the units the spare runs may call MPI meanwhile, which only
 * that level allows.  Below it, the call holds its stream, as MPI's rules want. */
static inline int wm_enter(enum wm_route r)
{
    int h = r == WM_LOCKED ? wm_lock() : WM_H_NONE;
    if (wm_g.level == MPI_THREAD_MULTIPLE)
        weft_blocking_begin();
    return h;
}
static inline int wm_leave(int h, int rc)
{
    if (wm_g.level == MPI_THREAD_MULTIPLE)
        weft_blocking_end();
    wm_unlock(h);
    return rc;
}
/* rc of a nonblocking start, then the wait for its request. */
static inline int wm_finish(enum wm_route r, int rc, MPI_Request *q)
{
    return rc != MPI_SUCCESS ? rc : wm_wait_one(r, q, MPI_STATUS_IGNORE);
}

#endif
