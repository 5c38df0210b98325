/* src/sync/waitlist.h - the one waiting mechanism under every synchronization object
 * (mutex, cond, rwlock, barrier, eventual, future, and the weft_ extensions).
 *
 * Model.  Each object owns a spinlock and one or more waitlists (intrusive FIFO lists of
 * weft_wl_node).  A work unit that must wait links a node that points at its
 * weft_wl_waiter - both live on the waiter's own stack - and blocks:
 *   - a ULT parks (weft_ult_park); its stream runs other work; the object lock is
 *     released by the post action, after the ULT has left its stack, so no waker can
 *     make it ready while it still runs on that stack;
 *   - a tasklet or an external OS thread releases the lock and sleeps on the futex word
 *     of its weft_waiter.
 * A waker takes the object lock, unlinks nodes, decides which waiters it wakes, releases
 * the lock and then wakes them (weft_waiter_wake: push the ULT to its pool, or store 1, futex-wake
 * and store 2: core/wait.h).  Nobody spins or polls while waiting.
 *
 * Claim protocol (wake vs. time-out, and one waiter on several lists).  A waiter that can
 * be woken by more than one party - it has a deadline (a timer may fire), or it is linked
 * on several lists (weft_eventual_wait_any) - is "contested".  Its `claim` word goes from
 * WL_WAITING to WL_WOKEN or WL_TIMEDOUT exactly once, by CAS; only the party whose CAS
 * succeeds wakes it.  The rules that make this safe with waiters living on stacks:
 *   1. A waker touches a node only under the lock of the list it is on, and does its CAS
 *      under that lock.  A waker whose CAS fails drops the node (it is already unlinked:
 *      `linked` = 0) and never touches the waiter again.
 *   2. The timer does its CAS under its queue lock (timeout.h); the entry is removed from
 *      the queue in the same critical section.
 *   3. The winner may wake after releasing its lock: the waiter cannot return before it
 *      is woken, so its memory stays valid.  Fields the winner wants to read afterwards
 *      (`wake_next`) are read before the wake.
 *   4. The woken waiter cleans up before returning: it cancels its timer entry (under the
 *      queue lock) and, for every list, takes the list lock and unlinks its node if still
 *      `linked`.  After that no lock holder can reach it, and it may return.
 * A non-contested waiter has exactly one possible waker: its claim is a plain store.
 *
 * Gated waiters.  A ULT linked on several lists cannot hold all their locks across its
 * switch, so it parks after releasing them; a waker may then claim it before it has left
 * its stack.  `gate` resolves that: the waker (after a successful claim) and the parked
 * ULT's post action both exchange gate with 1; whoever comes second makes it ready.
 * OS waiters need no gate: a futex wake before the sleep makes the sleep return at once. */
#ifndef WEFT_SYNC_WAITLIST_H
#define WEFT_SYNC_WAITLIST_H

#include "core/wait.h"
#include "sync/timeout.h"

enum {
    WL_WAITING = 0,
    WL_WOKEN = 1,
    WL_TIMEDOUT = 2,
};

typedef struct weft_wl_waiter weft_wl_waiter;
typedef struct weft_wl_node weft_wl_node;

struct weft_wl_waiter {
    weft_waiter w;          /* the core waiter: parked ULT or futex word */
    _Atomic uint32_t claim; /* WL_*: set once by the party that wakes it */
    uint8_t contested;      /* timed or multi-list: claim by CAS */
    uint8_t gated;          /* parks without holding a list lock (see above) */
    _Atomic uint32_t gate;
    uint32_t result;           /* written by the winning waker before the wake */
    int winner;                /* `arg` of the node through which it was woken */
    weft_wl_waiter *wake_next; /* winner's private chain of waiters to wake */
    weft_tq_entry tm;          /* timed waits only */
};

struct weft_wl_node {
    weft_wl_node *next, *prev; /* protected by the list's lock */
    weft_wl_waiter *waiter;
    uint32_t linked; /* on the list; protected by the list's lock */
    uint32_t arg;    /* per object: lock mode, priority, wait_any index */
};

/* Two pointers, so that every object fits its 64-byte static memory type. */
typedef struct {
    weft_wl_node *head, *tail;
} weft_waitlist;

/* ---- waiter set-up (by the waiter, on its own stack) ---- */

static inline void weft_wl_waiter_init(weft_wl_waiter *ww)
{
    weft_waiter_init(&ww->w);
    weft_atomic_store_relaxed(&ww->claim, WL_WAITING);
    ww->contested = 0;
    ww->gated = 0;
    weft_atomic_store_relaxed(&ww->gate, 0);
    ww->result = 0;
    ww->winner = -1;
    ww->wake_next = NULL;
}

/* Ready the same waiter for another wait (a mutex waiter that lost the race after a wake). */
static inline void weft_wl_waiter_rearm(weft_wl_waiter *ww)
{
    weft_atomic_store_relaxed(&ww->w.futex, 0);
    ww->w.counted_blocked = 0;
    weft_atomic_store_relaxed(&ww->claim, WL_WAITING);
    weft_atomic_store_relaxed(&ww->gate, 0);
    ww->result = 0;
    ww->winner = -1;
}

/* The waiter will be linked on several lists and will block with weft_wl_wait_gated:
 * contested, and gated when it parks (OS waiters need no gate). */
static inline void weft_wl_waiter_multi(weft_wl_waiter *ww)
{
    ww->contested = 1;
    ww->gated = ww->w.ult != NULL;
}

static inline void weft_wl_node_init(weft_wl_node *n, weft_wl_waiter *ww, uint32_t arg)
{
    n->next = n->prev = NULL;
    n->waiter = ww;
    n->linked = 0;
    n->arg = arg;
}

/* ---- list operations: the list's lock held ---- */

