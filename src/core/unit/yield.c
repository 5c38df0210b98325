/* src/core/unit/yield.c - a ULT gives up the CPU: yield (through the scheduler; the
 * bypass itself is inline in switch.h, for ABT_thread_yield), yield_to and the other
 * direct switches (*_to), park and its bypass, suspend and resume, and the wake-up of a
 * waiter (one, a list, a sleeping OS thread). */

#include "core/unit/switch.h"

/* A migration requested while the unit ran or was blocked takes effect when it is next
 * put into a pool. */
static void apply_migration(weft_unit *u)
{
    weft_pool *to = weft_atomic_exchange_acq_rel(&u->migr_to, NULL);
    if (to) {
        /* the pusher owns u here.  Into a user-defined pool whose create_unit fails, the
         * migration is abandoned (u stays in its pool) with a message: this push cannot
         * report it, and the migration request already returned success. */
        if (WEFT_UNLIKELY(weft_pool_bind(to, u) != ABT_SUCCESS)) {
            static _Atomic bool told;
            if (!weft_atomic_exchange_relaxed(&told, true))
                weft_warn("a migration to user-defined pool %d was abandoned (its "
                          "create_unit returned ABT_UNIT_NULL); the unit stays in its pool. "
                          "Reported once.",
                          to->id);
            return;
        }
        weft_atomic_store_relaxed_plain(&u->pool, to); /* a joiner may read it */
        weft_tool_event(u, WEFT_TOOL_EVENT_MIGRATE);   /* the tracer's, never a tool's */
        if (u->migr_cb)
            u->migr_cb(weft_unit_handle(u), u->migr_cb_arg);
    }
}

/* weft_post_push for a yield that bypassed the scheduler: the pool is an inline FIFO and a
 * pending migration was ruled out before the switch (one requested meanwhile applies at
 * the next push). */
void weft_post_push_fifo(weft_xstream *xs, void *arg)
{
    weft_unit *u = arg;
    weft_pool_fifo_push(u->pool, u);
}

/* The yield's and yield_to's post action where the switch cannot release the lock
 * (YIELD_RELEASE_IN_SWITCH): the yielding ULT still holds its pool's lock
 * (weft_pool_fifo_take_hold); queue it and release the lock. */
void weft_post_push_release(weft_xstream *xs, void *arg)
{
    weft_unit *u = arg;
    weft_pool_fifo_push_release(u->pool, u);
}

static inline void push_back_ctx(weft_unit *u, ABT_pool_context ctx)
{
    if (WEFT_UNLIKELY(weft_atomic_load_relaxed(&u->migr_to)))
        apply_migration(u);
    weft_pool_push_ctx(u->pool, u, ctx);
}

void weft_post_push(weft_xstream *xs, void *arg)
{
    push_back_ctx(arg, ABT_POOL_CONTEXT_OP_THREAD_YIELD);
}

/* The same after a direct switch: the context names the operation (unit.h). */
static void post_push_yield_to(weft_xstream *xs, void *arg)
{
    push_back_ctx(arg, ABT_POOL_CONTEXT_OP_THREAD_YIELD_TO);
}

static void post_push_resume_yield_to(weft_xstream *xs, void *arg)
{
    push_back_ctx(arg, ABT_POOL_CONTEXT_OP_THREAD_RESUME_YIELD_TO);
}

static void post_push_create_to(weft_xstream *xs, void *arg)
{
    push_back_ctx(arg, ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO);
}

static void post_push_revive_to(weft_xstream *xs, void *arg)
{
    push_back_ctx(arg, ABT_POOL_CONTEXT_OP_THREAD_REVIVE_TO);
}

/* Scheduler bypass on park: a ULT that blocks (its post action already set, it releases
 * the lock of its waitlist) switches straight to the next ready ULT of its loop's
 * bypass pool, `p` (a built-in FIFO pool).  Returns true when self ran again
 * later; false when the pool is empty or its head needs the scheduler (a tasklet, the
 * primary ULT, a cancelled unit, or no stack to be had: back at the head). */
