/* src/core/pool/pool.h - pools: one interface (weft_pool_ops + capability bits) for every
 * kind, with the built-in FIFO fast path inline.
 *
 * The interface.  Every pool kind fills a weft_pool_ops table (types.h): FIFO and
 * FIFO_WAIT (fifo.c), RANDWS (randws.c), the priority pool (prio.c) and user-defined pools
 * of both Argobots interfaces (user.c, one table per pool built from the user's
 * callbacks).  What a pool can do is said once, at creation, in `caps`; the code on the
 * paths tests a capability or calls an entry, never asks which kind a pool is.  The one
 * place that maps a kind to its table is creation (weft_pool_create_builtin).
 *
 * The fast path.  A pool with WEFT_POOL_CAP_INLINE_FIFO keeps its units in the intrusive
 * list below (head/tail through weft_unit.next/prev), so push, pop, size and take_fresh
 * are inlined for it: one well-predicted test of `caps` on the hot line, then a few
 * pointer writes.  Its ops table implements the same operations out of line, for callers
 * that do not care.
 *
 * Built-in FIFO / FIFO_WAIT: an intrusive doubly-linked list through weft_unit.next/prev
 * (O(1) removal for join bypass and ABT_pool_remove).  Access PRIV takes no lock and no
 * atomic; every other access mode takes the pool's spinlock around a few pointer writes.
 * FIFO_WAIT adds an event count (`seq`, a futex word) so pop_wait sleeps in the kernel
 * and a push wakes exactly one sleeper; a push only pays an atomic increment plus a load
 * of `nsleepers`.  Sleeper and pusher follow the Dekker pattern with seq_cst operations:
 * the sleeper announces itself (nsleepers++) and re-checks `seq` inside futex_wait; the
 * pusher bumps `seq` and then reads `nsleepers`.
 *
 * Sleeping schedulers (core/sched/idle.h).  `notify` holds WEFT_POOL_SIGNAL (FIFO_WAIT,
 * constant) and WEFT_POOL_IDLERS (a scheduler sleeps on this pool; written under the
 * lock, never set in a PRIV pool).  A push reads `notify` under its lock and calls
 * weft_pool_notify when it is not zero: the one test and branch a push always made for
 * FIFO_WAIT's signal, so a push to a pool nobody sleeps on costs nothing more. */
#ifndef WEFT_CORE_POOL_H
#define WEFT_CORE_POOL_H

#include "core/sched/idle.h"
#include "core/runtime.h"

/* p->notify bits */
#define WEFT_POOL_SIGNAL 1u /* FIFO_WAIT: pushes bump `seq` for pop_wait sleepers */
#define WEFT_POOL_IDLERS 2u /* p->idlers is not empty (written under the lock) */

#define WEFT_POOL_HANDLE(p) ((ABT_pool)(p))

enum weft_pool_cap {
    WEFT_POOL_CAP_INLINE_FIFO = 1u << 0, /* units on the intrusive FIFO list: inline paths */
    WEFT_POOL_CAP_SIGNAL = 1u << 1,      /* a push bumps `seq` and wakes a pop_wait sleeper */
    WEFT_POOL_CAP_SIZE = 1u << 2,        /* ABT_pool_get_size / get_total_size answer */
    WEFT_POOL_CAP_POP_WAIT = 1u << 3,    /* ABT_pool_pop_wait_thread(_ex) is allowed */
    WEFT_POOL_CAP_LIST = 1u << 4,        /* keeps units on the intrusive list (head/tail);
                                          * INLINE_FIFO implies it, RANDWS has only this */
    WEFT_POOL_CAP_BIND = 1u << 5,        /* a unit needs ops->bind before its first push
                                          * here (user-defined pools: the user's unit) */
    WEFT_POOL_CAP_IDLE_WAKE = 1u << 6,   /* every push wakes a scheduler sleeping on it
                                          * (p->idlers): built-in kinds, not PRIV */
};

/* The pool's lock, unless its access mode is PRIV (one stream only). */
static inline void weft_pool_lock(weft_pool *p)
{
    if (p->locked)
        weft_spin_lock(&p->lock);
}

static inline void weft_pool_unlock(weft_pool *p)
{
    if (p->locked)
        weft_spin_unlock(&p->lock);
}

