/* src/pthread/face.h - what the files of the Pthreads layer share (libweft-pthread).
 *
 * The layer (docs/design/pthread.md) defines the pthread_* functions a
 * program calls; interposed (LD_PRELOAD) or linked first (-lweft-pthread), they run the
 * program's threads as weft ULTs.  It speaks to weft only through abt.h.
 *
 * Who gets which implementation.  One thread-local word, `internal`, is 1 while the OS
 * thread runs weft itself and 0 while it runs the program:
 *   - every OS thread weft creates (its execution streams) starts with internal = 1 (our
 *     pthread_create sees internal = 1, creates a real OS thread through a start trampoline
 *     that sets it);
 *   - a ULT's trampoline clears it before the program's start routine and sets it after;
 *   - every call this layer makes into weft is bracketed by pth_enter() / pth_leave(),
 *     which re-read the thread-local word after the call (a ULT may come back on another
 *     stream).
 * Each interposed function first asks pth_internal(): when set, the call came from weft
 * (directly, or through glibc or a sanitizer interceptor) and goes to the real function
 * (dlsym(RTLD_NEXT)).  So weft's own streams, locks, keys and once-controls are glibc's,
 * and the program's are ours whatever thread calls them: an external thread (one that is
 * not a ULT) locking a program mutex shared with ULTs uses the same object protocol and
 * sleeps on a futex inside weft.  Thread creation, pthread_self and pthread_exit depend on
 * the caller: from a thread that is not a ULT they are the real ones.
 *
 * Thread ids.  A ULT's pthread_t is the address of its `pth_thread` record with the record's
 * generation in the top 16 bits (never 0), which a glibc thread id (a user-space address)
 * never has: functions taking a pthread_t tell ours from real ones by the tag, and a stale
 * id (its thread joined, or detached and finished, its record recycled) by a generation
 * that no longer matches: ESRCH.  Records are never freed, only recycled, so reading
 * one through a stale id is safe.
 *
 * Object layouts.  The program's pthread_mutex_t, pthread_cond_t, ... are its memory with
 * glibc's size; each file overlays its own struct (checked by _Static_assert against the
 * glibc type) whose all-zero state is the static initialiser, and which keeps glibc's
 * `__kind` field where the mutex initialisers write the type.  The weft objects behind
 * them are created on first use. */
#ifndef WEFT_PTHREAD_FACE_H
#define WEFT_PTHREAD_FACE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#include <abt.h>

#include "arch/atomic.h"
#include "arch/compiler.h"

/* An interposed definition: exported from the library, hidden everywhere else. */
#define PTH_API __attribute__((visibility("default")))
/* Export `name` also as weft_<name>: the names include/weft_pthread.h gives a program
 * that must reach the layer past another interposer (a sanitizer runtime). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmissing-attributes" /* glibc's nothrow/leaf: same code */
#endif
#define PTH_ALIAS(name) \
    extern __typeof__(name) weft_##name __attribute__((alias(#name), visibility("default")));

/* ---- the real functions (real.c) ---- */
/* glibc's, declared by no header: pthread_atfork (libc_nonshared.a, linked into each
 * object) calls it with the object's __dso_handle; each object's destructor calls
 * __cxa_finalize, which drops that object's fork handlers. */
extern int __register_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void),
                             void *dso);
extern void __cxa_finalize(void *dso);

