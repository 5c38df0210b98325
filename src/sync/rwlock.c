/* src/sync/rwlock.c - ABT_rwlock_*: readers-writer lock over the waitlist.
 *
 * State word: RW_WRITER (held by a writer), RW_WAITERS (the queue is non-empty or about
 * to be served), and the reader count in units of RW_READER.  Uncontended: rdlock is one
 * CAS adding a reader while neither WRITER nor WAITERS is set, wrlock one CAS 0 -> WRITER,
 * unlock one CAS (writer) or one fetch_sub (reader).
 * Contended: the waiter takes the object lock and either acquires (the lock is free and
 * nobody queues) or sets WAITERS and queues in FIFO order.  Once anybody queues, new
 * readers queue too, so writers are not starved.  The last holder to leave (the writer,
 * or the reader whose fetch_sub leaves exactly WAITERS) grants the lock directly, under
 * the object lock: to the head writer, or to every reader at the head of the queue.
 * Granted waiters wake up owning the lock - no retry, no lost wake-up: WAITERS is only
 * set while there are holders, and only a holder's exit clears holders. */
#include "sync/objmem.h"
#include "sync/waitlist.h"

#include <weft.h>

#define RW_WRITER  1u
#define RW_WAITERS 2u
#define RW_READER  4u

enum { MODE_READ = 0, MODE_WRITE = 1 };

typedef struct {
    _Atomic uint32_t state;
    weft_spinlock lock; /* guards wl */
    uint32_t allocated; /* made by ABT_rwlock_create */
    weft_waitlist wl;
} weft_rwlock;

_Static_assert(sizeof(weft_rwlock) <= WEFT_OBJ_BODY_MAX, "weft_rwlock must fit weft_rwlock_memory");
_Static_assert(sizeof(weft_rwlock_memory) == WEFT_OBJ_MEM_SIZE, "weft_rwlock_memory size");

static inline weft_rwlock *rw_from(ABT_rwlock h) { return weft_obj_body_from(h); }

WEFT_API int ABT_rwlock_create(ABT_rwlock *newrwlock)
{
    if (!newrwlock)
        return ABT_ERR_INV_ARG;
    void *h = weft_obj_alloc(0);
    if (!h) {
        *newrwlock = ABT_RWLOCK_NULL;
        return ABT_ERR_MEM;
    }
    ((weft_rwlock *)weft_obj_body(h))->allocated = 1;
    *newrwlock = (ABT_rwlock)weft_obj_handle(h);
    return ABT_SUCCESS;
}

WEFT_API int ABT_rwlock_free(ABT_rwlock *rwlock)
{
    if (!rwlock)
        return ABT_ERR_INV_ARG;
    weft_rwlock *l = rw_from(*rwlock);
    if (!l || !l->allocated)
        return ABT_ERR_INV_RWLOCK;
    weft_spin_lock(&l->lock);
    weft_obj_free(weft_obj_from(*rwlock), 0);
    *rwlock = ABT_RWLOCK_NULL;
    return ABT_SUCCESS;
}

static WEFT_COLD void lock_slow(weft_rwlock *l, uint32_t mode)
{
    weft_spin_lock(&l->lock);
    uint32_t s = weft_atomic_load_relaxed(&l->state);
    for (;;) {
        bool free_for_me = mode == MODE_READ ? !(s & (RW_WRITER | RW_WAITERS)) : s == 0;
        if (free_for_me) {
            uint32_t n = mode == MODE_READ ? s + RW_READER : RW_WRITER;
            if (weft_atomic_cas_weak_acquire(&l->state, &s, n)) {
                weft_spin_unlock(&l->lock);
                return;
            }
        } else if (s & RW_WAITERS) {
            break;
        } else if (weft_atomic_cas_weak_relaxed(&l->state, &s, s | RW_WAITERS)) {
            break;
        }
    }
    weft_wl_waiter ww;
    weft_wl_node nd;
    weft_wl_waiter_init(&ww);
    weft_wl_node_init(&nd, &ww, mode);
    weft_wl_push_tail(&l->wl, &nd);
    weft_wl_wait(&ww, &l->lock, 0);
    /* granted: we hold the lock in `mode` */
}

