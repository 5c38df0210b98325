/* src/sync/cond.c - ABT_cond_*: condition variables over the waitlist.
 *
 * wait: under the cond's lock, link the waiter, then release the mutex (lock order:
 * cond lock, then the mutex's object lock), then block; the cond lock is released only
 * once the waiter is blocked, so a signal after the mutex is released cannot be lost.
 * Woken, it re-acquires the mutex (at its former recursion depth).  No spurious wake-ups:
 * a waiter returns ABT_SUCCESS only when a signal or broadcast claimed it.
 * timedwait: the same with a deadline (timeout.h); a waiter whose deadline fires first is
 * claimed by its timer, so a later signal skips it and wakes somebody else (claim
 * protocol in waitlist.h).  Tasklets may use timedwait (futex sleep) but not wait, as in
 * Argobots 1.x.  A cond is associated with the mutex of its waiters while it has some;
 * waiting with another mutex meanwhile returns ABT_ERR_INV_MUTEX (Argobots keeps the
 * first mutex for ever; its documentation only requires it "until this routine
 * returns").  The common wait (a ULT, no deadline, a plain mutex) and a signal with
 * nobody waiting take the short paths described in docs/architecture.md ("Condition
 * variables, eventuals and futures"). */
#include "sync/mutex.h"

typedef struct {
    weft_spinlock lock;
    uint32_t allocated; /* made by ABT_cond_create */
    ABT_mutex mutex;    /* mutex of the current waiters; guarded by lock */
    weft_waitlist wl;   /* guarded by lock */
} weft_cond;

_Static_assert(sizeof(weft_cond) <= WEFT_OBJ_BODY_MAX, "weft_cond must fit ABT_cond_memory");

static inline weft_cond *cond_from(ABT_cond h) { return weft_obj_body_from(h); }

WEFT_API int ABT_cond_create(ABT_cond *newcond)
{
    if (!newcond)
        return ABT_ERR_INV_ARG;
    void *h = weft_obj_alloc(0);
    if (!h) {
        *newcond = ABT_COND_NULL;
        return ABT_ERR_MEM;
    }
    ((weft_cond *)weft_obj_body(h))->allocated = 1;
    *newcond = (ABT_cond)weft_obj_handle(h);
    return ABT_SUCCESS;
}

WEFT_API int ABT_cond_free(ABT_cond *cond)
{
    if (!cond)
        return ABT_ERR_INV_ARG;
    weft_cond *c = cond_from(*cond);
    if (!c || !c->allocated)
        return ABT_ERR_INV_COND;
    weft_spin_lock(&c->lock);
    if (!weft_wl_empty(&c->wl)) {
        weft_spin_unlock(&c->lock);
        return ABT_ERR_COND;
    }
    weft_obj_free(weft_obj_from(*cond), 0);
    *cond = ABT_COND_NULL;
    return ABT_SUCCESS;
}

static int cond_wait(weft_cond *c, ABT_mutex mutex, const struct timespec *abstime)
{
    uint64_t deadline = 0;
    weft_wl_waiter ww;
    weft_wl_node nd;
    weft_wl_waiter_init(&ww);
    if (abstime) {
        if (ww.w.ult && weft_tq_prepare() != ABT_SUCCESS)
            return ABT_ERR_MEM;
        deadline = weft_deadline_from_abstime(abstime);
    }
    weft_wl_node_init(&nd, &ww, 0);
    weft_spin_lock(&c->lock);
    if (c->mutex == NULL) {
        c->mutex = mutex;
    } else if (c->mutex != mutex) {
        weft_spin_unlock(&c->lock);
        return ABT_ERR_INV_MUTEX;
    }
    if (deadline && deadline <= weft_clock_ns()) {
        /* already passed: as if released and re-acquired at once */
        if (weft_wl_empty(&c->wl))
            c->mutex = NULL;
        weft_spin_unlock(&c->lock);
        return ABT_ERR_COND_TIMEDOUT;
    }
    weft_wl_push_tail(&c->wl, &nd);
    uint32_t nest = weft_mutex_unlock_all(mutex);
    bool woken = weft_wl_wait(&ww, &c->lock, deadline);
    if (!woken) {
        weft_spin_lock(&c->lock);
        if (nd.linked)
            weft_wl_unlink(&c->wl, &nd);
        if (weft_wl_empty(&c->wl))
            c->mutex = NULL;
        weft_spin_unlock(&c->lock);
    }
    weft_mutex_relock(mutex, nest);
    return woken ? ABT_SUCCESS : ABT_ERR_COND_TIMEDOUT;
}

