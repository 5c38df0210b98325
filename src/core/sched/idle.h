/* src/core/sched/idle.h - the idle protocol: how a stream with nothing to run sleeps, and how
 * every event it must react to wakes it (the full story: docs/design/sched.md, "Idle
 * streams").
 *
 * The sleeper word.  Each stream has one futex word, xs->idle:
 *   AWAKE    - the stream runs (or is about to look for work again);
 *   SLEEPING - its scheduler is, or is about to be, in futex_wait on the word;
 *   NOTIFIED - someone woke it (or told an awake stream not to fall asleep).
 * The sleeper stores SLEEPING with a seq_cst exchange, then looks once more for work and
 * sleeps only while the word still says SLEEPING (the kernel re-checks it in futex_wait).
 * A waker first publishes its event (a stop request, the primary ULT handed back, a
 * dump request...), then exchanges NOTIFIED in and calls futex_wake only if it read
 * SLEEPING.  Either the sleeper's exchange comes first - the waker sees SLEEPING and
 * wakes it - or the waker's does - the sleeper reads NOTIFIED and does not sleep, and
 * having read the waker's write it also sees the event published before.  No wake-up
 * is lost, and waking an awake stream costs one atomic exchange, no syscall.
 *
 * Pools.  A push must not pay for this when nobody sleeps.  A sleeping scheduler hangs
 * one weft_idle_node per pool on the pool's `idlers` list, under the pool lock, and the
 * pool mirrors "the list is not empty" in the WEFT_POOL_IDLERS bit of p->notify, the byte
 * whose other bit (SIGNAL) a push has always tested for FIFO_WAIT; the push now reads it
 * under its lock, so seeing the bit costs no instruction more; only when it is set does the pusher
 * take one node off (wake_one, pool.c) and wake its stream with a CAS SLEEPING -> NOTIFIED, trying
 * the next node if that stream was not asleep any more.  The lock orders the two sides: a push
 * either comes before the sleeper's registration (the sleeper's re-check after registering sees the
 * unit) or after it (the pusher sees the bit).  Only locked built-in pools (FIFO, FIFO_WAIT,
 * RANDWS, priority; access other than PRIV) have WEFT_POOL_CAP_IDLE_WAKE; a scheduler
 * with any other pool never sleeps longer than WEFT_IDLE_NAP_MAX_NS.
 *
 * Waking counts (no part of the protocol above: they only decide where a spinner spins).
 * A sleeper notes its CPU in xs->idle_cpu before it exchanges SLEEPING in; a waker that
 * turns the word SLEEPING -> NOTIFIED counts the stream in weft_g.idle_waking[that CPU]
 * (weft_idle_woken), and the stream uncounts itself when it runs again.  A spinner on a
 * CPU whose count is not 0 moves to another CPU or sleeps (sched/idle.c): the woken
 * stream may be queued behind it. */
#ifndef WEFT_CORE_IDLE_H
#define WEFT_CORE_IDLE_H

#include "core/face.h" /* enum weft_idle_word: the values of the word, for a hook's sleep */
#include "core/types.h"

/* A sleeping scheduler's registration in one pool; linked while `linked` (pool lock). */
typedef struct weft_idle_node {
    struct weft_idle_node *next, *prev;
    _Atomic uint32_t *word; /* the sleeping stream's xs->idle */
    uint8_t linked;
} weft_idle_node;

/* The owner of `word` (an xs->idle) was asleep and is being woken (its word went
 * SLEEPING -> NOTIFIED): count it as waking on the CPU it slept on until it runs again
 * (sched/idle.c: a spinner on that CPU stops spinning, the woken stream may be queued
 * behind it). */
WEFT_INTERNAL void weft_idle_woken(_Atomic uint32_t *word);

/* Wake the owner of `word` for an event published before this call (stop request,
 * hand-off, dump...): it will not sleep through it. */
static inline void weft_idle_notify(_Atomic uint32_t *word)
{
    if (weft_atomic_exchange_seq_cst(word, WEFT_IDLE_NOTIFIED) == WEFT_IDLE_SLEEPING) {
        weft_idle_woken(word);
        weft_futex_wake(word, 1);
    }
}

/* Wake the owner of `word` only if it sleeps; false if it was awake or already woken
 * (a push then tries another sleeper). */
static inline bool weft_idle_wake_sleeper(_Atomic uint32_t *word)
{
    uint32_t e = WEFT_IDLE_SLEEPING;
    if (!weft_atomic_cas_strong_seq_cst(word, &e, WEFT_IDLE_NOTIFIED))
        return false;
    weft_idle_woken(word);
    weft_futex_wake(word, 1);
    return true;
}

static inline void weft_xs_wake(weft_xstream *xs) { weft_idle_notify(&xs->idle); }

#endif
