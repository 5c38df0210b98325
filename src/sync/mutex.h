/* src/sync/mutex.h - ABT_mutex internals shared with the condition variable.
 *
 * State word (one CAS to lock, one to unlock while uncontended):
 *   M_LOCKED   held
 *   M_WAITERS  the waitlists may be non-empty: unlock must take the slow path
 * Locking: CAS 0 -> LOCKED; else the slow path takes the object lock, re-reads the state
 * and either takes the free mutex or sets WAITERS and parks on a waitlist (`high` for
 * lock / lock_high, `low` for lock_low).  Unlocking (every unlock call): CAS LOCKED -> 0;
 * else, under the object lock, unlink one waiter (high first; unlock_se / unlock_de may
 * prefer another, see mutex.c), store the new state - free, WAITERS if more remain - and
 * wake the waiter, which competes for the mutex again from the head of its list.
 * The mutex is never handed to a waiter: a woken waiter may not run for a long time (a
 * ULT spinning in trylock can hold its stream), so while it is not running the mutex
 * must stay free for the others.  Releasing also keeps the uncontended owner fast (no
 * lock convoy).
 * Lost wake-ups cannot happen: WAITERS is set by CAS under the object lock while the
 * mutex is held, so the holder's unlock CAS fails and it takes the same lock; a trylock
 * or a fast-path lock that takes the free mutex leaves WAITERS as it is, so its unlock
 * wakes the next waiter.  Progress: whenever the mutex is free, any caller can take it,
 * and every waiter is either on a list (and the WAITERS bit set) or woken.
 * Recursive mutexes: `owner` identifies the holder (its work unit, its stream when called
 * from a scheduler, or a thread-local address for an external thread) and `nest` counts
 * the extra levels; both are written only by the holder. */
#ifndef WEFT_SYNC_MUTEX_H
#define WEFT_SYNC_MUTEX_H

#include "sync/objmem.h"
#include "sync/waitlist.h"

#define M_LOCKED  1u
#define M_WAITERS 2u

typedef struct {
    _Atomic uint32_t state;  /* M_LOCKED | M_WAITERS */
    weft_spinlock lock;      /* guards the waitlists */
    uint32_t nest;           /* recursive: extra levels; holder only */
    uint32_t allocated;      /* made by ABT_mutex_create (may be freed) */
    _Atomic(void *) owner;   /* recursive: holder identity, NULL when free */
    weft_waitlist high, low; /* guarded by lock */
} weft_mutex;

_Static_assert(sizeof(weft_mutex) <= WEFT_OBJ_BODY_MAX, "weft_mutex must fit ABT_mutex_memory");

/* The mutex memory a handle names as an untagged handle (objmem.h: what the routines
 * below and the cond take), or NULL for a NULL, ABT_MUTEX_NULL or stale handle. */
static inline ABT_mutex weft_mutex_from(ABT_mutex h) { return (ABT_mutex)weft_obj_from(h); }
static inline bool weft_mutex_recursive(ABT_mutex h) { return *(const int *)h != 0; }
static inline weft_mutex *weft_mutex_body(ABT_mutex h) { return weft_obj_body(h); }

/* Lock / unlock as the condition variable needs them: full release of a recursive
 * mutex (returns the depth to restore) and re-acquisition at that depth. */
WEFT_INTERNAL uint32_t weft_mutex_unlock_all(ABT_mutex h);
WEFT_INTERNAL void weft_mutex_relock(ABT_mutex h, uint32_t nest);

/* The slow paths of acquire and release (mutex.c): `low` picks lock_low's list, `mode`
 * is ABT_mutex_unlock's (0), unlock_se's or unlock_de's. */
WEFT_INTERNAL void weft_mutex_lock_slow(weft_mutex *m, uint32_t low);
WEFT_INTERNAL void weft_mutex_unlock_slow(weft_mutex *m, int mode);

/* The uncontended acquire and release, one CAS each, inline for the mutex's entries and
 * the condition variable's wait (a plain mutex: no recursion to save or restore). */
static inline void weft_mutex_acquire(weft_mutex *m, uint32_t low)
{
    uint32_t z = 0;
    if (WEFT_LIKELY(weft_atomic_cas_strong_acquire(&m->state, &z, M_LOCKED)))
        return;
    weft_mutex_lock_slow(m, low);
}

static inline void weft_mutex_release(weft_mutex *m, int mode)
{
    uint32_t l = M_LOCKED;
    if (WEFT_LIKELY(weft_atomic_cas_strong_release(&m->state, &l, 0)))
        return;
    weft_mutex_unlock_slow(m, mode);
}

/* mutex_attr.c: whether an attribute asks for a recursive mutex (ABT_ERR_INV_MUTEX_ATTR
 * on a bad handle), and a fresh attribute with that property. */
WEFT_INTERNAL int weft_mutex_attr_recursive(ABT_mutex_attr attr, bool *recursive);
WEFT_INTERNAL int weft_mutex_attr_make(bool recursive, ABT_mutex_attr *attr);

#endif