static inline __attribute__((always_inline)) bool park_run_next(weft_xstream *xs, weft_unit *self,
                                                                weft_pool *p)
{
    WEFT_ASSERT(xs->cur == self && weft_pool_can(p, WEFT_POOL_CAP_INLINE_FIFO));
    weft_unit *next = weft_pool_fifo_pop(p); /* a bypass pool is always an inline FIFO */
    if (!next)
        return false;
    /* (the primary ULT on the primary stream is resumed here, as its scheduler would) */
    if ((bypass_declines(next) &&
         !((next->flags & WEFT_U_MAIN) && xs->primary && next->ctx &&
           !weft_atomic_test32_relaxed(&next->request, WEFT_REQ_CANCEL))) ||
        (!next->ctx && !ensure_stack(xs, next))) {
        weft_pool_push_head(p, next);
        return false;
    }
    next->xs = xs; /* prep_run without its tool hook (no tool here) */
    xs->cur = next;
    weft_atomic_store_relaxed(&next->state, WEFT_RUNNING);
    ult_landed(self, enter_unit(xs, &self->ctx, &self->asan_fake_stack, next));
    return true;
}

/* Scheduler bypass on park, the twin of the yield's (ult_yield_checked): with nothing
 * ready it goes to the scheduler, which idles. */
/* (the caller has seen no tool event wanted) */
static inline __attribute__((always_inline)) bool park_bypass(weft_xstream *xs, weft_unit *self)
{
    weft_sched *s = xs->sched;
    weft_pool *p = s->bypass_pool;
    if (!p)
        return false;
    if (weft_dec_le_zero(&xs->yield_budget)) { /* the scheduler's turn: it runs next */
        xs->yield_budget = (int32_t)s->event_freq;
        return false;
    }
    return park_run_next(xs, self, p);
}

/* The yield through the scheduler: its event, its budget renewed, self queued again by
 * the post action.  (The yield's slow paths are called, not tail-called: a yielded ULT's
 * stack keeps the frame of ABT_thread_yield, which stack dumps name.) */
__attribute__((noinline)) void weft_ult_yield_sched_checked(weft_xstream *xs, weft_unit *self)
{
    weft_tool_event(self, ABT_TOOL_EVENT_THREAD_YIELD);
    xs->yield_budget = (int32_t)xs->sched->event_freq;
    weft_atomic_store_relaxed(&self->state, WEFT_READY);
    weft_set_post(xs, weft_post_push, self);
    switch_to_sched(xs, self);
}

/* ult_yield_fresh's end when the stream's cache has no stack for `next`: the lock is
 * released first (mapping, the depot's lock), which costs a second lock round. */
__attribute__((noinline)) void weft_ult_yield_fresh_slow(weft_xstream *xs, weft_unit *self,
                                                         weft_pool *p, weft_unit *next)
{
    weft_pool_unlock(p);
    if (!ensure_stack(xs, next)) {
        weft_pool_push_head(p, next);
        weft_ult_yield_sched_checked(xs, self);
        return;
    }
    weft_atomic_store_relaxed(&self->state, WEFT_READY);
    weft_set_post(xs, weft_post_push_fifo, self);
    prep_run_quiet(xs, next);
    ult_landed(self, enter_unit(xs, &self->ctx, &self->asan_fake_stack, next));
}

/* weft_ult_yield, and ABT_thread_yield of an SC unit that has not left its stack yet. */
__attribute__((noinline)) void weft_ult_yield(weft_xstream *xs, weft_unit *self)
{
    leave_check(self); /* the canary; SC promotion */
    ult_yield_checked(xs, self);
}

void weft_ult_yield_sched(weft_xstream *xs, weft_unit *self)
{
    leave_check(self); /* the canary; SC promotion */
    weft_ult_yield_sched_checked(xs, self);
}

