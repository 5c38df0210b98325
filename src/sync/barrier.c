/* src/sync/barrier.c - ABT_barrier_*: a reusable barrier for work units.
 *
 * Arrivals are counted under the lock; the last arrival of a round resets the count,
 * takes the whole list of waiters and wakes them after releasing the lock, so the
 * barrier is ready for the next round at once.  Waiting ULTs park; external threads
 * sleep on their futex; tasklets get ABT_ERR_BARRIER (Argobots 1.x).
 * A barrier waiter has exactly one possible waker (the last arrival) and no deadline, so
 * it needs none of the waitlist's claim protocol (sync/waitlist.h): the list is a FIFO
 * of core waiters (core/wait.h) linked through weft_waiter.next, which saves a third of
 * the instructions of a wait (scripts/insn_counts.sh, "barrier wait").
 *
 * A parking ULT releases the lock once it is off its stack (weft_post_unlock), so when the
 * last arrival holds the lock every waiter of the round has left its stack and may be
 * made ready; they are woken together (weft_waiter_wake_list: one lock round per pool,
 * where pushing them one by one bounced each pool's lock between the streams). */
#include "core/wait.h"
#include "sync/objmem.h"

typedef struct {
    weft_spinlock lock;
    uint32_t num;             /* waiters per round; guarded by lock */
    uint32_t count;           /* arrivals in the current round; guarded by lock */
    weft_waiter *head, *tail; /* this round's waiters, in arrival order; guarded by lock */
} weft_barrier;

_Static_assert(sizeof(weft_barrier) <= WEFT_OBJ_BODY_MAX, "weft_barrier: one cache line");

static inline weft_barrier *bar_from(ABT_barrier h) { return weft_obj_body_from(h); }

/* this round's waiters, in arrival order (lock held) */
static inline void bar_append(weft_barrier *b, weft_waiter *w)
{
    if (b->tail)
        b->tail->next = w;
    else
        b->head = w;
    b->tail = w;
}

WEFT_API int ABT_barrier_create(uint32_t num_waiters, ABT_barrier *newbarrier)
{
    if (!newbarrier)
        return ABT_ERR_INV_ARG;
    *newbarrier = ABT_BARRIER_NULL;
    if (num_waiters == 0)
        return ABT_ERR_INV_ARG;
    void *base = weft_obj_alloc(0); /* its own cache line */
    if (!base)
        return ABT_ERR_MEM;
    weft_barrier *b = weft_obj_body(base);
    b->num = num_waiters;
    *newbarrier = (ABT_barrier)weft_obj_handle(base);
    return ABT_SUCCESS;
}

WEFT_API int ABT_barrier_reinit(ABT_barrier barrier, uint32_t num_waiters)
{
    weft_barrier *b = bar_from(barrier);
    if (!b)
        return ABT_ERR_INV_BARRIER;
    if (num_waiters == 0)
        return ABT_ERR_INV_ARG;
    weft_spin_lock(&b->lock);
    b->num = num_waiters;
    b->count = 0;
    weft_spin_unlock(&b->lock);
    return ABT_SUCCESS;
}

WEFT_API int ABT_barrier_free(ABT_barrier *barrier)
{
    if (!barrier)
        return ABT_ERR_INV_ARG;
    weft_barrier *b = bar_from(*barrier);
    if (!b)
        return ABT_ERR_INV_BARRIER;
    weft_spin_lock(&b->lock); /* the last arrival may still be leaving */
    weft_obj_free(weft_obj_from(*barrier), 0);
    *barrier = ABT_BARRIER_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_barrier_wait(ABT_barrier barrier)
{
    weft_barrier *b = bar_from(barrier);
    if (!b)
        return ABT_ERR_INV_BARRIER;
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = weft_self_unit(); /* not a tasklet (below): the calling ULT, or NULL */
    if (WEFT_UNLIKELY(weft_self_is_tasklet()))
        return ABT_ERR_BARRIER;
    weft_spin_lock(&b->lock);
    if (++b->count >= b->num) {
        b->count = 0;
        weft_waiter *w = b->head;
        b->head = b->tail = NULL;
        weft_spin_unlock(&b->lock);
        if (w && !w->next)
            weft_waiter_wake(w); /* one waiter (a barrier of 2): nothing to batch */
        else
            weft_waiter_wake_list(w);
        return ABT_SUCCESS;
    }
    weft_waiter w;
    if (self) {
        /* a parking ULT: the wake reads ult, counted_blocked and (here) next only */
        w.next = NULL;
        w.ult = self;
        w.counted_blocked = 1;
        weft_unit_count_blocked(self);
        bar_append(b, &w);
        weft_ult_park(xs, self, weft_post_unlock, &b->lock); /* unlocked once parked */
        return ABT_SUCCESS;
    }
    weft_waiter_init_as(&w, NULL); /* an external thread sleeps on the futex */
    bar_append(b, &w);
    weft_wait_block_on(xs, &w, &b->lock, false);
    return ABT_SUCCESS;
}

WEFT_API int ABT_barrier_get_num_waiters(ABT_barrier barrier, uint32_t *num_waiters)
{
    weft_barrier *b = bar_from(barrier);
    if (!b)
        return ABT_ERR_INV_BARRIER;
    if (!num_waiters)
        return ABT_ERR_INV_ARG;
    weft_spin_lock(&b->lock);
    *num_waiters = b->num;
    weft_spin_unlock(&b->lock);
    return ABT_SUCCESS;
}