static inline bool weft_pool_can(const weft_pool *p, enum weft_pool_cap cap)
{
    return (p->caps & cap) != 0;
}

static inline weft_pool *weft_pool_from(ABT_pool h)
{
    return (h == NULL || h == ABT_POOL_NULL) ? NULL : (weft_pool *)h;
}

static inline void fifo_link_tail(weft_pool *p, weft_unit *u)
{
    u->next = NULL;
    u->prev = p->tail;
    if (p->tail)
        p->tail->next = u;
    else
        p->head = u;
    p->tail = u;
    u->in_pool = 1;
    weft_atomic_add_sole_relaxed(&p->size, 1);
}

static inline void fifo_link_head(weft_pool *p, weft_unit *u)
{
    u->prev = NULL;
    u->next = p->head;
    if (p->head)
        p->head->prev = u;
    else
        p->tail = u;
    p->head = u;
    u->in_pool = 1;
    weft_atomic_add_sole_relaxed(&p->size, 1);
}

/* The head's `prev` is not kept (it may point anywhere): whether a unit is the head is
 * p->head == u.  So taking the head writes nothing into the unit that becomes the head,
 * whose line may be in another core's cache (the creator of a unit another stream runs)
 * and would be fetched with the lock held. */
/* fifo_unlink of the head */
static inline void fifo_unlink_head(weft_pool *p, weft_unit *u)
{
    WEFT_ASSERT(p->head == u);
    p->head = u->next;
    if (!u->next)
        p->tail = NULL;
    u->in_pool = 0;
    weft_atomic_add_sole_relaxed(&p->size, (size_t)-1);
}

static inline void fifo_unlink(weft_pool *p, weft_unit *u)
{
    weft_unit *n = u->next;
    if (u == p->head) {
        p->head = n;
        if (!n)
            p->tail = NULL;
    } else {
        weft_unit *pr = u->prev;
        pr->next = n;
        if (n)
            n->prev = pr;
        else
            p->tail = pr;
    }
    u->in_pool = 0;
    weft_atomic_add_sole_relaxed(&p->size, (size_t)-1);
}

/* The unit at the head after a take runs next: prefetch the top of its saved frame, the
 * first line a switch to it reads (it has a whole run of the taken unit to arrive;
 * reading h->ctx may wait for h's line: docs/design/mem.md, "Memory"). */
static inline void fifo_prefetch_frame(weft_unit *h)
{
    if (h)
        __builtin_prefetch(h->ctx);
}

/* A push saw p->notify set: bump FIFO_WAIT's event count, wake one sleeping scheduler. */
WEFT_INTERNAL void weft_pool_notify(weft_pool *p);

/* A pusher that touches the pool after releasing its lock (the notify) may be an
 * external thread (an I/O helper waking a ULT) that nothing joins: the unit it pushed can
 * run, and the program reach ABT_finalize, before the notify is done.  So such a pusher
 * counts itself in weft_pool_holds while it still holds the lock, and ABT_finalize waits
 * for the count to drop before it frees pools (weft_pool_await_holds).  Only the notify
 * path pays (a scheduler sleeps on the pool). */
extern WEFT_INTERNAL _Atomic uint32_t weft_pool_holds;
static inline void weft_pool_hold(void) { weft_atomic_fetch_add_seq_cst(&weft_pool_holds, 1); }
static inline void weft_pool_unhold(void) { weft_atomic_fetch_sub_release(&weft_pool_holds, 1); }
WEFT_INTERNAL void weft_pool_await_holds(void);
/* weft_pool_notify after the lock is released, the hold taken before it (see above) */
static inline void weft_pool_notify_held(weft_pool *p)
{
    weft_pool_notify(p);
    weft_pool_unhold();
}

/* The end of every push under p's lock (`locked`: p->locked, or true where the caller
 * knows it): read `notify` while still holding it (IDLERS only changes under the lock),
 * release it, and wake a sleeper if one waits. */
static inline void fifo_unlock_notify(weft_pool *p, bool locked)
{
    uint8_t f = p->notify;
    if (WEFT_UNLIKELY(f))
        weft_pool_hold();
    if (locked)
        weft_spin_unlock(&p->lock);
    if (WEFT_UNLIKELY(f))
        weft_pool_notify_held(p);
}