/* The untimed wait of a ULT on a plain mutex, the common one (see the header): its waiter
 * has one possible waker, so only the fields a signal reads are set (waitlist.h: `ult`,
 * `counted_blocked`, `contested`, `gated`; the node's links and `arg`), the mutex is
 * released and re-taken inline, and nothing is read back after the wake. */
static int cond_wait_ult(weft_xstream *xs, weft_unit *self, weft_cond *c, ABT_mutex mutex)
{
    weft_wl_waiter ww;
    weft_wl_node nd;
    ww.w.ult = self;
    ww.w.counted_blocked = 1;
    ww.contested = 0;
    ww.gated = 0;
    nd.waiter = &ww;
    nd.arg = 0;
    weft_mutex *m = weft_mutex_body(mutex);
    weft_spin_lock(&c->lock);
    if (WEFT_UNLIKELY(c->mutex != mutex)) {
        if (c->mutex) {
            weft_spin_unlock(&c->lock);
            return ABT_ERR_INV_MUTEX;
        }
        c->mutex = mutex;
    }
    weft_wl_push_tail(&c->wl, &nd);
    weft_mutex_release(m, 0);
    /* counted like weft_wait_block does, so FINISH does not stop a stream under it */
    weft_unit_count_blocked(self);
    weft_ult_park(xs, self, weft_post_unlock, &c->lock);
    weft_mutex_acquire(m, 0);
    return ABT_SUCCESS;
}

WEFT_API int ABT_cond_wait(ABT_cond cond, ABT_mutex mutex)
{
    weft_cond *c = cond_from(cond);
    if (WEFT_UNLIKELY(!c))
        return ABT_ERR_INV_COND;
    if (WEFT_UNLIKELY(!(mutex = weft_mutex_from(mutex))))
        return ABT_ERR_INV_MUTEX;
    weft_unit *self = weft_self_ult();
    if (WEFT_LIKELY(self && !weft_mutex_recursive(mutex)))
        return cond_wait_ult(weft_xs_self(), self, c, mutex);
    if (weft_self_is_tasklet())
        return ABT_ERR_COND;
    return cond_wait(c, mutex, NULL);
}

WEFT_API int ABT_cond_timedwait(ABT_cond cond, ABT_mutex mutex, const struct timespec *abstime)
{
    weft_cond *c = cond_from(cond);
    if (!c)
        return ABT_ERR_INV_COND;
    if (!(mutex = weft_mutex_from(mutex)))
        return ABT_ERR_INV_MUTEX;
    if (!abstime)
        return ABT_ERR_INV_ARG;
    return cond_wait(c, mutex, abstime);
}

/* Nobody waits: no lock (weft_wl_seen_empty; the cond's mutex association is already
 * NULL with an empty list). */
WEFT_API int ABT_cond_signal(ABT_cond cond)
{
    weft_cond *c = cond_from(cond);
    if (WEFT_UNLIKELY(!c))
        return ABT_ERR_INV_COND;
    if (weft_wl_seen_empty(&c->wl))
        return ABT_SUCCESS;
    weft_spin_lock(&c->lock);
    weft_wl_waiter *ww = weft_wl_take_one(&c->wl);
    if (weft_wl_empty(&c->wl))
        c->mutex = NULL;
    weft_spin_unlock(&c->lock);
    if (ww)
        weft_wl_wake(ww);
    return ABT_SUCCESS;
}

WEFT_API int ABT_cond_broadcast(ABT_cond cond)
{
    weft_cond *c = cond_from(cond);
    if (!c)
        return ABT_ERR_INV_COND;
    if (weft_wl_seen_empty(&c->wl))
        return ABT_SUCCESS;
    weft_spin_lock(&c->lock);
    weft_wl_waiter *chain = weft_wl_take_all(&c->wl);
    c->mutex = NULL;
    weft_spin_unlock(&c->lock);
    weft_wl_wake_chain(chain);
    return ABT_SUCCESS;
}
