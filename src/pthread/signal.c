/* src/pthread/signal.c - pthread_kill and pthread_sigqueue of a program thread run as a ULT.
 *
 * The mask.  A ULT has no OS thread of its own: it runs on whichever stream takes it, and
 * its signal mask is that stream's.  So the program's threads share one mask:
 * pthread_sigmask or sigprocmask from a ULT changes it (and returns the previous one) and
 * sets it on the caller's stream at once; every other stream takes it when it next runs
 * program code (pth_leave compares the stream's epoch with the mask's), before that code
 * runs.  The usual pattern - block the asynchronous signals, let one thread sigwait for
 * them - then works wherever that thread runs.  The mask starts as that of the thread
 * that started the runtime (its streams inherit it); before the runtime starts, and from
 * a thread that is not a ULT, the calls are the real ones.  A stream that is idle keeps
 * the mask it had until it runs a thread again: a process-directed signal may land there
 * (the kernel picks a thread that does not block it).
 *
 * A signal sent to a ULT goes where the ULT is:
 *   - the caller itself: to the caller's OS thread at once (the handler runs before
 *     pthread_kill returns, as for an OS thread that signals itself);
 *   - running on a stream (computing, or blocked in a system call such as sigwait, read
 *     or nanosleep): to that stream's OS thread with the real pthread_kill, so a blocking
 *     call is interrupted (EINTR, or sigwait returns the signal) and a handler runs on the
 *     ULT's stack.  If the ULT switches away at that very instant, the handler runs in
 *     whatever that stream runs next - a ULT only switches inside a layer call, so this
 *     is the window of one call;
 *   - not running (ready, parked in a mutex, condition variable, join, barrier, or not
 *     started): held in its record (`sigpending`, one per signal number, as a standard
 *     signal is; pthread_sigqueue keeps the last value), and raised on its own OS thread
 *     by the ULT itself when it next comes back from weft into its program code
 *     (pth_leave), or starts.  A parked ULT is not woken for it: it gets the signal when
 *     what it waits for happens, as if the signal had arrived just then.
 * Signal 0 checks that the id is live (0, or ESRCH once the thread was joined or reaped);
 * a thread that has finished but is not joined yet takes signals as no-ops (0), as glibc.
 * A number outside 0..NSIG-1 is EINVAL.  The one word `pth_sig_waiting` (signals held
 * over all records) keeps the check in pth_leave to a load while none waits.
 *
 * A ULT in a blocking call (blocking.c) is signalled on the OS thread the call blocks,
 * which its record holds.  A ULT running on a spare OS thread that weft handed its stream
 * to (weft.h: the spare carries the stream's rank under a handle of its own) is held as a
 * parked one: the stream's OS thread runs another thread then, or blocks in a call.
 *
 * The OS thread of each stream is recorded when the layer creates it (runtime.c) or, when
 * weft's thread creation does not come through the layer (a sanitized program: the layer
 * is linked after glibc), by the first ULT that starts on it while some stream is
 * unknown; the child of fork keeps only the forking stream's.  Rejected: a handler of our own on a
 * reserved signal to forward into the target (it would take a signal number from the
 * program and still not reach a ULT parked in weft); waking a parked ULT to run its
 * handler (weft's waits cannot be interrupted for one waiter, and a handler may not call
 * what would wake a waiter anyway). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <signal.h>
#include <stdlib.h>

#include "pthread/face.h"

#if WEFT_TSAN
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
static inline void tsan_ignore_begin(void) { __tsan_ignore_thread_begin(); }
static inline void tsan_ignore_end(void) { __tsan_ignore_thread_end(); }
#else
static inline void tsan_ignore_begin(void) {}
static inline void tsan_ignore_end(void) {}
#endif

_Atomic int pth_sig_waiting;
static _Atomic int sentinels;       /* of it: the ones for good (pth_sig_attend) */
static _Atomic bool attend_threads; /* a child of fork: every ULT looks at itself */

