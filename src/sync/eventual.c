/* src/sync/eventual.c - ABT_eventual_* and weft_eventual_{,timed}wait_any.
 *
 * An eventual is a flag plus an optional value buffer (nbytes, allocated with the object
 * at offset 64; a static ABT_eventual_memory has none).  `ready` is written under the
 * lock and read without it by the fast paths (acquire: the value was copied before).
 * set copies the value, marks it ready and claims every waiter (weft_wl_take_all), then
 * wakes them after releasing the lock.  Timed waiters use the claim protocol of
 * waitlist.h; a waiter whose timer won returns ABT_ERR_COND_TIMEDOUT as Argobots does.
 *
 * wait_any (Argobots issue #167): one waiter with one node per eventual, linked one
 * eventual at a time (each under its own lock, never two locks at once), so it blocks as
 * a gated waiter.  The first setter to claim it decides the index; the others skip it.
 * If an eventual is found ready while linking, the waiter claims itself; if that fails a
 * setter already claimed it and its wake is consumed by the gated park. */
#include "sync/objmem.h"
#include "sync/waitlist.h"

#include <weft.h>

typedef struct {
    weft_spinlock lock;
    _Atomic uint32_t ready; /* written under lock */
    int32_t nbytes;         /* size of the value buffer (0: none) */
    uint32_t allocated;     /* made by ABT_eventual_create */
    weft_waitlist wl;       /* guarded by lock */
    void *value;            /* the value buffer, NULL without one (what a wait returns) */
} weft_eventual;

_Static_assert(sizeof(weft_eventual) <= WEFT_OBJ_BODY_MAX,
               "weft_eventual must fit ABT_eventual_memory");

static inline weft_eventual *ev_from(ABT_eventual h) { return weft_obj_body_from(h); }

/* the value buffer: only heap eventuals have one (nbytes > 0); a static eventual's
 * zeroed memory reads NULL */
static inline void *ev_value(weft_eventual *e) { return e->value; }

static inline bool ev_ready(weft_eventual *e) { return weft_atomic_load_acquire(&e->ready) != 0; }

WEFT_API int ABT_eventual_create(int nbytes, ABT_eventual *neweventual)
{
    if (!neweventual)
        return ABT_ERR_INV_ARG;
    /* on error *neweventual stays untouched, as in Argobots 1.x */
    if (nbytes < 0)
        return ABT_ERR_INV_ARG;
    void *h = weft_obj_alloc((size_t)nbytes);
    if (!h)
        return ABT_ERR_MEM;
    weft_eventual *e = weft_obj_body(h);
    e->nbytes = nbytes;
    e->allocated = 1;
    e->value = nbytes > 0 ? weft_obj_extra_of_body(e) : NULL;
    *neweventual = (ABT_eventual)weft_obj_handle(h);
    return ABT_SUCCESS;
}

WEFT_API int ABT_eventual_free(ABT_eventual *eventual)
{
    if (!eventual)
        return ABT_ERR_INV_ARG;
    weft_eventual *e = ev_from(*eventual);
    if (!e || !e->allocated)
        return ABT_ERR_INV_EVENTUAL;
    weft_spin_lock(&e->lock); /* a setter may still be leaving its critical section */
    weft_obj_free(weft_obj_from(*eventual), (size_t)e->nbytes);
    *eventual = ABT_EVENTUAL_NULL;
    return ABT_SUCCESS;
}

static int ev_wait(weft_eventual *e, void **value, const struct timespec *abstime)
{
    if (!ev_ready(e)) {
        weft_wl_waiter ww;
        weft_wl_node nd;
        uint64_t deadline = 0;
        weft_wl_waiter_init(&ww);
        if (abstime) {
            if (ww.w.ult && weft_tq_prepare() != ABT_SUCCESS)
                return ABT_ERR_MEM;
            deadline = weft_deadline_from_abstime(abstime);
        }
        weft_wl_node_init(&nd, &ww, 0);
        weft_spin_lock(&e->lock);
        if (!weft_atomic_load_relaxed(&e->ready)) {
            if (deadline && deadline <= weft_clock_ns()) {
                weft_spin_unlock(&e->lock);
                return ABT_ERR_COND_TIMEDOUT;
            }
            weft_wl_push_tail(&e->wl, &nd);
            if (!weft_wl_wait(&ww, &e->lock, deadline)) {
                weft_spin_lock(&e->lock);
                if (nd.linked)
                    weft_wl_unlink(&e->wl, &nd);
                weft_spin_unlock(&e->lock);
                return ABT_ERR_COND_TIMEDOUT;
            }
        } else {
            weft_spin_unlock(&e->lock);
        }
    }
    if (value)
        *value = ev_value(e);
    return ABT_SUCCESS;
}

