/* src/sync/mutex.c - ABT_mutex_*: a mutex whose waiters park (ULTs) or sleep on a futex
 * (tasklets, external threads); never a busy-wait except in ABT_mutex_spinlock, which
 * asks for one.  The protocol is described in mutex.h and docs/design/sync.md.
 *
 * unlock_se / unlock_de release the mutex exactly like ABT_mutex_unlock (as in Argobots
 * 1.2); they only choose which waiter is woken: unlock_se one whose ULT last ran on the
 * caller's stream (and a ULT caller then yields, so that the woken one runs next),
 * unlock_de one that is not there (another stream's ULT, a tasklet or an external
 * thread).  Without such a waiter they wake the first one, like ABT_mutex_unlock.
 * Ownership is never handed to a waiter directly: a waiter that is made ready may not run
 * for a long time (its stream may be busy with a ULT spinning in ABT_mutex_trylock), and
 * a mutex owned by it would then stop everyone. */
#include <sched.h>

#include "sync/mutex.h"

enum { UNLOCK_PLAIN, UNLOCK_SE, UNLOCK_DE };

static __thread char ext_tag __attribute__((tls_model("initial-exec")));

/* Identity of the caller for recursive mutexes. */
static inline void *self_id(void) { return (void *)weft_self_identity(&ext_tag); }

/* ---------------------------------------------------------------- acquire / release */

WEFT_COLD void weft_mutex_lock_slow(weft_mutex *m, uint32_t low)
{
    weft_wl_waiter ww;
    weft_wl_node nd;
    bool first = true;
    for (;;) {
        weft_spin_lock(&m->lock);
        uint32_t s = weft_atomic_load_relaxed(&m->state);
        for (;;) {
            if (!(s & M_LOCKED)) {
                if (weft_atomic_cas_weak_acquire(&m->state, &s, s | M_LOCKED)) {
                    weft_spin_unlock(&m->lock);
                    return;
                }
            } else if (s & M_WAITERS) {
                break;
            } else if (weft_atomic_cas_weak_relaxed(&m->state, &s, s | M_WAITERS)) {
                break;
            }
        }
        if (first)
            weft_wl_waiter_init(&ww);
        else
            weft_wl_waiter_rearm(&ww);
        weft_wl_node_init(&nd, &ww, low);
        weft_waitlist *l = low ? &m->low : &m->high;
        /* a waiter that was woken and lost the race goes back to the head */
        if (first)
            weft_wl_push_tail(l, &nd);
        else
            weft_wl_push_head(l, &nd);
        first = false;
        weft_wl_wait(&ww, &m->lock, 0);
        /* woken: the mutex was released; compete for it again */
    }
}

static inline bool try_acquire(weft_mutex *m)
{
    uint32_t s = weft_atomic_load_relaxed(&m->state);
    while (!(s & M_LOCKED)) {
        if (weft_atomic_cas_weak_acquire(&m->state, &s, s | M_LOCKED))
            return true;
    }
    return false;
}

/* The waiter unlock_se / unlock_de prefer, unlinked and claimed (object lock held); NULL
 * if none qualifies.  *same_stream tells whether it is a ULT of the caller's stream. */
static weft_wl_waiter *take_preferred(weft_mutex *m, weft_xstream *xs, int mode, bool *same_stream)
{
    weft_waitlist *lists[2] = { &m->high, &m->low };
    for (int i = 0; i < 2; i++) {
        for (weft_wl_node *n = lists[i]->head; n; n = n->next) {
            weft_unit *u = n->waiter->w.ult;
            bool same = xs && u && weft_unit_last_on(u, xs);
            if (mode == UNLOCK_SE ? same : !same) {
                weft_wl_unlink(lists[i], n);
                weft_wl_claim(n->waiter, WL_WOKEN); /* mutex waiters are never contested */
                *same_stream = same;
                return n->waiter;
            }
        }
    }
    return NULL;
}