/* Put a unit at the head of a list pool (popped by mistake, or RANDWS's creations). */
static inline void weft_pool_push_head(weft_pool *p, weft_unit *u)
{
    WEFT_ASSERT(p->caps & WEFT_POOL_CAP_LIST);
    weft_pool_lock(p);
    fifo_link_head(p, u);
    fifo_unlock_notify(p, p->locked);
}

WEFT_INTERNAL void weft_pool_signal(weft_pool *p);

/* The push of a pool with WEFT_POOL_CAP_INLINE_FIFO: link `u` at the tail, wake a
 * sleeper if one waits (p->notify, read under the lock). */
static inline void weft_pool_fifo_push(weft_pool *p, weft_unit *u)
{
    if (p->locked) {
        weft_spin_lock(&p->lock);
        fifo_link_tail(p, u);
        fifo_unlock_notify(p, true);
    } else {
        fifo_link_tail(p, u);
        if (WEFT_UNLIKELY(p->notify)) /* PRIV: SIGNAL or nothing, constant */
            weft_pool_notify(p);
    }
}

/* weft_pool_fifo_push for the paths that must call nothing on the way (unit.h,
 * weft_unit_create_fast): the rare ends are tail calls, and it returns ABT_SUCCESS. */
WEFT_INTERNAL int weft_pool_fifo_push_contended(weft_pool *p, weft_unit *u);
WEFT_INTERNAL int weft_pool_notify_done(weft_pool *p);
static inline __attribute__((always_inline)) int weft_pool_fifo_push_ret(weft_pool *p, weft_unit *u)
{
    if (p->locked) {
        if (WEFT_UNLIKELY(!weft_spin_take(&p->lock)))
            return weft_pool_fifo_push_contended(p, u);
        fifo_link_tail(p, u);
        uint8_t f = p->notify;
        if (WEFT_UNLIKELY(f)) {
            weft_pool_hold();
            weft_spin_unlock(&p->lock);
            return weft_pool_notify_done(p);
        }
        weft_spin_unlock(&p->lock);
        return ABT_SUCCESS;
    }
    fifo_link_tail(p, u);
    if (WEFT_UNLIKELY(p->notify)) { /* PRIV: SIGNAL or nothing, constant */
        weft_pool_hold();
        return weft_pool_notify_done(p);
    }
    return ABT_SUCCESS;
}

/* Push n ready units at once, chained through their `next` links from `first` to `last`
 * (an INLINE_FIFO pool): one lock round for all, in chain order, and one sleeper woken
 * per unit while any sleeps. */
static inline void weft_pool_fifo_push_chain(weft_pool *p, weft_unit *first, weft_unit *last,
                                             uint32_t n)
{
    WEFT_ASSERT(p->caps & WEFT_POOL_CAP_INLINE_FIFO);
    weft_pool_lock(p);
    weft_unit *prev = p->tail;
    for (weft_unit *u = first;; u = u->next) {
        u->prev = prev;
        u->in_pool = 1;
        prev = u;
        if (u == last)
            break;
    }
    last->next = NULL;
    if (p->tail)
        p->tail->next = first;
    else
        p->head = first;
    p->tail = last;
    weft_atomic_add_sole_relaxed(&p->size, n);
    uint8_t f = p->notify;
    if (WEFT_UNLIKELY(f))
        weft_pool_hold();
    weft_pool_unlock(p);
    if (WEFT_UNLIKELY(f)) {
        for (uint32_t i = 0; i < n; i++)
            weft_pool_notify(p);
        weft_pool_unhold();
    }
}

/* Push a ready unit.  The caller has set u->pool = p (or keeps it for a re-push).  A push
 * cannot fail: a pool with WEFT_POOL_CAP_BIND makes what it lacks here (user.c documents
 * the policy); callers that can report an error bind first (weft_pool_bind). */
static inline void weft_pool_push_ctx(weft_pool *p, weft_unit *u, ABT_pool_context ctx)
{
    if (WEFT_LIKELY(p->caps & WEFT_POOL_CAP_INLINE_FIFO)) {
        weft_pool_fifo_push(p, u);
        return;
    }
    p->ops->push(p, u, ctx);
}

/* A descriptor is being released, or its unit moves to a pool of another kind: give its user-made
 * unit back (u->uunit != NULL). */
WEFT_INTERNAL void weft_user_unit_drop(weft_unit *u);