/* clang-format off */
#define PTH_REAL_NAMES(X) \
    X(pthread_create) X(pthread_join) X(pthread_tryjoin_np) X(pthread_timedjoin_np) \
    X(pthread_detach) X(pthread_exit) X(pthread_self) X(pthread_equal) X(sched_yield) \
    X(pthread_getattr_np) X(pthread_kill) X(pthread_cancel) X(pthread_setname_np) \
    X(pthread_getname_np) X(pthread_getschedparam) X(pthread_setschedparam) \
    X(pthread_setschedprio) X(pthread_getcpuclockid) X(pthread_setaffinity_np) \
    X(pthread_getaffinity_np) X(pthread_sigqueue) X(pthread_once) X(pthread_key_create) \
    X(pthread_key_delete) X(pthread_getspecific) X(pthread_setspecific) X(pthread_mutex_init) \
    X(pthread_mutex_destroy) X(pthread_mutex_lock) X(pthread_mutex_trylock) \
    X(pthread_mutex_timedlock) X(pthread_mutex_clocklock) X(pthread_mutex_unlock) \
    X(pthread_mutex_consistent) X(pthread_cond_init) X(pthread_cond_destroy) \
    X(pthread_cond_wait) X(pthread_cond_timedwait) X(pthread_cond_clockwait) \
    X(pthread_cond_signal) X(pthread_cond_broadcast) X(pthread_rwlock_init) \
    X(pthread_rwlock_destroy) X(pthread_rwlock_rdlock) X(pthread_rwlock_tryrdlock) \
    X(pthread_rwlock_timedrdlock) X(pthread_rwlock_clockrdlock) X(pthread_rwlock_wrlock) \
    X(pthread_rwlock_trywrlock) X(pthread_rwlock_timedwrlock) X(pthread_rwlock_clockwrlock) \
    X(pthread_rwlock_unlock) X(pthread_barrier_init) X(pthread_barrier_destroy) \
    X(pthread_barrier_wait) X(pthread_spin_init) X(pthread_spin_destroy) X(pthread_spin_lock) \
    X(pthread_spin_trylock) X(pthread_spin_unlock) X(fork) X(__register_atfork) \
    X(__cxa_finalize) X(pthread_sigmask) X(sigprocmask) PTH_BLOCKING_NAMES(X)
/* The blocking calls (blocking.c, sleep.c). */
#define PTH_BLOCKING_NAMES(X) \
    X(read) X(write) X(pread) X(pwrite) X(pread64) X(pwrite64) X(readv) X(writev) X(preadv) \
    X(pwritev) X(preadv64) X(pwritev64) X(preadv2) X(pwritev2) X(preadv64v2) X(pwritev64v2) \
    X(recv) X(recvfrom) X(recvmsg) X(recvmmsg) X(send) X(sendto) X(sendmsg) X(sendmmsg) \
    X(accept) X(accept4) X(connect) X(poll) X(ppoll) X(select) X(pselect) X(epoll_wait) \
    X(epoll_pwait) X(epoll_pwait2) X(nanosleep) X(clock_nanosleep) X(sleep) X(usleep) \
    X(pause) X(sigsuspend) X(sigwait) X(sigwaitinfo) X(sigtimedwait) X(wait) X(waitpid) \
    X(wait3) X(wait4) X(waitid) X(fsync) X(fdatasync) X(flock) X(fcntl) X(fcntl64) \
    X(__read_chk) X(__pread_chk) X(__pread64_chk) X(__recv_chk) X(__recvfrom_chk) \
    X(__poll_chk) X(__ppoll_chk)
/* clang-format on */

enum pth_real_id {
#define PTH_ENUM(n) PTH_R_##n,
    PTH_REAL_NAMES(PTH_ENUM)
#undef PTH_ENUM
        PTH_R_COUNT
};

extern WEFT_INTERNAL void *_Atomic pth_real_tab[PTH_R_COUNT];
/* Resolve the real function `id` (dlsym(RTLD_NEXT)); aborts with a message when a
 * function the layer cannot do without is missing, returns NULL for an optional one. */
WEFT_INTERNAL void *pth_real_resolve(enum pth_real_id id);

static inline void *pth_real_fn(enum pth_real_id id)
{
    void *p = weft_atomic_load_relaxed(&pth_real_tab[id]);
    return WEFT_LIKELY(p != NULL) ? p : pth_real_resolve(id);
}
/* The real function `name`, typed as its declaration. */
#define pth_real(name) ((__typeof__(&name))pth_real_fn(PTH_R_##name))

/* ---- who is calling (real.c) ----
 * noinline: the word is thread-local and a ULT may change OS thread across any call into
 * weft, so its address must not be computed once and reused by the compiler. */
