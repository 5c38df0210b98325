/* src/sync/timeout.h - deadlines of timed waits: one timer queue per execution stream,
 * driven by that stream's scheduler.
 *
 * Model.  A ULT that waits with a deadline (ABT_cond_timedwait, ABT_eventual_timedwait,
 * weft_thread_sleep, ...) puts a weft_tq_entry - on its own stack, next to its waiter -
 * into the queue of the stream it runs on, then parks.  The scheduler of that stream calls
 * the timer hook (core/sched/timer_hook.h, installed by this module at the first timed wait)
 * whenever it checks for events and whenever it is idle; due entries
 * are removed and their waiter is woken with the outcome "timed out" (see the claim
 * protocol in waitlist.h: the timer and a regular waker race for one CAS, so exactly one
 * of them wakes the waiter).  A BASIC_WAIT scheduler that sleeps in pop_wait caps its
 * sleep at the earliest deadline (the hook's `next`), so a timed wait costs no CPU while
 * it waits and nothing polls.  Deadlines are absolute CLOCK_MONOTONIC nanoseconds.
 *
 * Structure.  The queue is a pairing heap threaded through the entries (no allocation:
 * insert O(1), remove-min and remove-any O(log n) amortized), guarded by a spinlock,
 * plus `next`, the root's deadline, readable without the lock so that the scheduler's
 * poll is one thread-local load and compare while nothing is pending.
 *
 * Where the queue lives.  A stream's OS thread gets a queue the first time one of its
 * ULTs waits with a deadline; the thread-local pointer weft_tls_tq finds it (a stream is
 * one OS thread, so this module needs no field in weft_xstream).  Entries may be removed
 * from another thread - a ULT woken by a regular waker may resume on another stream and
 * cancels its entry there - hence the lock and the entry's `q` back pointer.  When the
 * thread exits (stream joined, or cancelled under blocked timed waiters), a thread-exit
 * destructor moves any entries left to a global orphan queue that every scheduler also
 * polls, and recycles the queue for the next thread.  Queues are never freed, so a stale
 * `q` read by a cancelling thread always points at a live lock; cancel re-checks `q`
 * under that lock.
 *
 * Lock order: a thread's queue, then the orphan queue.  Object locks (waitlists) are
 * never taken under a queue lock, and queue locks are never held across a switch. */
#ifndef WEFT_SYNC_TIMEOUT_H
#define WEFT_SYNC_TIMEOUT_H

#include "core/runtime.h"
#include "core/sched/timer_hook.h"

struct weft_wl_waiter;

typedef struct weft_tq_entry weft_tq_entry;
typedef struct weft_timerq weft_timerq;

struct weft_tq_entry {
    weft_tq_entry *child, *sibling; /* pairing heap links; protected by q's lock */
    weft_tq_entry *prev;            /* parent if first child, else left sibling; NULL: root */
    uint64_t deadline;              /* CLOCK_MONOTONIC ns */
    _Atomic(weft_timerq *) q;       /* queue holding it; NULL once removed (under q's lock) */
    struct weft_wl_waiter *waiter;  /* what to time out */
};

struct weft_timerq {
    weft_spinlock lock;
    weft_tq_entry *root;    /* protected by lock */
    _Atomic uint64_t next;  /* root's deadline, WEFT_NO_DEADLINE when empty */
    weft_timerq *free_next; /* recycled queues (under the registry lock) */
};

/* The calling thread's queue, NULL until its first timed wait. */
extern WEFT_INTERNAL __thread weft_timerq *weft_tls_tq __attribute__((tls_model("initial-exec")));
extern WEFT_INTERNAL weft_timerq weft_orphan_tq;

/* Earliest pending deadline of the calling thread's stream (and orphans). */
static inline uint64_t weft_tq_next(void)
{
    weft_timerq *q = weft_tls_tq;
    uint64_t a = q ? weft_atomic_load_relaxed(&q->next) : WEFT_NO_DEADLINE;
    uint64_t b = weft_atomic_load_relaxed(&weft_orphan_tq.next);
    return a < b ? a : b;
}

/* Get the calling thread's queue ready; ABT_ERR_MEM if it cannot be made.  Call before
 * committing to a timed wait. */
WEFT_INTERNAL WEFT_WUR int weft_tq_prepare(void);
/* Queue `e` (deadline and waiter set) on the calling thread's queue (prepared).  The
 * caller is about to park on this stream: the entry cannot fire before it has left its
 * stack, because only this thread fires this queue. */
WEFT_INTERNAL void weft_tq_add(weft_tq_entry *e);
/* Remove `e` if still queued (from any thread).  After it returns, no timer touches e. */
WEFT_INTERNAL void weft_tq_cancel(weft_tq_entry *e);

/* Deadlines from the API: an absolute CLOCK_REALTIME timespec becomes an absolute
 * CLOCK_MONOTONIC time in ns (the remaining time is measured once, at the call). */
WEFT_INTERNAL uint64_t weft_deadline_from_abstime(const struct timespec *abstime);

#endif