void pth_sig_attend(bool threads)
{
    if (threads)
        weft_atomic_store_release(&attend_threads, true);
    weft_atomic_fetch_add_relaxed(&sentinels, 1);
    weft_atomic_fetch_add_seq_cst(&pth_sig_waiting, 1);
}

static pthread_mutex_t mask_lock = PTHREAD_MUTEX_INITIALIZER; /* glibc's */
static sigset_t ult_mask;           /* the program threads' mask (mask_lock) */
static _Atomic unsigned mask_epoch; /* its changes; 0: never changed */
static __thread unsigned mask_seen; /* the epoch this OS thread (stream) applied */

enum { MAX_STREAMS = 4096 }; /* WEFT_PTHREAD_STREAMS's upper bound */
static pthread_t stream_os[MAX_STREAMS];
static ABT_xstream stream_xs[MAX_STREAMS]; /* its handle: a spare has another (weft.h) */
static pthread_t main_os;                  /* the main thread's own (constructor) */
static _Atomic bool stream_known[MAX_STREAMS];

__attribute__((constructor)) static void main_os_init(void) { main_os = pth_real(pthread_self)(); }

_Atomic int pth_streams_unknown;

void pth_sig_stream(int rank, pthread_t os_thread, ABT_xstream xs)
{
    if (rank < 0 || rank >= MAX_STREAMS || weft_atomic_load_acquire(&stream_known[rank]))
        return;
    stream_os[rank] = os_thread;
    stream_xs[rank] = xs;
    if (!weft_atomic_exchange_acq_rel(&stream_known[rank], true)) {
        weft_atomic_fetch_sub_relaxed(&pth_streams_unknown, 1);
    }
}

void pth_sig_streams(int n)
{
    weft_atomic_fetch_add_relaxed(&pth_streams_unknown, n); /* less those recorded already */
}

void pth_sig_stream_self(void)
{
    int rank = -1;
    ABT_xstream xs = ABT_XSTREAM_NULL;
    int was = pth_internal();
    pth_enter();
    int rc = ABT_self_get_xstream_rank(&rank);
    if (rc == ABT_SUCCESS)
        rc = ABT_self_get_xstream(&xs);
    pth_set_internal(was);
    if (rc == ABT_SUCCESS)
        pth_sig_stream(rank, pth_real(pthread_self)(), xs);
}

void pth_sig_fork_child(int rank)
{
    for (int i = 0; i < MAX_STREAMS; i++)
        if (i != rank)
            weft_atomic_store_relaxed(&stream_known[i], false);
    weft_atomic_store_relaxed(&pth_streams_unknown, 0); /* the others are gone */
}

/* The real function that sends sig (with v when queued) to an OS thread. */
static int send_os(pthread_t os, int sig, bool queued, union sigval v)
{
    if (queued) {
        __typeof__(&pthread_sigqueue) q = pth_real(pthread_sigqueue);
        return q(os, sig, v);
    }
    return pth_real(pthread_kill)(os, sig);
}

/* Give the calling OS thread the program's mask if it changed since it last did. */
static void mask_catch_up(void)
{
    unsigned e = weft_atomic_load_acquire(&mask_epoch);
    if (e == 0 || mask_seen == e)
        return;
    sigset_t m;
    pth_real(pthread_mutex_lock)(&mask_lock);
    m = ult_mask;
    e = weft_atomic_load_relaxed(&mask_epoch);
    pth_real(pthread_mutex_unlock)(&mask_lock);
    pth_real(pthread_sigmask)(SIG_SETMASK, &m, NULL);
    mask_seen = e;
}