static inline __attribute__((always_inline)) int ult_yield_to(weft_xstream *xs, weft_unit *self,
                                                              weft_unit *to)
{
    WEFT_ASSERT(to->flags & WEFT_U_ULT); /* the callers check it */
    leave_check(self);                   /* the canary; SC promotion */
    weft_pool *p = to->pool;
    if (WEFT_LIKELY(p == self->pool && (p->caps & WEFT_POOL_CAP_INLINE_FIFO) && to->ctx) &&
        !weft_atomic_load_relaxed(&self->migr_to) &&
        !weft_tool_wants(ABT_TOOL_EVENT_THREAD_YIELD | ABT_TOOL_EVENT_THREAD_RUN)) {
        /* the usual case, both in one built-in pool: one lock round for taking `to` out
         * and putting us back, the lock held across the switch (weft_post_push_release) */
        if (!weft_pool_fifo_take_hold(p, to))
            return ABT_ERR_THREAD;
        weft_atomic_store_relaxed(&self->state, WEFT_READY);
        prep_run_quiet(xs, to);
        /* to->ctx read again: it is only stable now that we own `to` (a unit that has
         * run keeps a context until it terminates) */
        if (YIELD_RELEASE_IN_SWITCH && WEFT_LIKELY(!p->notify)) {
            fifo_link_tail(p, self); /* the lock released by the switch, as a yield's */
            ult_landed(self, yield_switch_release(xs, self, p, to, to->ctx, p->locked));
            return ABT_SUCCESS;
        }
        weft_set_post(xs, weft_post_push_release, self);
        ult_landed(self, resume_unit(xs, &self->ctx, &self->asan_fake_stack, to, to->ctx));
        return ABT_SUCCESS;
    }
    if (!weft_pool_remove_ready(p, to))
        return ABT_ERR_THREAD;
    if (!to->ctx && !ensure_stack(xs, to)) {
        weft_pool_push(to->pool, to);
        return ABT_ERR_MEM;
    }
    weft_tool_switch(self, to, ABT_TOOL_EVENT_THREAD_YIELD | ABT_TOOL_EVENT_THREAD_RUN);
    weft_atomic_store_relaxed(&self->state, WEFT_READY);
    weft_set_post(xs, post_push_yield_to, self);
    prep_run_quiet(xs, to);
    ult_landed(self, enter_unit(xs, &self->ctx, &self->asan_fake_stack, to));
    return ABT_SUCCESS;
}

int weft_ult_yield_to(weft_xstream *xs, weft_unit *self, weft_unit *to)
{
    if (!(to->flags & WEFT_U_ULT))
        return ABT_ERR_THREAD;
    return ult_yield_to(xs, self, to);
}

/* Here rather than in thread.c so that the yield_to path is one function. */
WEFT_API int ABT_thread_yield_to(ABT_thread thread)
{
    weft_unit *to = weft_unit_from(thread);
    if (!to)
        return ABT_ERR_INV_THREAD;
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    if (!self)
        return ABT_ERR_INV_XSTREAM;
    if (!weft_unit_is_ult(self))
        return ABT_ERR_INV_THREAD;
    /* to == self needs no test of its own: a running unit is in no pool, so taking it
     * out of one fails (ABT_ERR_THREAD below) */
    if ((to->flags & (WEFT_U_ULT | WEFT_U_MAIN_SCHED)) != WEFT_U_ULT)
        return ABT_ERR_INV_THREAD;
    int r = ult_yield_to(xs, self, to);
    return r == ABT_ERR_THREAD ? ABT_ERR_INV_THREAD : r;
}

/* A suspended unit made ready (out of line: the resume's rare end). */
static __attribute__((noinline)) void make_ready_after_suspend(weft_unit *u)
{
    weft_atomic_fetch_sub_relaxed(&u->pool->num_blocked, 1);
    weft_atomic_store_relaxed(&u->state, WEFT_READY);
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_RESUME);
    weft_pool_push_ctx(u->pool, u, ABT_POOL_CONTEXT_OP_THREAD_RESUME);
}