/* The last holder left (state has no holder, WAITERS set): hand the lock to the head of
 * the queue.  Object lock held; returns the chain of waiters to wake. */
static weft_wl_waiter *grant(weft_rwlock *l)
{
    weft_wl_waiter *first = NULL, **link = &first;
    uint32_t held = 0;
    weft_wl_node *n = l->wl.head;
    if (n && n->arg == MODE_WRITE) {
        weft_wl_unlink(&l->wl, n);
        held = RW_WRITER;
        weft_wl_claim(n->waiter, WL_WOKEN);
        n->waiter->wake_next = NULL;
        first = n->waiter;
    } else {
        while ((n = l->wl.head) && n->arg == MODE_READ) {
            weft_wl_unlink(&l->wl, n);
            held += RW_READER;
            weft_wl_claim(n->waiter, WL_WOKEN);
            n->waiter->wake_next = NULL;
            *link = n->waiter;
            link = &n->waiter->wake_next;
        }
    }
    uint32_t more = weft_wl_empty(&l->wl) ? 0 : RW_WAITERS;
    /* release: fast-path lockers that read this state see the leaving writer's writes */
    weft_atomic_store_release(&l->state, held | more);
    return first;
}

static WEFT_COLD void unlock_slow(weft_rwlock *l)
{
    weft_spin_lock(&l->lock);
    weft_wl_waiter *chain = NULL;
    /* acquire: our fetch_sub continued the release sequence of the readers that left
     * before us; this load makes their reads happen before the writer we grant to */
    uint32_t s = weft_atomic_load_acquire(&l->state);
    if (s == (RW_WRITER | RW_WAITERS) || s == RW_WAITERS)
        chain = grant(l);
    else if (s == RW_WRITER) /* cannot happen: WAITERS is only cleared under this lock */
        weft_atomic_store_release(&l->state, 0);
    weft_spin_unlock(&l->lock);
    weft_wl_wake_chain(chain);
}

WEFT_API int ABT_rwlock_rdlock(ABT_rwlock rwlock)
{
    weft_rwlock *l = rw_from(rwlock);
    if (!l)
        return ABT_ERR_INV_RWLOCK;
    if (weft_self_is_tasklet())
        return ABT_ERR_RWLOCK;
    uint32_t s = weft_atomic_load_relaxed(&l->state);
    while (!(s & (RW_WRITER | RW_WAITERS))) {
        if (weft_atomic_cas_weak_acquire(&l->state, &s, s + RW_READER))
            return ABT_SUCCESS;
    }
    lock_slow(l, MODE_READ);
    return ABT_SUCCESS;
}

WEFT_API int ABT_rwlock_wrlock(ABT_rwlock rwlock)
{
    weft_rwlock *l = rw_from(rwlock);
    if (!l)
        return ABT_ERR_INV_RWLOCK;
    if (weft_self_is_tasklet())
        return ABT_ERR_RWLOCK;
    uint32_t z = 0;
    if (!weft_atomic_cas_strong_acquire(&l->state, &z, RW_WRITER))
        lock_slow(l, MODE_WRITE);
    return ABT_SUCCESS;
}

WEFT_API int ABT_rwlock_unlock(ABT_rwlock rwlock)
{
    weft_rwlock *l = rw_from(rwlock);
    if (!l)
        return ABT_ERR_INV_RWLOCK;
    uint32_t s = weft_atomic_load_relaxed(&l->state);
    if (s & RW_WRITER) {
        uint32_t w = RW_WRITER;
        if (weft_atomic_cas_strong_release(&l->state, &w, 0))
            return ABT_SUCCESS;
        unlock_slow(l); /* WAITERS set: grant under the lock */
        return ABT_SUCCESS;
    }
    uint32_t prev = weft_atomic_fetch_sub_release(&l->state, RW_READER);
    if (prev - RW_READER == RW_WAITERS)
        unlock_slow(l); /* the last reader out, with a queue */
    return ABT_SUCCESS;
}