/* Change the program threads' mask (a ULT calls): pthread_sigmask's contract. */
static int ult_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    if (set && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
        return EINVAL;
    mask_catch_up();
    pth_real(pthread_mutex_lock)(&mask_lock);
    if (weft_atomic_load_relaxed(&mask_epoch) == 0) /* the first change: start from ours */
        pth_real(pthread_sigmask)(SIG_BLOCK, NULL, &ult_mask);
    sigset_t prev = ult_mask, m = ult_mask;
    if (set) {
        if (how == SIG_BLOCK)
            sigorset(&m, &prev, set);
        else if (how == SIG_UNBLOCK)
            for (int s = 1; s < NSIG; s++)
                if (sigismember(set, s) == 1)
                    sigdelset(&m, s);
        if (how == SIG_SETMASK)
            m = *set;
    }
    unsigned e = weft_atomic_load_relaxed(&mask_epoch);
    int rc = 0;
    if (set) {
        rc = pth_real(pthread_sigmask)(SIG_SETMASK, &m, NULL); /* glibc drops its own */
        if (rc == 0) {
            pth_real(pthread_sigmask)(SIG_BLOCK, NULL, &ult_mask);
            if (e == 0) /* from now on every pth_leave looks */
                pth_sig_attend(false);
            e = e + 1 == 0 ? 1 : e + 1;
            weft_atomic_store_release(&mask_epoch, e);
            mask_seen = e;
        }
    }
    pth_real(pthread_mutex_unlock)(&mask_lock);
    if (old && rc == 0)
        *old = prev;
    return rc;
}

PTH_API int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    if (pth_internal() || !pth_started() || !pth_self())
        return pth_real(pthread_sigmask)(how, set, old);
    return ult_sigmask(how, set, old);
}

PTH_API int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    if (pth_internal() || !pth_started() || !pth_self())
        return pth_real(sigprocmask)(how, set, old);
    int rc = ult_sigmask(how, set, old);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return 0;
}

/* Raise the signals held for the calling ULT on its OS thread, after giving the stream
 * the program's mask (pth_leave). */
void pth_sig_deliver(void)
{
    mask_catch_up();
    if (weft_atomic_load_relaxed(&pth_sig_waiting) == weft_atomic_load_relaxed(&sentinels) &&
        !weft_atomic_load_relaxed(&attend_threads))
        return; /* no signal waits: spare the lookup of the caller */
    pth_thread *self = pth_self();
    if (!self)
        return;
    pth_ghost_check(self);
    if (!weft_atomic_load_relaxed(&self->sigpending))
        return;
    uint64_t bits = weft_atomic_exchange_acquire(&self->sigpending, 0);
    if (!bits)
        return;
    uint64_t queued = weft_atomic_fetch_and_acq_rel(&self->sigqueued, ~bits) & bits;
    weft_atomic_fetch_sub_relaxed(&pth_sig_waiting, (int)__builtin_popcountll(bits));
    pthread_t os = pth_real(pthread_self)();
    for (int sig = 1; bits; sig++, bits >>= 1)
        if (bits & 1)
            send_os(os, sig, (queued >> (sig - 1)) & 1, self->sigval[sig - 1]);
}

/* The OS thread r runs on now, if it runs (false: it does not, or it is unknown). */
static bool running_on(pth_thread *r, pthread_t *os)
{
    if (!(weft_atomic_load_acquire(&r->state) & PTH_F_PUBLISHED) || r->ult == ABT_THREAD_NULL)
        return false;
    int was = pth_internal();
    pth_enter();
    ABT_thread_state st;
    ABT_xstream xs;
    int rank = -1;
    /* A query of another thread's ULT, racing with its scheduling by design (a stale
     * answer is the window the file's comment describes): weft reads the ULT's stream
     * with a plain load, which ThreadSanitizer would report. */
    tsan_ignore_begin();
    bool on = ABT_thread_get_state(r->ult, &st) == ABT_SUCCESS && st == ABT_THREAD_STATE_RUNNING &&
              ABT_thread_get_last_xstream(r->ult, &xs) == ABT_SUCCESS &&
              ABT_xstream_get_rank(xs, &rank) == ABT_SUCCESS;
    tsan_ignore_end();
    pth_set_internal(was);
    if (!on || rank < 0 || rank >= MAX_STREAMS || !weft_atomic_load_acquire(&stream_known[rank]))
        return false;
    if (xs != stream_xs[rank])
        return false; /* on a spare that serves the stream: held, raised at its next return */
    *os = stream_os[rank];
    return true;
}