void weft_post_suspend(weft_xstream *xs, void *arg)
{
    weft_unit *u = arg;
    uint32_t old = weft_atomic_load_acquire(&u->request), nw;
    /* suspend handshake: only the post action of the suspending unit ends SUSPENDING */
    WEFT_ASSERT((old & WEFT_REQ_SUSPENDING) && !(old & WEFT_REQ_SUSPENDED));
    do {
        if (old & WEFT_REQ_RESUME_PENDING)
            nw = old & ~(WEFT_REQ_SUSPENDING | WEFT_REQ_RESUME_PENDING);
        else
            nw = (old & ~WEFT_REQ_SUSPENDING) | WEFT_REQ_SUSPENDED;
    } while (!weft_atomic_cas_weak_acq_rel_acquire(&u->request, &old, nw));
    if (old & WEFT_REQ_RESUME_PENDING)
        make_ready_after_suspend(u);
}

void weft_unit_suspend_self(weft_xstream *xs, weft_unit *self)
{
    /* counted before the BLOCKED state becomes visible (park stores it with release) */
    weft_atomic_fetch_add_relaxed(&self->pool->num_blocked, 1);
    weft_atomic_fetch_or_relaxed(&self->request, WEFT_REQ_SUSPENDING);
    weft_ult_park(xs, self, weft_post_suspend, self);
}

int weft_unit_resume(weft_unit *u, bool claim)
{
    uint32_t old = weft_atomic_load_acquire(&u->request), nw;
    for (;;) {
        if (old & WEFT_REQ_SUSPENDED) {
            nw = old & ~WEFT_REQ_SUSPENDED;
        } else if ((old & WEFT_REQ_SUSPENDING) && !(old & WEFT_REQ_RESUME_PENDING)) {
            if (claim) { /* wait until it is off its stack */
                weft_cpu_relax();
                old = weft_atomic_load_acquire(&u->request);
                continue;
            }
            nw = old | WEFT_REQ_RESUME_PENDING;
        } else {
            return ABT_ERR_THREAD;
        }
        if (weft_atomic_cas_weak_acq_rel_acquire(&u->request, &old, nw))
            break;
    }
    if (nw & WEFT_REQ_RESUME_PENDING)
        return ABT_SUCCESS; /* its post action makes it ready */
    if (claim)
        weft_atomic_fetch_sub_relaxed(&u->pool->num_blocked, 1);
    else
        make_ready_after_suspend(u);
    return ABT_SUCCESS;
}