WEFT_COLD void weft_mutex_unlock_slow(weft_mutex *m, int mode)
{
    weft_xstream *xs = weft_xs_self();
    weft_wl_waiter *ww = NULL;
    bool same_stream = false;
    weft_spin_lock(&m->lock);
    if (mode != UNLOCK_PLAIN)
        ww = take_preferred(m, xs, mode, &same_stream);
    if (!ww)
        ww = weft_wl_take_one(&m->high);
    if (!ww)
        ww = weft_wl_take_one(&m->low);
    uint32_t more = weft_wl_empty(&m->high) && weft_wl_empty(&m->low) ? 0 : M_WAITERS;
    /* free from here on: the woken waiter competes like anyone else (trylock included) */
    weft_atomic_store_release(&m->state, more);
    weft_spin_unlock(&m->lock);
    if (!ww)
        return;
    weft_unit *self = mode == UNLOCK_SE && same_stream ? weft_self_ult() : NULL;
    weft_wl_wake(ww); /* ww may be gone from here on */
    if (self)         /* the woken ULT was pushed first: it runs (and takes the mutex) before us */
        weft_ult_yield(xs, self);
}

/* ---------------------------------------------------------------- with recursion */

/* out of line, so that the plain mutex's fast path needs no stack frame */
static __attribute__((noinline)) void lock_recursive(weft_mutex *m, uint32_t low)
{
    void *me = self_id();
    if (weft_atomic_load_relaxed(&m->owner) == me) {
        m->nest++;
        return;
    }
    weft_mutex_acquire(m, low);
    weft_atomic_store_relaxed(&m->owner, me);
    m->nest = 0;
}

static inline void lock_any(ABT_mutex h, uint32_t low)
{
    weft_mutex *m = weft_mutex_body(h);
    if (WEFT_UNLIKELY(weft_mutex_recursive(h)))
        lock_recursive(m, low);
    else
        weft_mutex_acquire(m, low);
}

static inline void unlock_any(ABT_mutex h, int mode)
{
    weft_mutex *m = weft_mutex_body(h);
    if (WEFT_UNLIKELY(weft_mutex_recursive(h))) {
        if (m->nest) {
            m->nest--;
            return;
        }
        weft_atomic_store_relaxed(&m->owner, NULL);
    }
    weft_mutex_release(m, mode);
}

uint32_t weft_mutex_unlock_all(ABT_mutex h)
{
    weft_mutex *m = weft_mutex_body(h);
    uint32_t nest = 0;
    if (weft_mutex_recursive(h)) {
        nest = m->nest;
        m->nest = 0;
        weft_atomic_store_relaxed(&m->owner, NULL);
    }
    weft_mutex_release(m, UNLOCK_PLAIN);
    return nest;
}

void weft_mutex_relock(ABT_mutex h, uint32_t nest)
{
    weft_mutex *m = weft_mutex_body(h);
    weft_mutex_acquire(m, 0);
    if (weft_mutex_recursive(h)) {
        weft_atomic_store_relaxed(&m->owner, self_id());
        m->nest = nest;
    }
}

/* ---------------------------------------------------------------- public API */

