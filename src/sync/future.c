/* src/sync/future.c - ABT_future_*: n compartments; ready once all are set.
 *
 * The compartment array lives after the object (offset 64).  The future is ready when
 * `counter` (the compartments set) equals `num`: one word tells the fast paths both, a
 * future with no compartments is ready from the start and stays ready through resets,
 * and a reset is one store.  set stores the value and the new counter under the lock
 * (release: the values before it).  The set that fills the last compartment of a future
 * with a callback leaves it "completing" (counter = num + FUT_COMPLETING: not ready,
 * further sets fail with ABT_ERR_FUTURE), runs the callback once, outside the lock (it
 * may do anything, even block), then stores counter = num and wakes every waiter - so
 * waiters are released after the callback, as Argobots documents.  Without a callback
 * the last set makes it ready in the same critical section (one lock round). */
#include "sync/objmem.h"
#include "sync/waitlist.h"

/* added to counter while the callback runs (counter is 64-bit: any num fits below it) */
#define FUT_COMPLETING ((uint64_t)1 << 32)

typedef struct {
    weft_spinlock lock;
    uint32_t num;             /* compartments */
    _Atomic uint64_t counter; /* compartments set (+ FUT_COMPLETING); written under lock */
    void (*cb)(void **);
    weft_waitlist wl; /* guarded by lock */
} weft_future;

_Static_assert(sizeof(weft_future) <= WEFT_OBJ_BODY_MAX, "weft_future header too large");

/* futures have no static initialiser: every valid handle is a heap object's */
static inline weft_future *fut_from(ABT_future h) { return weft_obj_heap_body_from(h); }

static inline void **fut_values(weft_future *f) { return weft_obj_extra_of_body(f); }

static inline bool fut_ready(weft_future *f)
{
    return weft_atomic_load_acquire(&f->counter) == f->num;
}

WEFT_API int ABT_future_create(uint32_t num_compartments, void (*cb_func)(void **arg),
                               ABT_future *newfuture)
{
    if (!newfuture)
        return ABT_ERR_INV_ARG;
    /* on error *newfuture stays untouched, as in Argobots 1.x */
    uint64_t bytes = (uint64_t)num_compartments * sizeof(void *); /* 32-bit size_t */
    if (bytes > SIZE_MAX - WEFT_OBJ_MEM_SIZE)
        return ABT_ERR_MEM;
    void *h = weft_obj_alloc((size_t)bytes);
    if (!h)
        return ABT_ERR_MEM;
    weft_future *f = weft_obj_body(h);
    f->num = num_compartments;
    f->cb = cb_func;
    *newfuture = (ABT_future)weft_obj_handle(h);
    return ABT_SUCCESS;
}

WEFT_API int ABT_future_free(ABT_future *future)
{
    if (!future)
        return ABT_ERR_INV_ARG;
    weft_future *f = fut_from(*future);
    if (!f)
        return ABT_ERR_INV_FUTURE;
    weft_spin_lock(&f->lock); /* a setter may still be leaving its critical section */
    weft_obj_free(weft_obj_from(*future), (size_t)f->num * sizeof(void *));
    *future = ABT_FUTURE_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_future_wait(ABT_future future)
{
    weft_future *f = fut_from(future);
    if (!f)
        return ABT_ERR_INV_FUTURE;
    if (weft_self_is_tasklet())
        return ABT_ERR_FUTURE;
    if (WEFT_LIKELY(fut_ready(f)))
        return ABT_SUCCESS;
    weft_wl_waiter ww;
    weft_wl_node nd;
    weft_wl_waiter_init(&ww);
    weft_wl_node_init(&nd, &ww, 0);
    weft_spin_lock(&f->lock);
    if (weft_atomic_load_relaxed(&f->counter) == f->num) {
        weft_spin_unlock(&f->lock);
        return ABT_SUCCESS;
    }
    weft_wl_push_tail(&f->wl, &nd);
    weft_wl_wait(&ww, &f->lock, 0);
    return ABT_SUCCESS;
}

WEFT_API int ABT_future_test(ABT_future future, ABT_bool *is_ready)
{
    weft_future *f = fut_from(future);
    if (!f)
        return ABT_ERR_INV_FUTURE;
    if (!is_ready)
        return ABT_ERR_INV_ARG;
    *is_ready = fut_ready(f) ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

/* The last set of a future with a callback, the lock held: completing, the callback runs
 * without the lock (exactly once: only the set that filled the last compartment comes
 * here), then ready and the waiters' wake.  Out of line, so that a set without a
 * callback needs no stack frame. */
static __attribute__((noinline)) int fut_complete_cb(weft_future *f, void **values, uint64_t num)
{
    weft_atomic_store_relaxed(&f->counter, num + FUT_COMPLETING);
    weft_spin_unlock(&f->lock);
    f->cb(values);
    weft_spin_lock(&f->lock);
    weft_atomic_store_release(&f->counter, num);
    return weft_wl_unlock_wake_all(&f->lock, &f->wl);
}

WEFT_API int ABT_future_set(ABT_future future, void *value)
{
    weft_future *f = fut_from(future);
    if (!f)
        return ABT_ERR_INV_FUTURE;
    weft_spin_lock(&f->lock);
    uint64_t k = weft_atomic_load_relaxed(&f->counter);
    if (k >= f->num) { /* ready, completing, or no compartment at all */
        weft_spin_unlock(&f->lock);
        return ABT_ERR_FUTURE;
    }
    void **values = fut_values(f);
    values[k++] = value;
    if (k < f->num) {
        weft_atomic_store_relaxed(&f->counter, k);
        weft_spin_unlock(&f->lock);
        return ABT_SUCCESS;
    }
    if (f->cb)
        return fut_complete_cb(f, values, k);
    weft_atomic_store_release(&f->counter, k); /* ready: the values are visible */
    return weft_wl_unlock_wake_all(&f->lock, &f->wl);
}

WEFT_API int ABT_future_reset(ABT_future future)
{
    weft_future *f = fut_from(future);
    if (!f)
        return ABT_ERR_INV_FUTURE;
    weft_spin_lock(&f->lock);
    weft_atomic_store_relaxed(&f->counter, 0); /* no compartment: still ready */
    weft_spin_unlock(&f->lock);
    return ABT_SUCCESS;
}