int weft_ult_switch_to(weft_xstream *xs, weft_unit *self, weft_unit *to, int self_mode, bool resume)
{
    leave_check(self); /* the canary; SC promotion */
    bool fresh = self_mode == WEFT_TO_CREATE || self_mode == WEFT_TO_REVIVE;
    if (fresh) {
        /* never pushed: the caller owns it */
    } else if (resume) {
        if (weft_unit_resume(to, true) != ABT_SUCCESS)
            return ABT_ERR_THREAD;
        weft_tool_event(to, ABT_TOOL_EVENT_THREAD_RESUME);
    } else if (!weft_pool_remove_ready(to->pool, to)) {
        /* Argobots expects the caller to have popped the target already: accept a ready
         * unit that is in no pool (a queued one is taken out above, as an extension) */
        if (to->in_pool || weft_atomic_load_acquire(&to->state) != WEFT_READY)
            return ABT_ERR_THREAD;
    }
    if (!to->ctx && !ensure_stack(xs, to)) {
        weft_atomic_store_relaxed(&to->state, WEFT_READY);
        /* a fresh one waits in its pool as if created (revived) without _to */
        weft_pool_push_ctx(to->pool, to,
                           self_mode == WEFT_TO_CREATE   ? ABT_POOL_CONTEXT_OP_THREAD_CREATE
                           : self_mode == WEFT_TO_REVIVE ? ABT_POOL_CONTEXT_OP_THREAD_REVIVE
                                                         : ABT_POOL_CONTEXT_OP_POOL_OTHER);
        return ABT_ERR_MEM;
    }
    /* the caller leaves first (YIELD, SUSPEND or FINISH), then the target runs */
    static const uint64_t leave_ev[] = { [WEFT_TO_YIELD] = ABT_TOOL_EVENT_THREAD_YIELD,
                                         [WEFT_TO_SUSPEND] = ABT_TOOL_EVENT_THREAD_SUSPEND,
                                         [WEFT_TO_EXIT] = ABT_TOOL_EVENT_THREAD_FINISH,
                                         [WEFT_TO_CREATE] = ABT_TOOL_EVENT_THREAD_YIELD,
                                         [WEFT_TO_REVIVE] = ABT_TOOL_EVENT_THREAD_YIELD };
    weft_tool_switch(self, to, leave_ev[self_mode] | ABT_TOOL_EVENT_THREAD_RUN);
    if (self_mode == WEFT_TO_EXIT) {
        prep_run_quiet(xs, to);
        weft_set_post(xs, weft_post_finish, self);
        if (to->ctx) {
            san_switch_to(NULL, to);
            weft_ctx_jump(to->ctx, xs);
        }
        if (WEFT_TSAN)
            to->tsan_fiber = weft_tsan_fiber_create();
        san_switch_to(NULL, to);
        weft_ctx dummy;
        weft_ctx_start(&dummy, unit_stack_top(to), weft_ult_entry, to);
        __builtin_unreachable();
    }
    if (self_mode == WEFT_TO_SUSPEND) {
        weft_atomic_fetch_add_relaxed(&self->pool->num_blocked, 1);
        weft_atomic_fetch_or_relaxed(&self->request, WEFT_REQ_SUSPENDING);
        weft_atomic_store_release(&self->state, WEFT_BLOCKED);
        weft_set_post(xs, weft_post_suspend, self);
    } else {
        weft_atomic_store_relaxed(&self->state, WEFT_READY);
        weft_set_post(xs,
                      self_mode == WEFT_TO_CREATE   ? post_push_create_to
                      : self_mode == WEFT_TO_REVIVE ? post_push_revive_to
                      : resume                      ? post_push_resume_yield_to
                                                    : post_push_yield_to,
                      self);
    }
    prep_run_quiet(xs, to);
    ult_landed(self, enter_unit(xs, &self->ctx, &self->asan_fake_stack, to));
    return ABT_SUCCESS;
}

/* The park's switch to the scheduler, out of line: the park's bypass, its usual way out,
 * keeps a frame of three registers (the yield's, ult_yield_sched, inlines it). */
static __attribute__((noinline)) weft_xstream *park_to_sched(weft_xstream *xs, weft_unit *self)
{
    return switch_to_sched(xs, self);
}

void weft_ult_park(weft_xstream *xs, weft_unit *self, void (*post)(weft_xstream *, void *),
                   void *arg)
{
    leave_check(self); /* the canary; SC promotion */
    /* one load of the mask for the event and the bypass (which a tool turns off) */
    uint64_t tool = WEFT_TOOL ? weft_atomic_load_relaxed(&weft_tool_g.mask) : 0;
    if (WEFT_UNLIKELY(tool & ABT_TOOL_EVENT_THREAD_SUSPEND))
        weft_tool_dispatch(self, ABT_TOOL_EVENT_THREAD_SUSPEND);
    /* release: whoever sees BLOCKED also sees the blocked count taken before */
    weft_atomic_store_release(&self->state, WEFT_BLOCKED);
    weft_set_post(xs, post, arg);
    if (!tool && park_bypass(xs, self))
        return;
    park_to_sched(xs, self);
}