/* Prepare u, which the caller owns (not in any pool, not running elsewhere), to be pushed
 * to p: ABT_SUCCESS, or the error a push into p would have (the user's create_unit
 * failed: ABT_ERR_OTHER, as Argobots).  On error nothing has changed. */
static inline WEFT_WUR int weft_pool_bind(weft_pool *p, weft_unit *u)
{
    if (WEFT_UNLIKELY(p->caps & WEFT_POOL_CAP_BIND))
        return p->ops->bind(p, u);
    /* into a pool of another kind: a user pool's unit is given back now, as Argobots */
    if (WEFT_UNLIKELY(weft_atomic_load_relaxed(&u->uunit) != NULL))
        weft_user_unit_drop(u);
    return ABT_SUCCESS;
}

static inline void weft_pool_push(weft_pool *p, weft_unit *u)
{
    weft_pool_push_ctx(p, u, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

/* Under p's lock (taken here): its head out of p, the lock still held; NULL (released)
 * when p is empty. */
static inline weft_unit *fifo_lock_take_head(weft_pool *p)
{
    weft_pool_lock(p);
    weft_unit *u = p->head;
    if (WEFT_LIKELY(u != NULL)) {
        fifo_unlink_head(p, u);
        return u;
    }
    weft_pool_unlock(p);
    return NULL;
}

/* The yield bypass in one lock round: the head of the INLINE_FIFO pool `p`, left queued,
 * with p's lock held when there is one (NULL: nothing there, the lock is released).  The
 * round ends with weft_pool_fifo_rotate (the head out, the yielding unit in at the tail;
 * the lock released by the switch, weft_ctx_switch_release), weft_pool_fifo_take_head
 * (the head out; the yielding unit goes to the tail after the switch,
 * weft_pool_fifo_push_release) or weft_pool_unlock. */
/* ... where the caller read p->locked already (`locked`; set at the pool's creation, never
 * changed): a caller that branches on it once (the yield bypass) tests it once. */
static inline __attribute__((always_inline)) weft_unit *weft_pool_fifo_head_hold_as(weft_pool *p,
                                                                                    bool locked)
{
    WEFT_ASSERT(p->caps & WEFT_POOL_CAP_INLINE_FIFO);
    WEFT_ASSERT(locked == p->locked);
    if (weft_atomic_load_relaxed(&p->size) == 0)
        return NULL;
    if (locked)
        weft_spin_lock(&p->lock);
    weft_unit *u = p->head;
    if (WEFT_UNLIKELY(!u) && locked)
        weft_spin_unlock(&p->lock);
    return u;
}
static inline weft_unit *weft_pool_fifo_head_hold(weft_pool *p)
{
    return weft_pool_fifo_head_hold_as(p, p->locked);
}

/* p's lock held (weft_pool_fifo_head_hold): its head `h` leaves the pool. */
static inline void weft_pool_fifo_take_head(weft_pool *p, weft_unit *h)
{
    fifo_unlink_head(p, h);
    fifo_prefetch_frame(p->head);
}

/* p's lock held (weft_pool_fifo_head_hold): its head `h` leaves the pool and `u`, a unit
 * of p that runs (in no pool), joins it at the tail, in one step: the size does not
 * change.  The head after it runs next: its frame is prefetched (fifo_prefetch_frame). */
static inline void weft_pool_fifo_rotate(weft_pool *p, weft_unit *h, weft_unit *u)
{
    WEFT_ASSERT(p->head == h && !u->in_pool && u->pool == p);
    weft_unit *n = h->next;
    u->next = NULL;
    if (n) {
        weft_unit *t = p->tail;
        p->head = n;
        t->next = u;
        u->prev = t;
        __builtin_prefetch(n->ctx);
    } else {
        p->head = u; /* (a head's prev is not kept) */
    }
    p->tail = u;
    h->in_pool = 0;
    u->in_pool = 1;
}

/* The pop of a pool with WEFT_POOL_CAP_INLINE_FIFO (callers that know it has the cap
 * call it directly).  It prefetches the new head's frame after the release, so that the
 * load of h->ctx, which may wait for h's line (in the cache of the stream that created
 * h), does not hold the lock.  h may have been taken and even released meanwhile
 * (descriptors stay mapped while the runtime lives): then the prefetch is only useless.
 * Before the lock, the head it is about to take is prefetched for writing (read without
 * the lock, so maybe stale: again only a useless prefetch), so that its line, which the
 * unlink reads and writes, arrives while the lock is taken instead of while it is held.
 * Neither read under TSan, which would report them. */
static inline weft_unit *weft_pool_fifo_pop(weft_pool *p)
{
    WEFT_ASSERT(p->caps & WEFT_POOL_CAP_INLINE_FIFO);
    if (weft_atomic_load_relaxed(&p->size) == 0)
        return NULL;
#if !WEFT_TSAN /* a racy read of the head (see above) */
    weft_unit *u0 = weft_atomic_load_relaxed_plain(&p->head);
    if (u0)
        __builtin_prefetch(u0, 1);
#endif
    weft_unit *u = fifo_lock_take_head(p);
    if (WEFT_LIKELY(u != NULL)) {
        weft_unit *h = p->head;
        weft_pool_unlock(p);
        if (h && !WEFT_TSAN)
            __builtin_prefetch(weft_atomic_load_relaxed_plain(&h->ctx));
    }
    return u;
}

static inline weft_unit *weft_pool_pop_ctx(weft_pool *p, ABT_pool_context ctx)
{
    if (WEFT_LIKELY(p->caps & WEFT_POOL_CAP_INLINE_FIFO))
        return weft_pool_fifo_pop(p);
    return p->ops->pop(p, ctx);
}

static inline weft_unit *weft_pool_pop(weft_pool *p)
{
    return weft_pool_pop_ctx(p, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

static inline size_t weft_pool_size(weft_pool *p)
{
    if (WEFT_LIKELY(p->caps & WEFT_POOL_CAP_INLINE_FIFO))
        return weft_atomic_load_relaxed(&p->size);
    return p->ops->size(p);
}

/* Emptiness as Argobots asks it: a 1.2 user pool's is_empty callback, else size == 0. */
static inline bool weft_pool_is_empty(weft_pool *p)
{
    if (WEFT_LIKELY(p->caps & WEFT_POOL_CAP_INLINE_FIFO))
        return weft_atomic_load_relaxed(&p->size) == 0;
    return p->ops->is_empty ? p->ops->is_empty(p) : p->ops->size(p) == 0;
}

/* Does the pool hold a unit, ready or blocked (the stop checks of schedulers)? */
static inline bool weft_pool_has_unit(weft_pool *p)
{
    return !weft_pool_is_empty(p) || weft_atomic_load_relaxed(&p->num_blocked) > 0;
}

static inline size_t weft_pool_total_size(weft_pool *p)
{
    long b = weft_atomic_load_relaxed(&p->num_blocked);
    return weft_pool_size(p) + (size_t)(b > 0 ? b : 0);
}

/* Remove `u` if it is queued in `p` and has never run (join bypass).  True when the
 * caller now owns u. */
WEFT_INTERNAL bool weft_pool_take_fresh_slow(weft_pool *p, weft_unit *u);
/* The join's take from an INLINE_FIFO pool: queued `u` out of p if it never ran, or
 * also, when `ran_ok`, if it ran (a ULT that yielded and waits ready), is the pool's
 * head (the unit the pool would give next anyway) and has no cancellation or migration
 * pending (the scheduler applies those when it pops u); true if taken.  u's context is read
 * under the lock: only the stream that runs u writes it, and a queued u runs nowhere. */
/* `tasklet`: u is a tasklet, which never runs while queued (no context to test). */
static inline __attribute__((always_inline)) bool
fifo_take_for_join_locked(weft_pool *p, weft_unit *u, bool ran_ok, bool tasklet)
{
    if (WEFT_LIKELY(u->in_pool && u->pool == p)) {
        if (tasklet || u->ctx == NULL) {
            fifo_unlink(p, u);
            return true;
        }
        if (ran_ok && p->head == u && !(weft_atomic_load_relaxed(&u->request) & WEFT_REQ_CANCEL) &&
            !weft_atomic_load_relaxed(&u->migr_to)) {
            /* with the next head's frame prefetched, as a pop does: a joiner that goes
             * through its units in order resumes the next head next */
            weft_pool_fifo_take_head(p, u);
            return true;
        }
    }
    return false;
}
/* (two copies of the body, with and without the lock: one test of p->locked) */
static inline __attribute__((always_inline)) bool fifo_take_for_join(weft_pool *p, weft_unit *u,
                                                                     bool ran_ok, bool tasklet)
{
    if (p->locked) {
        weft_spin_lock(&p->lock);
        bool ok = fifo_take_for_join_locked(p, u, ran_ok, tasklet);
        weft_spin_unlock(&p->lock);
        return ok;
    }
    return fifo_take_for_join_locked(p, u, ran_ok, tasklet);
}
static inline bool weft_pool_fifo_take_joinable(weft_pool *p, weft_unit *u, bool ran_ok)
{
    return fifo_take_for_join(p, u, ran_ok, false);
}
/* ... of a ULT that has no stack (WEFT_STACK_NONE), to run it on the caller's: queued u
 * out of p if it never ran (a unit that ran, queued, has a stack) and has no stack of its
 * user's (WEFT_STACK_USER, set at creation).  Its kind is read under the lock, as the
 * context is above. */
static inline __attribute__((always_inline)) bool fifo_take_stackless_locked(weft_pool *p,
                                                                             weft_unit *u)
{
    if (WEFT_LIKELY(u->in_pool && u->pool == p) && u->stack_kind == WEFT_STACK_NONE) {
        fifo_unlink(p, u);
        return true;
    }
    return false;
}
static inline bool weft_pool_fifo_take_stackless(weft_pool *p, weft_unit *u)
{
    if (p->locked) {
        weft_spin_lock(&p->lock);
        bool ok = fifo_take_stackless_locked(p, u);
        weft_spin_unlock(&p->lock);
        return ok;
    }
    return fifo_take_stackless_locked(p, u);
}
/* ... of a tasklet: out of p if it is queued there */
static inline bool weft_pool_fifo_take_tasklet(weft_pool *p, weft_unit *u)
{
    return fifo_take_for_join(p, u, false, true);
}
/* ... of any pool: a pool of another kind takes only a unit that never ran (through its
 * ops table, pool.c). */
static inline bool weft_pool_take_joinable(weft_pool *p, weft_unit *u, bool ran_ok)
{
    if (WEFT_UNLIKELY(!(p->caps & WEFT_POOL_CAP_INLINE_FIFO)))
        return weft_pool_take_fresh_slow(p, u);
    return weft_pool_fifo_take_joinable(p, u, ran_ok);
}
static inline bool weft_pool_take_fresh(weft_pool *p, weft_unit *u)
{
    return weft_pool_take_joinable(p, u, false);
}
/* Remove a specific queued unit: ABT_SUCCESS, or ABT_ERR_POOL if it is not there (or the
 * pool cannot remove). */
WEFT_INTERNAL int weft_pool_remove(weft_pool *p, weft_unit *u);
/* yield_to in one lock round (core/unit/yield.c): remove queued `u` from the INLINE_FIFO pool
 * `p` and keep holding p's lock (true), so that weft_pool_fifo_push_release, the post
 * action on the other side of the switch, queues the yielding unit and releases it.
 * false: u is not queued in p; the lock is released. */
static inline bool weft_pool_fifo_take_hold(weft_pool *p, weft_unit *u)
{
    WEFT_ASSERT(p->caps & WEFT_POOL_CAP_INLINE_FIFO);
    weft_pool_lock(p);
    if (WEFT_LIKELY(u->in_pool && u->pool == p)) {
        fifo_unlink(p, u);
        return true;
    }
    weft_pool_unlock(p);
    return false;
}

/* Remove `u` if it is queued in `p` (yield_to).  True when the caller now owns u. */
static inline bool weft_pool_remove_ready(weft_pool *p, weft_unit *u)
{
    if (WEFT_UNLIKELY(!(p->caps & WEFT_POOL_CAP_INLINE_FIFO)))
        return weft_pool_remove(p, u) == ABT_SUCCESS;
    if (!weft_pool_fifo_take_hold(p, u))
        return false;
    weft_pool_unlock(p);
    return true;
}
static inline void weft_pool_fifo_push_release(weft_pool *p, weft_unit *u)
{
    fifo_link_tail(p, u);
    fifo_unlock_notify(p, p->locked);
}

/* Block up to timeout_ns for a unit (FIFO_WAIT sleeps, others poll once). */
WEFT_INTERNAL weft_unit *weft_pool_pop_wait(weft_pool *p, uint64_t timeout_ns,
                                            ABT_pool_context ctx);
/* Wake every pop_wait sleeper and every scheduler sleeping on the pool (stop requests). */
WEFT_INTERNAL void weft_pool_wake_all(weft_pool *p);
/* A scheduler going to sleep registers on each of its pools with IDLE_WAKE, and
 * unregisters when it wakes (core/sched/idle.h, sched/idle.c). */
WEFT_INTERNAL void weft_pool_idle_add(weft_pool *p, weft_idle_node *n);
WEFT_INTERNAL void weft_pool_idle_del(weft_pool *p, weft_idle_node *n);

WEFT_INTERNAL WEFT_WUR int weft_pool_create_builtin(ABT_pool_kind kind, ABT_pool_access access,
                                                    bool automatic, weft_pool **out);
/* Free if nobody uses it any more (automatic pools, released by their last scheduler). */
WEFT_INTERNAL void weft_pool_release(weft_pool *p);
WEFT_INTERNAL void weft_pool_destroy(weft_pool *p);

/* ---- the kinds (one file each) ----
 * FIFO, FIFO_WAIT (fifo.c): the inline list; FIFO_WAIT adds CAP_SIGNAL and a sleeping
 *   pop_wait.
 * RANDWS (randws.c): the same list used as a deque (owner pops the head, thieves the tail).
 * Priority FIFO (prio.c, weft extension): one list per level.
 * User-defined (user.c): the user's callbacks behind a per-pool table whose entries are
 *   NULL where the definition lacks the callback.  While a unit sits in a user pool, its
 *   `prev` link holds the user's ABT_unit for it (the pool owns the links, types.h).
 *   ABT_unit values the user created are mapped back to their unit by a table; any other
 *   ABT_unit is a weft_unit pointer, as for the built-in pools. */
extern WEFT_INTERNAL const weft_pool_ops weft_pool_fifo_ops;
/* The list operations of fifo.c, shared by every kind that keeps the intrusive list. */
WEFT_INTERNAL int weft_fifo_remove(weft_pool *p, weft_unit *u);
WEFT_INTERNAL bool weft_fifo_take_fresh(weft_pool *p, weft_unit *u);
WEFT_INTERNAL size_t weft_fifo_size(weft_pool *p);
/* Wake every pop_wait sleeper of a kind that signals through `seq` (fifo.c). */
WEFT_INTERNAL void weft_pool_seq_wake_all(weft_pool *p);
/* pop_wait of the kinds that signal through the event count `seq` (FIFO_WAIT, priority):
 * pop with `pop`, else sleep on `seq` until a push, a wake or the time-out (fifo.c). */
WEFT_INTERNAL weft_unit *weft_pool_seq_pop_wait(weft_pool *p, uint64_t timeout_ns,
                                                ABT_pool_context ctx,
                                                weft_unit *(*pop)(weft_pool *, ABT_pool_context));
WEFT_INTERNAL void weft_fifo_print_all(weft_pool *p, void *arg, void (*fn)(void *, ABT_thread));
extern WEFT_INTERNAL const weft_pool_ops weft_pool_fifo_wait_ops;
extern WEFT_INTERNAL const weft_pool_ops weft_pool_randws_ops;
/* A new pool of `ops` with `caps`, registered (pool.c); ABT_ERR_MEM. `size` >= sizeof
 * (weft_pool): kinds that extend the pool put weft_pool first in their struct. */
WEFT_INTERNAL WEFT_WUR int weft_pool_alloc(const weft_pool_ops *ops, unsigned caps,
                                           ABT_pool_kind kind, ABT_pool_access access,
                                           bool automatic, size_t size, weft_pool **out);

/* ABT_unit -> unit: a user-made unit through the table, anything else as a unit handle
 * (core/handle.h); NULL for a stale handle. */
WEFT_INTERNAL weft_unit *weft_unit_from_abt_unit(ABT_unit unit);
/* ops->pop_unit `how` */
enum weft_pool_pop_how { WEFT_POP_NOW, WEFT_POP_WAIT, WEFT_POP_TIMEDWAIT };
/* keyval.c: the ABT_pool_config_automatic key (unchanged when absent). */
WEFT_INTERNAL void weft_pool_config_automatic(ABT_pool_config cfg, int *automatic);

#endif
