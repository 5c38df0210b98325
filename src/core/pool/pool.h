/* src/core/pool/pool.h - pools: the built-in FIFO fast path inline, everything else through
 * weft_pool_ops.
 *
 * Built-in FIFO / FIFO_WAIT: an intrusive doubly-linked list through weft_unit.next/prev
 * (O(1) removal for join bypass and ABT_pool_remove).  Access PRIV takes no lock and no
 * atomic; every other access mode takes the pool's spinlock around a few pointer writes.
 * FIFO_WAIT adds an event count (`seq`, a futex word) so pop_wait sleeps in the kernel
 * and a push wakes exactly one sleeper; a push only pays an atomic increment plus a load
 * of `nsleepers`.  Sleeper and pusher follow the Dekker pattern with seq_cst operations:
 * the sleeper announces itself (nsleepers++) and re-checks `seq` inside futex_wait; the
 * pusher bumps `seq` and then reads `nsleepers`. */
#ifndef WEFT_CORE_POOL_H
#define WEFT_CORE_POOL_H

#include "core/runtime.h"

#define WEFT_POOL_HANDLE(p) ((ABT_pool)(p))

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
    weft_atomic_store_relaxed(&p->size, weft_atomic_load_relaxed(&p->size) + 1);
}

static inline void fifo_unlink(weft_pool *p, weft_unit *u)
{
    if (u->prev)
        u->prev->next = u->next;
    else
        p->head = u->next;
    if (u->next)
        u->next->prev = u->prev;
    else
        p->tail = u->prev;
    u->in_pool = 0;
    weft_atomic_store_relaxed(&p->size, weft_atomic_load_relaxed(&p->size) - 1);
}

/* Put a unit back at the head of a built-in FIFO pool (it was popped by mistake). */
static inline void weft_pool_push_head(weft_pool *p, weft_unit *u)
{
    if (p->locked)
        weft_spin_lock(&p->lock);
    u->prev = NULL;
    u->next = p->head;
    if (p->head)
        p->head->prev = u;
    else
        p->tail = u;
    p->head = u;
    u->in_pool = 1;
    weft_atomic_store_relaxed(&p->size, weft_atomic_load_relaxed(&p->size) + 1);
    if (p->locked)
        weft_spin_unlock(&p->lock);
}

WEFT_INTERNAL void weft_pool_signal(weft_pool *p);

/* Push a ready unit.  The caller has set u->pool = p (or keeps it for a re-push). */
static inline void weft_pool_push_ctx(weft_pool *p, weft_unit *u, ABT_pool_context ctx)
{
    if (WEFT_LIKELY(p->builtin_fifo)) {
        if (p->locked)
            weft_spin_lock(&p->lock);
        fifo_link_tail(p, u);
        if (p->locked)
            weft_spin_unlock(&p->lock);
        if (p->waitable)
            weft_pool_signal(p);
        return;
    }
    p->ops->push(p, u, ctx);
}