WEFT_INTERNAL int pth_internal(void) __attribute__((noinline));
WEFT_INTERNAL void pth_set_internal(int v) __attribute__((noinline));
static inline void pth_enter(void) { pth_set_internal(1); }
/* errno of the OS thread that runs the caller now (errno is per OS thread, and the
 * compiler may keep its address across a call that moves a ULT to another stream:
 * __errno_location is "const"). */
WEFT_INTERNAL int pth_get_errno(void) __attribute__((noinline));
WEFT_INTERNAL void pth_set_errno(int e) __attribute__((noinline));
/* Signals sent to a ULT that did not run (signal.c): how many wait, over all threads, plus
 * one for good once the program changed its threads' signal mask.  A ULT takes its own
 * signals, and its stream the program's mask, when it comes back into its program code
 * from weft (pth_leave). */
extern WEFT_INTERNAL _Atomic int pth_sig_waiting;
WEFT_INTERNAL void pth_sig_deliver(void);
/* Make every pth_leave look from now on (threads: at its thread too, a child of fork). */
WEFT_INTERNAL void pth_sig_attend(bool threads);
static inline void pth_leave(void)
{
    pth_set_internal(0);
    if (WEFT_UNLIKELY(weft_atomic_load_relaxed(&pth_sig_waiting) != 0))
        pth_sig_deliver();
}
/* pth_leave after a weft call that never switches the caller away (an unlock, a condition
 * signal, a trylock): it ran all along, so nothing was held for it meanwhile (signal.c). */
static inline void pth_leave_running(void) { pth_set_internal(0); }

/* ---- the runtime (runtime.c) ---- */
#define PTH_MAGIC 0x7765667470746872ull /* "weftpthr" */

struct pth_values; /* key.c */

/* One program thread run as a ULT (or the main thread, run as the primary ULT).
 * `state` is the join protocol (runtime.c); the rest is written by the thread itself
 * until it finishes, then read by its joiner or reaper.  Records are recycled, never
 * freed (runtime.c). */
typedef struct pth_thread {
    uint64_t magic;         /* PTH_MAGIC, for the life of the process */
    ABT_thread ult;         /* its ULT (the main thread: the primary ULT, once it runs) */
    void *(*start)(void *); /* the program's start routine and argument */
    void *arg;
    void *ret;                    /* its return value / pthread_exit value */
    _Atomic unsigned state;       /* generation << 16 | PTH_F_* bits (runtime.c) */
    size_t stacksize;             /* its stack size (pthread_getattr_np) */
    struct pth_values *values;    /* pthread_setspecific values, NULL if none */
    struct pth_cleanup *cleanup;  /* pthread_cleanup_push stack (cleanup.c) */
    struct pth_thread *reap_next; /* detached and finished: the reap list; free: free list */
    struct pth_thread *all_next;  /* every record (they are never freed, and ids are tagged:
                                     this keeps them reachable for leak checkers) */
    _Atomic uint64_t sigpending;  /* signals waiting for it to run: bit sig - 1 (signal.c) */
    _Atomic uint64_t sigqueued;   /* of those, sent by pthread_sigqueue with sigval[sig - 1] */
    union sigval sigval[64];
    unsigned epoch; /* the fork generation it belongs to (runtime.c) */
    /* Blocking calls (blocking.c, sleep.c): the OS thread it blocks in a system call on
     * (0: none), for signals; while it sleeps parked (sleep.c), the signals sent to it
     * that run a handler, bit sig - 1 (signal.c sets them, the sleep returns EINTR). */
    _Atomic pthread_t blocked_os;
    _Atomic bool sleeping;
    _Atomic uint64_t sleep_sigs;
    char name[16]; /* pthread_setname_np */
} pth_thread;

enum {
    PTH_F_DETACHED = 1,  /* pthread_detach or a detached attribute */
    PTH_F_FINISHED = 2,  /* the thread returned or called pthread_exit */
    PTH_F_PUBLISHED = 4, /* the creator stored `ult` */
    PTH_F_JOINING = 8,   /* a joiner claimed it */
    PTH_F_MASK = 0xffff, /* the flags; the generation is above */
};
#define PTH_GEN_SHIFT 16
#define PTH_ID_SHIFT  48

