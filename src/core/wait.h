/* src/core/wait.h - what a blocking object needs from core: who is calling, how a caller
 * waits, how a waiter is woken.  The narrow interface of core for the sync module: it
 * includes no pool, scheduler or memory header.  A face blocks through core/face.h,
 * whose functions (core/api/face.c) are these helpers, exported.
 *
 * Waiting.  A ULT parks: it leaves its stack, and the lock of the list it waits on is
 * released by the post action that runs after the switch (core/unit/unit.h, the switching
 * protocol), so a waker can never see a waiter that still runs.  A tasklet or an external
 * thread cannot leave its stack: it releases the lock and sleeps on the futex word of its
 * weft_waiter.  Either way the waker calls weft_waiter_wake exactly once.  The futex word
 * is 0 while waiting, 1 once woken (the waker is still inside its futex_wake on the word,
 * which lives on the waiter's stack) and 2 when the waker is done with it: a sleeper
 * leaves only at 2 (weft_waiter_wait_os), so no wake touches a stack frame that is gone. */
#ifndef WEFT_CORE_WAIT_H
#define WEFT_CORE_WAIT_H

#include "core/runtime.h"

/* The unit the caller runs as: NULL for an external thread or a scheduler. */
static inline weft_unit *weft_self_unit(void)
{
    weft_xstream *xs = weft_xs_self();
    return xs ? xs->cur : NULL;
}

/* The calling ULT, or NULL for a tasklet, a scheduler or an external thread. */
static inline weft_unit *weft_self_ult(void)
{
    weft_unit *u = weft_self_unit();
    return u && (u->flags & WEFT_U_ULT) ? u : NULL;
}

/* The calling unit is a tasklet (Argobots 1.x refuses some waits there). */
static inline bool weft_self_is_tasklet(void)
{
    weft_unit *u = weft_self_unit();
    return u && WEFT_UNLIKELY(!(u->flags & WEFT_U_ULT)); /* the callers' rare case */
}

/* Who is calling, as an owner identity (recursive mutexes): the running unit, else the
 * stream (its scheduler), else `external` for a thread that is not a stream. */
static inline const void *weft_self_identity(const void *external)
{
    weft_xstream *xs = weft_xs_self();
    if (!xs)
        return external;
    return xs->cur ? (const void *)xs->cur : (const void *)xs;
}

/* ABT_thread_cancel was asked for u: it terminates at its next wake-up or yield (a face
 * about to park u in an operation of its own then need not start one). */
static inline bool weft_unit_cancel_requested(weft_unit *u)
{
    return (weft_atomic_load_acquire(&u->request) & WEFT_REQ_CANCEL) != 0;
}

/* The unit ran last on stream xs (a hand-off that stays on the stream). */
static inline bool weft_unit_last_on(const weft_unit *u, const weft_xstream *xs)
{
    return u->xs == xs;
}

/* Count a ULT that is about to park in its pool's blocked units (ABT_pool_get_total_size,
 * and a FINISH request does not stop a scheduler under it).  Undone by the wake. */
static inline void weft_unit_count_blocked(weft_unit *self)
{
    weft_atomic_fetch_add_relaxed(&self->pool->num_blocked, 1);
}

/* The calling ULT yields: it goes back to its pool and runs again later. */
WEFT_INTERNAL void weft_ult_yield(weft_xstream *xs, weft_unit *self);
/* ... through the running scheduler, never its bypass (which may resume the caller at
 * once): the scheduler sees its requests before the caller runs again. */
WEFT_INTERNAL void weft_ult_yield_sched(weft_xstream *xs, weft_unit *self);
/* Park the calling ULT; `post(xs, arg)` runs once it has left its stack (typically it
 * releases the lock of the list the waiter is on).  Returns when woken. */
WEFT_INTERNAL void weft_ult_park(weft_xstream *xs, weft_unit *self,
                                 void (*post)(weft_xstream *, void *), void *arg);
/* The post action that releases the spinlock `arg` (the usual one for weft_ult_park). */
WEFT_INTERNAL void weft_post_unlock(weft_xstream *xs, void *arg);

/* ---- waiting, for every blocking object (join, sync module) ----
 * weft_wait_block: block the caller on `w` (already linked wherever the waker will find
 * it).  A ULT parks and `lock` is released after it has left its stack; a tasklet or an
 * external thread releases `lock` and sleeps on w->futex.  weft_waiter_wake: make the
 * waiter runnable again; must not be called twice for one wait. */
/* A waiter for `ult` (the calling ULT, or NULL: the caller sleeps on the futex). */
static inline void weft_waiter_init_as(weft_waiter *w, weft_unit *ult)
{
    w->next = NULL;
    w->ult = ult;
    weft_atomic_store_relaxed(&w->futex, 0);
    w->counted_blocked = 0;
    w->join_chain = 0;
    w->data = NULL;
}

static inline void weft_waiter_init(weft_waiter *w) { weft_waiter_init_as(w, weft_self_ult()); }
WEFT_INTERNAL void weft_wait_block(weft_waiter *w, weft_spinlock *lock);
/* The same, without counting the ULT in its pool's blocked units: for waits that must not
 * keep a scheduler alive (a stream join waits for that very scheduler to finish). */
WEFT_INTERNAL void weft_wait_block_uncounted(weft_waiter *w, weft_spinlock *lock);
/* Timed waits (a deadline, the wake vs. time-out race) are built on these in the sync
 * module: weft_wl_wait in sync/waitlist.h, timers in sync/timeout.h.  Returns false on
 * time-out there, and the caller unlinks itself under the lock if still linked. */
WEFT_INTERNAL void weft_waiter_wake(weft_waiter *w);
/* Wake every waiter of a list linked through `next`, in list order, each as
 * weft_waiter_wake would; ULTs bound for the same built-in FIFO pool go in together, one
 * lock round per pool (a barrier's round wakes them all at once: the pushes of one by
 * one bounced each pool's lock between the streams).  Every waiter must be woken by
 * nobody else, and be off its stack (parked) already. */
WEFT_INTERNAL void weft_waiter_wake_list(weft_waiter *head);
WEFT_INTERNAL void weft_waiter_wait_os(weft_waiter *w);

/* The body of weft_wait_block(_uncounted), inline for callers on a hot path that know
 * their stream already (the barrier); `count`: count the ULT in its pool's blocked units. */
static inline void weft_wait_block_on(weft_xstream *xs, weft_waiter *w, weft_spinlock *lock,
                                      bool count)
{
    weft_unit *u = w->ult; /* read once: the count's atomic would make it a reload */
    if (u) {
        if (count) {
            weft_unit_count_blocked(u);
            w->counted_blocked = 1;
        }
        weft_ult_park(xs, u, weft_post_unlock, lock);
        return;
    }
    weft_spin_unlock(lock);
    weft_waiter_wait_os(w);
}

#endif
