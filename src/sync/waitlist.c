/* src/sync/waitlist.c - blocking a waiter: park a ULT (with an optional timer entry) or
 * sleep on a futex.  The protocol is described in waitlist.h. */
#include "sync/waitlist.h"

static void post_unlock(weft_xstream *xs, void *arg)
{
    (void)xs;
    weft_spin_unlock(arg);
}

/* Gated park: whoever of (this post action, the winning waker) comes second readies it. */
static void post_gate(weft_xstream *xs, void *arg)
{
    (void)xs;
    weft_wl_waiter *ww = arg;
    if (weft_atomic_exchange_acq_rel(&ww->gate, 1) != 0)
        weft_waiter_wake(&ww->w);
}

static bool park(weft_wl_waiter *ww, void (*post)(weft_xstream *, void *), void *arg,
                 uint64_t deadline)
{
    weft_unit *self = ww->w.ult;
    weft_xstream *xs = weft_xs_self();
    if (deadline) {
        ww->tm.deadline = deadline;
        ww->tm.waiter = ww;
        weft_tq_add(&ww->tm);
    }
    /* counted like weft_wait_block does, so FINISH does not stop a stream under it */
    weft_unit_count_blocked(self);
    ww->w.counted_blocked = 1;
    weft_ult_park(xs, self, post, arg);
    /* woken: by the claim winner; rule 4 of waitlist.h */
    if (deadline)
        weft_tq_cancel(&ww->tm);
    return weft_atomic_load_acquire(&ww->claim) != WL_TIMEDOUT;
}

/* A tasklet or an external thread: the futex of the core waiter, with a deadline. */
static bool os_wait(weft_wl_waiter *ww, uint64_t deadline)
{
    if (!deadline) {
        weft_waiter_wait_os(&ww->w);
        return true;
    }
    for (;;) {
        if (weft_atomic_load_acquire(&ww->w.futex)) {
            weft_waiter_wait_os(&ww->w); /* until the waker is done with the word */
            return true;
        }
        uint64_t now = weft_clock_ns();
        if (now >= deadline) {
            if (weft_wl_claim(ww, WL_TIMEDOUT))
                return false;
            weft_waiter_wait_os(&ww->w); /* a waker won the claim: its wake is on the way */
            return true;
        }
        weft_futex_wait(&ww->w.futex, 0, deadline - now);
    }
}

bool weft_wl_wait(weft_wl_waiter *ww, weft_spinlock *lock, uint64_t deadline)
{
    if (deadline)
        ww->contested = 1; /* still under the lock: wakers read it under the same lock */
    if (ww->w.ult)
        return park(ww, post_unlock, lock, deadline);
    weft_spin_unlock(lock);
    return os_wait(ww, deadline);
}

bool weft_wl_wait_gated(weft_wl_waiter *ww, uint64_t deadline)
{
    if (ww->w.ult)
        return park(ww, post_gate, ww, deadline);
    return os_wait(ww, deadline);
}

int weft_wl_wake_all_unlock(weft_spinlock *lock, weft_waitlist *l)
{
    weft_wl_waiter *chain = weft_wl_take_all(l);
    weft_spin_unlock(lock);
    weft_wl_wake_chain(chain);
    return ABT_SUCCESS;
}