/* The id of a record (its current generation). */
static inline pthread_t pth_id(pth_thread *r)
{
    unsigned gen = weft_atomic_load_relaxed(&r->state) >> PTH_GEN_SHIFT;
    return (pthread_t)(((uintptr_t)gen << PTH_ID_SHIFT) | (uintptr_t)r);
}
/* A pthread_t of ours (tagged), as opposed to a real (glibc) thread id. */
static inline bool pth_is_ours(pthread_t t) { return (t >> PTH_ID_SHIFT) != 0; }
/* The record an id of ours names while it is live, NULL when stale (ESRCH): the thread
 * was joined, or was detached and has been reaped. */
static inline pth_thread *pth_live(pthread_t t)
{
    pth_thread *r = (pth_thread *)(t & (((uintptr_t)1 << PTH_ID_SHIFT) - 1));
    if (r->magic != PTH_MAGIC)
        return NULL;
    unsigned gen = weft_atomic_load_acquire(&r->state) >> PTH_GEN_SHIFT;
    return gen == (unsigned)(t >> PTH_ID_SHIFT) ? r : NULL;
}

/* Make sure the runtime runs (the constructor normally did it); false when it could not
 * start (the message was printed) and the caller must fall back to the real function. */
WEFT_INTERNAL bool pth_ready(void);
/* The runtime runs (without starting it). */
WEFT_INTERNAL bool pth_started(void);
/* The calling ULT's record, NULL when the caller is not one of our ULTs. */
WEFT_INTERNAL pth_thread *pth_self(void);
/* Records: taken for a new thread (NULL when out of memory), given back once its thread
 * is joined or reaped (its generation moves on: old ids become stale); the lock of the
 * free list, held across fork (fork.c). */
WEFT_INTERNAL void pth_records_lock(void);
WEFT_INTERNAL void pth_records_unlock(void);
/* In the child of fork: the record lock is free again, one stream is left, and the
 * parent's other threads never run program code again (runtime.c). */
WEFT_INTERNAL void pth_after_fork_child(void);
/* A thread of the parent that a child of fork woke (pth_leave): it ends at once. */
WEFT_INTERNAL void pth_ghost_check(pth_thread *self);
/* An identity of the caller for lock ownership: its record, or a per-OS-thread address
 * for a thread that is not one of our ULTs. */
WEFT_INTERNAL const void *pth_identity(void);
/* Yield the caller: a ULT yields to its stream, another thread to the kernel. */
WEFT_INTERNAL void pth_yield(void);
/* Finish the calling thread: store ret and run the key destructors. */
WEFT_INTERNAL void pth_finish(pth_thread *self, void *ret);
/* The end of pthread_exit after the cleanup handlers: destructors, then the ULT ends (the
 * main thread: the process exits once no program thread is left). */
WEFT_INTERNAL __attribute__((noreturn)) void pth_exit_rest(pth_thread *self);

/* ---- signals (signal.c) ---- */
/* Streams' OS threads, for signals to a ULT that runs on one (rank: the stream's). */
/* (xs: the stream's handle.  A spare OS thread that weft hands a stream to carries that
 * stream's rank under a handle of its own: a ULT running there is not on `os_thread`.) */
WEFT_INTERNAL void pth_sig_stream(int rank, pthread_t os_thread, ABT_xstream xs);
/* n streams run; how many of them have no OS thread recorded yet (a ULT starting on one
 * records it: pth_sig_stream_self). */
WEFT_INTERNAL void pth_sig_streams(int n);
extern WEFT_INTERNAL _Atomic int pth_streams_unknown;
WEFT_INTERNAL void pth_sig_stream_self(void);
/* In the child of fork: only the forking thread's stream remains. */
WEFT_INTERNAL void pth_sig_fork_child(int rank);

/* The disposition of sig is a handler of the program's (not SIG_DFL, not SIG_IGN). */
WEFT_INTERNAL bool pth_sig_handles(int sig);
/* Of the signals `bits` (bit sig - 1), those the calling OS thread does not block. */
WEFT_INTERNAL uint64_t pth_sig_unblocked(uint64_t bits);