static inline bool weft_wl_empty(const weft_waitlist *l) { return l->head == NULL; }

/* `head` is written with relaxed atomic stores, so that a waker may look at it without
 * the lock (weft_wl_seen_empty): a plain store on x86-64 and AArch64. */
static inline void wl_set_head(weft_waitlist *l, weft_wl_node *n)
{
    weft_atomic_store_relaxed_plain(&l->head, n);
}

/* Without the lock: nobody was linked as of the load.  A waker that needs no lock to see
 * an empty list (ABT_cond_signal) relies on the waiter's order: it links its node under
 * the list's lock before it releases what the waker acquired first (the cond's mutex),
 * so a waiter that may be woken is seen. */
static inline bool weft_wl_seen_empty(const weft_waitlist *l)
{
    return weft_atomic_load_relaxed_plain(&l->head) == NULL;
}

static inline void weft_wl_push_tail(weft_waitlist *l, weft_wl_node *n)
{
    n->next = NULL;
    n->prev = l->tail;
    if (l->tail)
        l->tail->next = n;
    else
        wl_set_head(l, n);
    l->tail = n;
    n->linked = 1;
}

static inline void weft_wl_push_head(weft_waitlist *l, weft_wl_node *n)
{
    n->prev = NULL;
    n->next = l->head;
    if (l->head)
        l->head->prev = n;
    else
        l->tail = n;
    wl_set_head(l, n);
    n->linked = 1;
}

static inline void weft_wl_unlink(weft_waitlist *l, weft_wl_node *n)
{
    if (n->prev)
        n->prev->next = n->next;
    else
        wl_set_head(l, n->next);
    if (n->next)
        n->next->prev = n->prev;
    else
        l->tail = n->prev;
    n->linked = 0;
}

static inline weft_wl_node *weft_wl_pop(weft_waitlist *l)
{
    weft_wl_node *n = l->head;
    if (n)
        weft_wl_unlink(l, n);
    return n;
}

/* Try to become the one party that wakes ww; `how` is WL_WOKEN or WL_TIMEDOUT. */
static inline bool weft_wl_claim(weft_wl_waiter *ww, uint32_t how)
{
    if (!ww->contested) {
        weft_atomic_store_relaxed(&ww->claim, how);
        return true;
    }
    uint32_t exp = WL_WAITING;
    return weft_atomic_cas_strong_acq_rel(&ww->claim, &exp, how);
}

/* Pop nodes until one whose waiter can be claimed; NULL if none.  The returned waiter
 * must be woken (weft_wl_wake), typically after the lock is released. */
static inline weft_wl_waiter *weft_wl_take_one(weft_waitlist *l)
{
    weft_wl_node *n;
    while ((n = weft_wl_pop(l))) {
        weft_wl_waiter *ww = n->waiter;
        if (weft_wl_claim(ww, WL_WOKEN)) {
            ww->winner = (int)n->arg;
            return ww;
        }
    }
    return NULL;
}

/* Empty the list; returns the chain (through wake_next) of waiters this caller won. */
static inline weft_wl_waiter *weft_wl_take_all(weft_waitlist *l)
{
    weft_wl_waiter *first = NULL, **link = &first;
    weft_wl_node *n;
    while ((n = weft_wl_pop(l))) {
        weft_wl_waiter *ww = n->waiter;
        if (weft_wl_claim(ww, WL_WOKEN)) {
            ww->winner = (int)n->arg;
            ww->wake_next = NULL;
            *link = ww;
            link = &ww->wake_next;
        }
    }
    return first;
}

/* ---- waking (any context; no list lock needed) ---- */

static inline void weft_wl_wake(weft_wl_waiter *ww)
{
    if (ww->gated && weft_atomic_exchange_acq_rel(&ww->gate, 1) == 0)
        return; /* not parked yet: its post action will make it ready */
    weft_waiter_wake(&ww->w);
}

static inline void weft_wl_wake_chain(weft_wl_waiter *ww)
{
    while (ww) {
        weft_wl_waiter *next = ww->wake_next; /* ww may be gone after its wake */
        weft_wl_wake(ww);
        ww = next;
    }
}

/* Claim every waiter of `l`, release `lock` (held: it guards l), wake them; ABT_SUCCESS.
 * Out of line, so that a setter that finds nobody waiting needs no stack frame. */
WEFT_INTERNAL int weft_wl_wake_all_unlock(weft_spinlock *lock, weft_waitlist *l);

/* Release `lock` (held: it guards l), first claiming and waking every waiter of `l` when
 * there is one (out of line); ABT_SUCCESS.  Inline, so a caller that finds nobody waiting
 * needs no stack frame for it. */
static inline int weft_wl_unlock_wake_all(weft_spinlock *lock, weft_waitlist *l)
{
    if (WEFT_UNLIKELY(!weft_wl_empty(l)))
        return weft_wl_wake_all_unlock(lock, l);
    weft_spin_unlock(lock);
    return ABT_SUCCESS;
}

/* ---- blocking (the waiter) ----
 * weft_wl_wait: the caller holds `lock` and has linked its node(s) on lists it guards.
 * Blocks until woken or until `deadline` (CLOCK_MONOTONIC ns; 0 = none) and returns with
 * `lock` released.  Returns true if woken, false on time-out; after a time-out the caller
 * must take the lock and unlink its node if still linked (rule 4). */
WEFT_INTERNAL bool weft_wl_wait(weft_wl_waiter *ww, weft_spinlock *lock, uint64_t deadline);
/* The gated variant: no lock held; weft_wl_waiter_multi(ww) called before linking. */
WEFT_INTERNAL bool weft_wl_wait_gated(weft_wl_waiter *ww, uint64_t deadline);

/* ---- caller classification ---- */

#endif