static inline void weft_pool_push(weft_pool *p, weft_unit *u)
{
    weft_pool_push_ctx(p, u, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

static inline weft_unit *weft_pool_pop_ctx(weft_pool *p, ABT_pool_context ctx)
{
    if (WEFT_LIKELY(p->builtin_fifo)) {
        if (weft_atomic_load_relaxed(&p->size) == 0)
            return NULL;
        if (p->locked)
            weft_spin_lock(&p->lock);
        weft_unit *u = p->head;
        if (u)
            fifo_unlink(p, u);
        if (p->locked)
            weft_spin_unlock(&p->lock);
        return u;
    }
    return p->ops->pop(p, ctx);
}

static inline weft_unit *weft_pool_pop(weft_pool *p)
{
    return weft_pool_pop_ctx(p, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

static inline size_t weft_pool_size(weft_pool *p)
{
    if (WEFT_LIKELY(p->builtin_fifo))
        return weft_atomic_load_relaxed(&p->size);
    return p->ops->size(p);
}

static inline size_t weft_pool_total_size(weft_pool *p)
{
    long b = weft_atomic_load_relaxed(&p->num_blocked);
    return weft_pool_size(p) + (size_t)(b > 0 ? b : 0);
}

/* Remove `u` if it is queued in `p` and has never run (join bypass).  True when the
 * caller now owns u. */
WEFT_INTERNAL bool weft_pool_take_fresh_slow(weft_pool *p, weft_unit *u);
static inline bool weft_pool_take_fresh(weft_pool *p, weft_unit *u)
{
    if (WEFT_UNLIKELY(!p->builtin_fifo))
        return weft_pool_take_fresh_slow(p, u);
    bool ok = false;
    if (p->locked)
        weft_spin_lock(&p->lock);
    if (u->in_pool && u->pool == p && u->ctx == NULL) {
        fifo_unlink(p, u);
        ok = true;
    }
    if (p->locked)
        weft_spin_unlock(&p->lock);
    return ok;
}
/* Remove `u` if it is queued in `p` (yield_to).  True when the caller now owns u. */
WEFT_INTERNAL bool weft_pool_remove_ready(weft_pool *p, weft_unit *u);
/* Remove a specific queued unit: ABT_SUCCESS, or ABT_ERR_POOL if it is not there. */
WEFT_INTERNAL int weft_pool_remove(weft_pool *p, weft_unit *u);
/* Block up to timeout_ns for a unit (FIFO_WAIT sleeps, others poll once). */
WEFT_INTERNAL weft_unit *weft_pool_pop_wait(weft_pool *p, uint64_t timeout_ns,
                                            ABT_pool_context ctx);
/* Wake every pop_wait sleeper (stop requests). */
WEFT_INTERNAL void weft_pool_wake_all(weft_pool *p);

WEFT_INTERNAL WEFT_WUR int weft_pool_create_builtin(ABT_pool_kind kind, ABT_pool_access access,
                                                    bool automatic, weft_pool **out);
/* Free if nobody uses it any more (automatic pools, released by their last scheduler). */
WEFT_INTERNAL void weft_pool_release(weft_pool *p);
WEFT_INTERNAL void weft_pool_destroy(weft_pool *p);

/* ---- pools behind an ops table (helper's addition for the scheduler framework) ----
 * RANDWS (pool/randws.c): the FIFO list used as a deque; impl == NULL.
 * User-defined pools (pool/user.c): the user's callbacks behind a per-pool ops table whose
 * entries are NULL where the definition lacks the callback; impl != NULL.  While a unit
 * sits in a user pool, its `prev` link holds the user's ABT_unit for it (the pool owns
 * the links, types.h).  ABT_unit values the user created are mapped back to their unit
 * by a table; any other ABT_unit is a weft_unit pointer, as for the built-in pools. */
extern WEFT_INTERNAL const weft_pool_ops weft_pool_randws_ops;
/* weft_pool_take_fresh for a RANDWS pool: the same checks as the FIFO one, under its lock. */
WEFT_INTERNAL bool weft_pool_randws_take_fresh(weft_pool *p, weft_unit *u);

static inline bool weft_pool_is_user(const weft_pool *p) { return p->impl != NULL; }

enum weft_pool_cap {
    WEFT_POOL_CAN_GET_SIZE,        /* ABT_pool_get_size / get_total_size */
    WEFT_POOL_CAN_POP_WAIT,        /* ABT_pool_pop_wait_thread(_ex) */
};
/* Whether a pool provides an optional operation (always true for built-in pools). */
WEFT_INTERNAL bool weft_pool_user_can(weft_pool *p, enum weft_pool_cap cap);
/* ABT_unit -> unit: a user-made unit through the table, anything else as a pointer. */
WEFT_INTERNAL weft_unit *weft_unit_from_abt_unit(ABT_unit unit);
/* Same, for a caller that takes the unit over (runs or re-pushes it): a user-made unit
 * popped through ABT_pool_pop is released (unmapped and given to the pool's free_unit). */
WEFT_INTERNAL weft_unit *weft_unit_claim_abt_unit(ABT_unit unit);
/* The unit-level public operations on a user pool (pool.c delegates to these). */
enum weft_pool_pop_how { WEFT_POP_NOW, WEFT_POP_WAIT, WEFT_POP_TIMEDWAIT };
WEFT_INTERNAL int weft_pool_user_pop_unit(weft_pool *p, ABT_unit *unit,
                                          enum weft_pool_pop_how how, double secs);
WEFT_INTERNAL int weft_pool_user_remove_unit(weft_pool *p, ABT_unit unit);
WEFT_INTERNAL int weft_pool_user_print_units(weft_pool *p, void *arg,
                                             void (*fn)(void *, ABT_unit));
WEFT_INTERNAL int weft_pool_user_pop_threads(weft_pool *p, ABT_thread *threads, size_t len,
                                             size_t *num, ABT_pool_context ctx);
WEFT_INTERNAL int weft_pool_user_push_threads(weft_pool *p, const ABT_thread *threads,
                                              size_t num, ABT_pool_context ctx);
/* config.c: the ABT_pool_config_automatic key (unchanged when absent). */
WEFT_INTERNAL void weft_pool_config_automatic(ABT_pool_config cfg, int *automatic);

#endif