/* ---- blocking calls (blocking.c) ---- */
/* The caller, when it is one of our ULTs and the runtime runs (NULL: an external thread,
 * or no runtime: the call goes straight to the real function). */
WEFT_INTERNAL pth_thread *pth_block_self(void);
/* Bracket a call that may block the OS thread: weft_blocking_begin/end, and the OS thread
 * recorded for signals.  pth_block_end keeps errno.  The caller's word is clear between
 * them (a signal handler that runs in the call is program code). */
WEFT_INTERNAL pthread_t pth_block_begin(pth_thread *self, bool *began);
WEFT_INTERNAL void pth_block_end(pth_thread *self, pthread_t prev, bool began);

/* The fortified entry points (glibc's fortify headers declare them only under _FORTIFY_SOURCE). */
extern ssize_t __read_chk(int fd, void *buf, size_t nbytes, size_t buflen);
extern ssize_t __pread_chk(int fd, void *buf, size_t nbytes, off_t offset, size_t buflen);
extern ssize_t __pread64_chk(int fd, void *buf, size_t nbytes, off64_t offset, size_t buflen);
extern ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags);
extern ssize_t __recvfrom_chk(int fd, void *restrict buf, size_t n, size_t buflen, int flags,
                              __SOCKADDR_ARG addr, socklen_t *restrict addr_len);
extern int __poll_chk(struct pollfd *fds, nfds_t nfds, int timeout, size_t fdslen);
extern int __ppoll_chk(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout,
                       const sigset_t *ss, size_t fdslen);

/* ---- keys (key.c) ---- */
/* Run the destructors of the values of a finishing thread and free them. */
WEFT_INTERNAL void pth_values_destroy(struct pth_values **values);
/* Create the real key that carries the values of threads that are not ULTs. */
WEFT_INTERNAL int pth_keys_init(void);

/* ---- cleanup handlers (cleanup.c) ---- */
/* Run the pending pthread_cleanup_push handlers of a ULT that calls pthread_exit (its
 * `ret` is stored): jumps into the innermost one and, after the last, calls
 * pth_exit_rest; returns only when there is none. */
WEFT_INTERNAL void pth_cleanup_unwind(pth_thread *self);

/* ---- helpers for the sync objects ---- */
/* The address of the memory a weft handle names, for leak checkers only: weft's handles
 * of objects it allocates carry a generation tag in their top 16 bits (sync/objmem.h), so
 * a pthread object that is never destroyed (a static one: legal) would hold no pointer a
 * leak checker recognises.  Stored beside the handle, it makes the object "reachable",
 * which it is.  Never dereferenced. */
static inline void *pth_reach(const void *handle)
{
    return (void *)((uintptr_t)handle & (((uintptr_t)1 << 48) - 1));
}

/* Map an ABT error to an errno value. */
static inline int pth_errno(int abt_err)
{
    switch (abt_err) {
    case ABT_SUCCESS: return 0;
    case ABT_ERR_MEM: return ENOMEM;
    case ABT_ERR_COND_TIMEDOUT: return ETIMEDOUT;
    case ABT_ERR_MUTEX_LOCKED: return EBUSY;
    default: return EINVAL;
    }
}
/* This shared object's handle (the C runtime defines it, hidden, in every object): the
 * identity the layer registers its own fork handlers with. */
extern void *__dso_handle __attribute__((visibility("hidden")));

/* An absolute time on `clock` converted to CLOCK_REALTIME (weft's timed waits use it). */
WEFT_INTERNAL struct timespec pth_to_realtime(clockid_t clock, const struct timespec *abs);
/* abs (on CLOCK_REALTIME) has passed. */
WEFT_INTERNAL bool pth_passed(const struct timespec *abs_rt);
/* Valid timespec (tv_nsec in [0, 1e9)). */
static inline bool pth_ts_valid(const struct timespec *t)
{
    return t && t->tv_nsec >= 0 && t->tv_nsec < 1000000000L;
}

#endif