void weft_post_unlock(weft_xstream *xs, void *arg) { weft_spin_unlock(arg); }

void weft_wait_block(weft_waiter *w, weft_spinlock *lock)
{
    weft_wait_block_on(weft_xs_self(), w, lock, true);
}

void weft_wait_block_uncounted(weft_waiter *w, weft_spinlock *lock)
{
    weft_wait_block_on(weft_xs_self(), w, lock, false);
}

void weft_waiter_wait_os(weft_waiter *w)
{
    /* 0: waiting; 1: woken, the waker is still in its futex_wake on this word (which
     * lives on our stack: we must not leave yet); 2: the waker is done with it */
    uint32_t v;
    while ((v = weft_atomic_load_acquire(&w->futex)) != 2) {
        if (v == 0)
            weft_futex_wait(&w->futex, 0, 0);
        else
            weft_cpu_relax();
    }
}

/* A sleeping waiter (a tasklet or an external thread; out of line, so that the ULT's
 * wake, the common one, keeps a short body). */
static WEFT_COLD void wake_os(weft_waiter *w)
{
    weft_atomic_store_release(&w->futex, 1);
    weft_futex_wake(&w->futex, 1);
    weft_atomic_store_release(&w->futex, 2); /* the last touch: w may be gone after it */
}

void weft_waiter_wake(weft_waiter *w)
{
    weft_unit *u = w->ult;
    if (u) {
        /* read everything from w before the push: the woken ULT may return at once */
        if (w->counted_blocked)
            weft_atomic_fetch_sub_relaxed(&u->pool->num_blocked, 1);
        weft_atomic_store_relaxed(&u->state, WEFT_READY);
        if (WEFT_UNLIKELY(weft_atomic_load_relaxed(&u->migr_to)))
            apply_migration(u);
        weft_tool_event(u, ABT_TOOL_EVENT_THREAD_RESUME);
        weft_pool_push_ctx(u->pool, u, ABT_POOL_CONTEXT_OP_THREAD_RESUME);
        return;
    }
    wake_os(w);
}

/* The pools a wake_list batches at once; ULTs of further pools are woken one by one. */
#define WAKE_LIST_POOLS 4

void weft_waiter_wake_list(weft_waiter *w)
{
    struct {
        weft_pool *p;
        weft_unit *first, *last;
        uint32_t n, blocked;
    } run[WAKE_LIST_POOLS];
    int nrun = 0;
    bool tool = WEFT_TOOL && weft_atomic_load_relaxed(&weft_tool_g.mask);
    /* everything is read from the waiters before the first push: a pushed ULT may run
     * and its waiter (on its stack) be gone */
    while (w) {
        weft_waiter *next = w->next;
        weft_unit *u = w->ult;
        int i = 0;
        if (u && !tool && !weft_atomic_load_relaxed(&u->migr_to) &&
            (u->pool->caps & WEFT_POOL_CAP_INLINE_FIFO)) {
            while (i < nrun && run[i].p != u->pool)
                i++;
            if (i == nrun && nrun < WAKE_LIST_POOLS)
                run[nrun++] = (typeof(run[0])){ u->pool, NULL, NULL, 0, 0 };
        } else {
            i = nrun; /* no batch for it */
        }
        if (i == nrun) {
            weft_waiter_wake(w);
        } else {
            run[i].blocked += w->counted_blocked;
            weft_atomic_store_relaxed(&u->state, WEFT_READY);
            if (run[i].last)
                run[i].last->next = u;
            else
                run[i].first = u;
            run[i].last = u;
            run[i].n++;
        }
        w = next;
    }
    for (int i = 0; i < nrun; i++) {
        if (run[i].blocked)
            weft_atomic_fetch_sub_relaxed(&run[i].p->num_blocked, run[i].blocked);
        weft_pool_fifo_push_chain(run[i].p, run[i].first, run[i].last, run[i].n);
    }
}