WEFT_API int ABT_eventual_wait(ABT_eventual eventual, void **value)
{
    weft_eventual *e = ev_from(eventual);
    if (WEFT_UNLIKELY(!e))
        return ABT_ERR_INV_EVENTUAL;
    if (WEFT_UNLIKELY(weft_self_is_tasklet()))
        return ABT_ERR_EVENTUAL;
    if (WEFT_LIKELY(ev_ready(e))) {
        if (value)
            *value = ev_value(e);
        return ABT_SUCCESS;
    }
    return ev_wait(e, value, NULL);
}

WEFT_API int ABT_eventual_timedwait(ABT_eventual eventual, void **value,
                                    const struct timespec *abstime)
{
    weft_eventual *e = ev_from(eventual);
    if (!e)
        return ABT_ERR_INV_EVENTUAL;
    if (weft_self_is_tasklet())
        return ABT_ERR_EVENTUAL;
    if (!abstime)
        return ABT_ERR_INV_ARG;
    return ev_wait(e, value, abstime);
}

WEFT_API int ABT_eventual_test(ABT_eventual eventual, void **value, ABT_bool *is_ready)
{
    weft_eventual *e = ev_from(eventual);
    if (!e)
        return ABT_ERR_INV_EVENTUAL;
    if (!is_ready)
        return ABT_ERR_INV_ARG;
    if (ev_ready(e)) {
        if (value)
            *value = ev_value(e);
        *is_ready = ABT_TRUE;
    } else {
        *is_ready = ABT_FALSE;
    }
    return ABT_SUCCESS;
}

/* The rest of a set whose value is not a scalar of 4 or 8 bytes (or has nothing to copy),
 * out of line: the common set then needs no stack frame. */
static __attribute__((noinline)) int ev_set_general(weft_eventual *e, void *value, int nbytes)
{
    if (nbytes < 0)
        return ABT_ERR_INV_ARG;
    if (nbytes > e->nbytes)
        return ABT_ERR_INV_EVENTUAL;
    weft_spin_lock(&e->lock);
    if (weft_atomic_load_relaxed(&e->ready)) {
        weft_spin_unlock(&e->lock);
        return ABT_ERR_EVENTUAL;
    }
    if (nbytes > 0 && value)
        memcpy(e->value, value, (size_t)nbytes);
    weft_atomic_store_release(&e->ready, 1);
    return weft_wl_unlock_wake_all(&e->lock, &e->wl);
}

WEFT_API int ABT_eventual_set(ABT_eventual eventual, void *value, int nbytes)
{
    weft_eventual *e = ev_from(eventual);
    if (!e)
        return ABT_ERR_INV_EVENTUAL;
    /* the common case, a value of 8 or 4 bytes that fits: copied inline (a negative
     * nbytes is a huge unsigned one and goes to the general path) */
    if (WEFT_UNLIKELY(!value || (nbytes != 8 && nbytes != 4) ||
                      (unsigned)nbytes > (unsigned)e->nbytes))
        return ev_set_general(e, value, nbytes);
    weft_spin_lock(&e->lock);
    if (WEFT_UNLIKELY(weft_atomic_load_relaxed(&e->ready))) {
        weft_spin_unlock(&e->lock);
        return ABT_ERR_EVENTUAL;
    }
    if (nbytes == 8)
        memcpy(e->value, value, 8);
    else
        memcpy(e->value, value, 4);
    weft_atomic_store_release(&e->ready, 1);
    return weft_wl_unlock_wake_all(&e->lock, &e->wl);
}