bool pth_sig_handles(int sig)
{
    struct sigaction sa;
    return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN;
}

uint64_t pth_sig_unblocked(uint64_t bits)
{
    sigset_t cur;
    if (pth_real(pthread_sigmask)(SIG_BLOCK, NULL, &cur) != 0)
        return bits;
    for (int sig = 1; sig <= 64; sig++)
        if ((bits >> (sig - 1) & 1) && sigismember(&cur, sig) == 1)
            bits &= ~(1ull << (sig - 1));
    return bits;
}

/* Send sig to the live thread r, which is not the caller. */
static int route(pth_thread *r, int sig, bool queued, union sigval v)
{
    pthread_t blocked = weft_atomic_load_acquire(&r->blocked_os);
    if (blocked) /* in a system call on that OS thread (blocking.c) */
        return send_os(blocked, sig, queued, v);
    if (r->ult == ABT_THREAD_NULL && (weft_atomic_load_acquire(&r->state) & PTH_F_PUBLISHED))
        return send_os(main_os, sig, queued, v); /* the main thread, not (yet) a ULT */
    pthread_t os;
    if (running_on(r, &os))
        return send_os(os, sig, queued, v);
    /* Held for it.  If it started running meanwhile it may have passed its check: take
     * the signal back and send it to its stream, or leave it for its next layer call. */
    uint64_t bit = 1ull << (sig - 1);
    if (queued) {
        r->sigval[sig - 1] = v;
        weft_atomic_fetch_or_release(&r->sigqueued, bit);
    } else {
        weft_atomic_fetch_and_acq_rel(&r->sigqueued, ~bit);
    }
    if (!(weft_atomic_fetch_or_acq_rel(&r->sigpending, bit) & bit))
        weft_atomic_fetch_add_seq_cst(&pth_sig_waiting, 1);
    if (running_on(r, &os) && (weft_atomic_fetch_and_acq_rel(&r->sigpending, ~bit) & bit)) {
        weft_atomic_fetch_sub_relaxed(&pth_sig_waiting, 1);
        return send_os(os, sig, queued, v);
    }
    return 0;
}

/* Send sig to the live thread r.  A thread sleeping parked (sleep.c) learns afterwards
 * that a handler ran for it (or runs at its wake-up), and ends its sleep with EINTR. */
static int signal_ult(pth_thread *r, int sig, bool queued, union sigval v)
{
    if (weft_atomic_load_acquire(&r->state) & PTH_F_FINISHED)
        return 0; /* finished, not joined: nothing runs to take it */
    if (r == pth_self())
        return send_os(pth_real(pthread_self)(), sig, queued, v);
    bool sleeping = weft_atomic_load_acquire(&r->sleeping);
    bool handled = sleeping && pth_sig_handles(sig); /* before a SA_RESETHAND handler runs */
    int rc = route(r, sig, queued, v);
    if (rc == 0 && handled)
        weft_atomic_fetch_or_release(&r->sleep_sigs, 1ull << (sig - 1));
    return rc;
}

static int kill_common(pthread_t t, int sig, bool queued, union sigval v)
{
    pth_thread *r = pth_live(t);
    if (!r)
        return ESRCH;
    if (sig < 0 || sig >= NSIG || sig > 64 || (sig >= 32 && sig < SIGRTMIN))
        return EINVAL; /* glibc's own signals (cancellation, setxid) are refused too */
    if (sig == 0)
        return 0;
    return signal_ult(r, sig, queued, v);
}

PTH_API int pthread_kill(pthread_t t, int sig)
{
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_kill)(t, sig);
    return kill_common(t, sig, false, (union sigval){ 0 });
}

PTH_API int pthread_sigqueue(pthread_t t, int sig, const union sigval v)
{
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_sigqueue)(t, sig, v);
    return kill_common(t, sig, true, v);
}

PTH_ALIAS(pthread_kill)
PTH_ALIAS(pthread_sigmask)
PTH_ALIAS(sigprocmask)
PTH_ALIAS(pthread_sigqueue)