static int create(bool recursive, ABT_mutex *newmutex)
{
    void *h = weft_obj_alloc(0);
    if (!h) {
        *newmutex = ABT_MUTEX_NULL;
        return ABT_ERR_MEM;
    }
    *(int *)h = recursive;
    ((weft_mutex *)weft_obj_body(h))->allocated = 1;
    *newmutex = (ABT_mutex)weft_obj_handle(h);
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_create(ABT_mutex *newmutex)
{
    if (!newmutex)
        return ABT_ERR_INV_ARG;
    return create(false, newmutex);
}

/* weft_mutex_attr_recursive: mutex_attr.c */

WEFT_API int ABT_mutex_create_with_attr(ABT_mutex_attr attr, ABT_mutex *newmutex)
{
    if (!newmutex)
        return ABT_ERR_INV_ARG;
    bool rec = false;
    int r = weft_mutex_attr_recursive(attr, &rec);
    if (r != ABT_SUCCESS) {
        *newmutex = ABT_MUTEX_NULL;
        return r;
    }
    return create(rec, newmutex);
}

WEFT_API int ABT_mutex_free(ABT_mutex *mutex)
{
    if (!mutex)
        return ABT_ERR_INV_ARG;
    ABT_mutex h = weft_mutex_from(*mutex);
    if (!h)
        return ABT_ERR_INV_MUTEX;
    weft_mutex *m = weft_mutex_body(h);
    if (!m->allocated) /* ABT_mutex_memory: not ours to free */
        return ABT_ERR_INV_MUTEX;
    /* let an unlocker still inside its critical section leave it (Argobots does too) */
    weft_spin_lock(&m->lock);
    weft_obj_free(h, 0);
    *mutex = ABT_MUTEX_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_lock(ABT_mutex mutex)
{
    if (WEFT_UNLIKELY(!(mutex = weft_mutex_from(mutex))))
        return ABT_ERR_INV_MUTEX;
    lock_any(mutex, 0);
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_lock_high(ABT_mutex mutex)
{
    if (WEFT_UNLIKELY(!(mutex = weft_mutex_from(mutex))))
        return ABT_ERR_INV_MUTEX;
    lock_any(mutex, 0);
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_lock_low(ABT_mutex mutex)
{
    if (WEFT_UNLIKELY(!(mutex = weft_mutex_from(mutex))))
        return ABT_ERR_INV_MUTEX;
    lock_any(mutex, 1);
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_trylock(ABT_mutex mutex)
{
    if (WEFT_UNLIKELY(!(mutex = weft_mutex_from(mutex))))
        return ABT_ERR_INV_MUTEX;
    weft_mutex *m = weft_mutex_body(mutex);
    if (WEFT_UNLIKELY(weft_mutex_recursive(mutex))) {
        void *me = self_id();
        if (weft_atomic_load_relaxed(&m->owner) == me) {
            m->nest++;
            return ABT_SUCCESS;
        }
        if (!try_acquire(m))
            return ABT_ERR_MUTEX_LOCKED;
        weft_atomic_store_relaxed(&m->owner, me);
        m->nest = 0;
        return ABT_SUCCESS;
    }
    return try_acquire(m) ? ABT_SUCCESS : ABT_ERR_MUTEX_LOCKED;
}

/* Busy-wait by request: never parks, never sleeps; gives the core away (sched_yield)
 * after a while so that a preempted holder on the same core can finish. */
WEFT_API int ABT_mutex_spinlock(ABT_mutex mutex)
{
    if (WEFT_UNLIKELY(!(mutex = weft_mutex_from(mutex))))
        return ABT_ERR_INV_MUTEX;
    weft_mutex *m = weft_mutex_body(mutex);
    void *me = NULL;
    if (weft_mutex_recursive(mutex)) {
        me = self_id();
        if (weft_atomic_load_relaxed(&m->owner) == me) {
            m->nest++;
            return ABT_SUCCESS;
        }
    }
    for (uint32_t spins = 0; !try_acquire(m);) {
        while (weft_atomic_load_relaxed(&m->state) & M_LOCKED) {
            if (++spins < 1024) {
                weft_cpu_relax();
            } else {
                spins = 0;
                sched_yield();
            }
        }
    }
    if (me) {
        weft_atomic_store_relaxed(&m->owner, me);
        m->nest = 0;
    }
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_unlock(ABT_mutex mutex)
{
    if (WEFT_UNLIKELY(!(mutex = weft_mutex_from(mutex))))
        return ABT_ERR_INV_MUTEX;
    unlock_any(mutex, UNLOCK_PLAIN);
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_unlock_se(ABT_mutex mutex)
{
    if (WEFT_UNLIKELY(!(mutex = weft_mutex_from(mutex))))
        return ABT_ERR_INV_MUTEX;
    unlock_any(mutex, UNLOCK_SE);
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_unlock_de(ABT_mutex mutex)
{
    if (WEFT_UNLIKELY(!(mutex = weft_mutex_from(mutex))))
        return ABT_ERR_INV_MUTEX;
    unlock_any(mutex, UNLOCK_DE);
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_equal(ABT_mutex mutex1, ABT_mutex mutex2, ABT_bool *result)
{
    if (!result)
        return ABT_ERR_INV_ARG;
    *result = mutex1 == mutex2 ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

/* mutex_attr.c */

WEFT_API int ABT_mutex_get_attr(ABT_mutex mutex, ABT_mutex_attr *attr)
{
    if (!attr)
        return ABT_ERR_INV_ARG;
    if (!(mutex = weft_mutex_from(mutex)))
        return ABT_ERR_INV_MUTEX;
    return weft_mutex_attr_make(weft_mutex_recursive(mutex), attr);
}