WEFT_API int ABT_eventual_reset(ABT_eventual eventual)
{
    weft_eventual *e = ev_from(eventual);
    if (!e)
        return ABT_ERR_INV_EVENTUAL;
    weft_spin_lock(&e->lock);
    weft_atomic_store_relaxed(&e->ready, 0);
    weft_spin_unlock(&e->lock);
    return ABT_SUCCESS;
}

/* ---------------------------------------------------------------- wait_any */

#define ANY_STACK_NODES 16

static int wait_any(size_t count, const ABT_eventual *eventuals, size_t *index, void **value,
                    const struct timespec *abstime)
{
    if (!index || (count > 0 && !eventuals) || count > INT32_MAX)
        return ABT_ERR_INV_ARG;
    if (weft_self_is_tasklet())
        return ABT_ERR_EVENTUAL;
    /* fast path: the lowest ready index; also checks that something can be waited on */
    bool any = false;
    for (size_t i = 0; i < count; i++) {
        weft_eventual *e = ev_from(eventuals[i]);
        if (!e)
            continue;
        any = true;
        if (ev_ready(e)) {
            *index = i;
            if (value)
                *value = ev_value(e);
            return ABT_SUCCESS;
        }
    }
    if (!any)
        return ABT_ERR_INV_EVENTUAL;

    weft_wl_waiter ww;
    weft_wl_waiter_init(&ww);
    uint64_t deadline = 0;
    if (abstime) {
        if (ww.w.ult && weft_tq_prepare() != ABT_SUCCESS)
            return ABT_ERR_MEM;
        deadline = weft_deadline_from_abstime(abstime);
        if (deadline <= weft_clock_ns())
            return ABT_ERR_COND_TIMEDOUT;
    }
    weft_wl_node stack_nodes[ANY_STACK_NODES];
    weft_wl_node *nodes = stack_nodes;
    if (count > ANY_STACK_NODES && !(nodes = malloc(count * sizeof(*nodes))))
        return ABT_ERR_MEM;
    weft_wl_waiter_multi(&ww);

    size_t linked = 0; /* nodes [0, linked) were set up (some may be skipped NULLs) */
    bool self_claimed = false;
    for (; linked < count; linked++) {
        weft_wl_node_init(&nodes[linked], &ww, (uint32_t)linked);
        weft_eventual *e = ev_from(eventuals[linked]);
        if (!e)
            continue;
        weft_spin_lock(&e->lock);
        if (weft_atomic_load_relaxed(&e->ready)) {
            weft_spin_unlock(&e->lock);
            if (weft_wl_claim(&ww, WL_WOKEN)) {
                ww.winner = (int)linked;
                self_claimed = true;
            }
            linked++;
            break;
        }
        weft_wl_push_tail(&e->wl, &nodes[linked]);
        weft_spin_unlock(&e->lock);
    }
    bool woken = true;
    if (!self_claimed)
        woken = weft_wl_wait_gated(&ww, deadline);
    /* rule 4: leave no node behind */
    for (size_t i = 0; i < linked; i++) {
        weft_eventual *e = ev_from(eventuals[i]);
        if (!e)
            continue;
        weft_spin_lock(&e->lock);
        if (nodes[i].linked)
            weft_wl_unlink(&e->wl, &nodes[i]);
        weft_spin_unlock(&e->lock);
    }
    if (nodes != stack_nodes)
        free(nodes);
    if (!woken)
        return ABT_ERR_COND_TIMEDOUT;
    size_t w = (size_t)ww.winner;
    *index = w;
    if (value)
        *value = ev_value(ev_from(eventuals[w]));
    return ABT_SUCCESS;
}

WEFT_API int weft_eventual_wait_any(size_t count, const ABT_eventual *eventuals, size_t *index,
                                    void **value)
{
    return wait_any(count, eventuals, index, value, NULL);
}

WEFT_API int weft_eventual_timedwait_any(size_t count, const ABT_eventual *eventuals, size_t *index,
                                         void **value, const struct timespec *abstime)
{
    if (!abstime)
        return ABT_ERR_INV_ARG;
    return wait_any(count, eventuals, index, value, abstime);
}
