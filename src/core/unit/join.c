/* src/core/unit/join.c - the join: the general one (join_wait: the bypass, the park, an
 * OS thread's sleep), the usual join of a fresh unit (a tasklet inline, a RoC-L or SC unit
 * on the joiner's stack or its own), join_many's chain, and the frees that join
 * (ABT_thread_free, ABT_task_free). */

#include "core/unit/switch.h"

/* Runs in the scheduler after the joiner left its stack: register it as the joiner, or
 * make it ready again if the target finished meanwhile. */
static void post_join_register(weft_xstream *xs, void *arg)
{
    weft_waiter *w = arg;
    weft_unit *t = w->data;
    weft_waiter *expected = NULL;
    if (!weft_atomic_cas_strong_acq_rel_acquire(&t->joiner, &expected, w))
        weft_waiter_wake(w); /* already done */
}

/* May a ULT run a tasklet inline, on its own stack?  When that stack is as large as a
 * scheduler's (the tasklet would otherwise run on one). */
static inline bool tasklet_fits_stack(const weft_unit *self)
{
    return self->stack_kind == WEFT_STACK_OS || self->stack_size >= weft_g.cfg.sched_stacksize;
}

/* The waiter of a ULT that bypass-joins: read only for ult, counted_blocked and
 * join_chain (hand-off or wake-up); the other fields are set on the paths that use them. */
static inline void bypass_waiter_init(weft_waiter *w, weft_unit *self)
{
    w->ult = self;
    w->counted_blocked = 0;
    w->join_chain = 0;
}

/* The bypassing joiner runs t, taken out of its pool, with its stack: t's joiner is `w`
 * (its ult, counted_blocked and join_chain set).  `freeing`: join_wait's. */
static inline __attribute__((always_inline)) bool
join_run_ult(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_waiter *w, bool freeing)
{
    leave_check(self); /* the canary; SC promotion */
    weft_atomic_store_relaxed(&t->joiner, w);
    /* we wait for t as a parked joiner would: SUSPEND, and RESUME when t's hand-off or
     * wake-up brings us back */
    weft_tool_switch(self, t, ABT_TOOL_EVENT_THREAD_SUSPEND | ABT_TOOL_EVENT_THREAD_RUN);
    weft_atomic_store_relaxed(&self->state, WEFT_BLOCKED);
    prep_run_quiet(xs, t);
    /* t ran to completion (roc_done_tag): finish it here; else resumed by t's hand-off,
     * or woken after t deviated */
    void *r = start_unit_roc(xs, &self->ctx, &self->asan_fake_stack, t, weft_ult_entry_roc_join);
    if (WEFT_LIKELY(r == roc_done_tag(xs))) {
        weft_san_landed(self->asan_fake_stack);
        WEFT_ASSERT(xs == weft_tls_xs && xs->cur == self && !xs->post_fn);
        if (freeing && WEFT_LIKELY(!weft_tool_wants(WEFT_FREE_EVENTS))) {
            release_stack(xs, t);
            return true;
        }
        finish_joined(xs, t);
        return false;
    }
    ult_landed(self, r);
    return false;
}

/* `freeing` (the join of ABT_thread_free / ABT_task_free, weft_unit_free_join): a target
 * that the joiner ran to completion here, with no tool listening for its end, is left
 * unpublished (neither TERMINATED nor JOIN_DONE: the caller releases it at once, and
 * nobody else may look at a unit being freed) and join_wait returns true; else false.
 * `bypass` false: the caller already tried the bypass's take (the usual join, below) and
 * found t gone from its pool: no second round of the pool's lock. */
static inline __attribute__((always_inline)) bool join_wait(weft_xstream *xs, weft_unit *self,
                                                            weft_unit *t, weft_join_chain *chain,
                                                            bool freeing, bool bypass)
{
    weft_waiter w; /* bypass_waiter_init; ult NULL for a tasklet or an external thread */
    bypass_waiter_init(&w, (self && (self->flags & WEFT_U_ULT)) ? self : NULL);
    if (w.ult) {
        /* Join bypass: a target that never ran and waits in one of our pools is run
         * here and now, by the joiner itself. */
        /* a fresh SS or SC target runs here as RoC (its flags carry WEFT_U_F_ROC): left
         * to the loop, the targets of a recursive program ran in the pool's order, breadth
         * first, every one a live stack (bench/abt/recursive.c) */
        if (bypass && bypass_take(xs, t, true)) {
            if (t->flags & WEFT_U_ULT) {
                if (t->ctx || ensure_stack(xs, t)) { /* a unit that ran has its stack */
                    if (chain) { /* join_many: t may start the next one itself */
                        w.join_chain = 1;
                        w.data = chain;
                    }
                    return join_run_ult(xs, self, t, &w, freeing);
                }
                weft_pool_push(t->pool, t);
            } else if (tasklet_fits_stack(self)) {
                /* a tasklet runs inline when our stack is as large as a scheduler's;
                 * we own it and are its only joiner: no need for an exchange */
                prep_run(xs, t);
                t->fn(t->arg);
                xs->cur = self;
                if (freeing &&
                    WEFT_LIKELY(!weft_tool_wants(ABT_TOOL_EVENT_THREAD_FINISH | WEFT_FREE_EVENTS)))
                    return true;
                weft_tool_event(t, ABT_TOOL_EVENT_THREAD_FINISH);
                weft_atomic_store_relaxed(&t->state, WEFT_TERMINATED);
                weft_atomic_store_release(&t->joiner, WEFT_JOIN_DONE);
                return false;
            } else {
                weft_pool_push(t->pool, t);
            }
        }
        w.next = NULL;
        weft_atomic_store_relaxed(&w.futex, 0);
        w.data = t;
        weft_atomic_fetch_add_relaxed(&self->pool->num_blocked, 1);
        w.counted_blocked = 1;
        weft_ult_park(xs, self, post_join_register, &w);
        return false;
    }
    /* tasklet or external thread: sleep on the waiter's futex */
    w.next = NULL;
    weft_atomic_store_relaxed(&w.futex, 0);
    w.data = NULL;
    weft_waiter *expected = NULL;
    if (weft_atomic_cas_strong_acq_rel_acquire(&t->joiner, &expected, &w))
        weft_waiter_wait_os(&w);
    return false;
}

/* The usual join of a fresh unit (ABT_*_join, and the join of ABT_*_free).
 *
 * join_wait's bypass for its two usual cases, with the tests of what those cases establish
 * before the take left out, so that the compiler keeps them short (a frame of four or
 * five registers, no re-test of a unit's stack or technique after the pool's lock):
 * - a tasklet that never ran, queued in the running loop's bypass pool, joined
 *   by a ULT whose stack can carry it: taken out of the pool and run inline;
 * - a fresh lazy return-on-completion ULT (RoC-L, the default) with the default stack
 *   size, in that pool, joined by a ULT, a stack in the stream's cache: taken, given a
 *   stack without a test, started by weft_ctx_call from its top, and when it returns
 *   intact its stack goes back without asking its kind.
 * No tool may be listening for the events these paths skip.  Anything else takes
 * join_wait (weft_unit_join_wait) or free_join (the frees). */

/* t's pool, if it is the bypass pool of the loop the caller (self) runs under on xs: a
 * BASIC loop's only pool, a RANDWS loop's own (sched.c); else NULL. */
static inline __attribute__((always_inline)) weft_pool *loop_pool_of(weft_xstream *xs,
                                                                     weft_unit *self, weft_unit *t)
{
    weft_pool *p = weft_atomic_load_relaxed_plain(&t->pool);
    WEFT_ASSUME(p != NULL); /* a unit always has its pool */
    if (self && p == xs->sched->bypass_pool) {
        /* a loop's bypass pool is a built-in FIFO pool (sched.c sets it only to one) */
        WEFT_ASSERT(p->caps & WEFT_POOL_CAP_INLINE_FIFO);
        return p;
    }
    return NULL;
}
/* The pool a fresh unit of either case waits in, when the caller may take it: NULL if
 * the caller is not a ULT or the unit's pool is not its loop's built-in FIFO pool. */
static inline __attribute__((always_inline)) weft_pool *fresh_pool(weft_xstream *xs,
                                                                   weft_unit *self, weft_unit *t)
{
    return self && (self->flags & WEFT_U_ULT) ? loop_pool_of(xs, self, t) : NULL;
}
/* ... for an SC unit (sc_lend_run's callers): self's kind is left to the room test, which
 * no unit but a ULT passes (unit_stack_floor is 0 for a tasklet). */
static inline __attribute__((always_inline)) weft_pool *fresh_sc_pool(weft_xstream *xs,
                                                                      weft_unit *self, weft_unit *t)
{
    return loop_pool_of(xs, self, t);
}

/* A tasklet (not a special unit) that self may run inline, if it is still queued;
 * `evs`: the tool events the path skips.  The take is weft_pool_fifo_take_tasklet. */
static inline __attribute__((always_inline)) bool fresh_tasklet_fits(weft_unit *self, weft_unit *t,
                                                                     uint64_t evs)
{
    return !(t->flags & (WEFT_U_ULT | WEFT_U_SPECIAL)) && tasklet_fits_stack(self) &&
           !weft_tool_wants(evs);
}

/* Runs the tasklet taken out of its pool; returns the stream, self's (a tasklet does
 * not switch: read from self rather than kept in a register across the call). */
static inline __attribute__((always_inline)) weft_xstream *
fresh_tasklet_run(weft_xstream *xs, weft_unit *self, weft_unit *t, bool reload)
{
    prep_run_quiet(xs, t);
    t->fn(t->arg);
    if (reload)
        xs = self->xs;
    WEFT_ASSERT(xs == weft_tls_xs);
    xs->cur = self;
    return xs;
}

/* A tasklet ended: published as join_wait does (FINISH for a tool, TERMINATED, then
 * JOIN_DONE, which lets a waiter go). */
static inline void tasklet_publish_end(weft_unit *t)
{
    weft_tool_event(t, ABT_TOOL_EVENT_THREAD_FINISH);
    weft_atomic_store_relaxed(&t->state, WEFT_TERMINATED);
    weft_atomic_store_release(&t->joiner, WEFT_JOIN_DONE);
}

/* ... and the JOIN event of ABT_thread_join / ABT_task_join (weft_unit_join_told), behind
 * one test of the mask for both events */
static inline void tasklet_publish_end_told(weft_unit *t)
{
    if (WEFT_UNLIKELY(weft_tool_wants(ABT_TOOL_EVENT_THREAD_FINISH | ABT_TOOL_EVENT_THREAD_JOIN))) {
        tasklet_publish_end(t);
        weft_tool_event(t, ABT_TOOL_EVENT_THREAD_JOIN);
        return;
    }
    weft_atomic_store_relaxed(&t->state, WEFT_TERMINATED);
    weft_atomic_store_release(&t->joiner, WEFT_JOIN_DONE);
}

/* A RoC-L ULT (its flags tested: weft_unit_picks_roc_l) of the default stack size
 * that self may start or resume if it is still queued (weft_pool_fifo_take_joinable with
 * ran_ok, as join_wait's bypass takes): the stack kind and context of a taken unit are
 * read after the take, when nobody else may write them. */
static inline __attribute__((always_inline)) bool fresh_roc_fits(weft_xstream *xs, weft_unit *t)
{
    return t->stack_size == weft_mem_cfg.thread_stacksize &&
           weft_stack_cache_nonempty(&xs->cache) &&
           !weft_tool_wants(ABT_TOOL_EVENT_THREAD_SUSPEND | ABT_TOOL_EVENT_THREAD_RUN);
}

/* Has t run (it has a saved context)?  A hint read without the pool's lock, so that the
 * join of a unit that yielded goes straight to join_wait (one round of the lock, its
 * resume inline there) instead of through the usual join's take and taken_run_ult; the
 * stream that runs t writes the field, so the read races by design, and the take checks
 * again under the lock.  TSan builds, which would report the race, take the lock to know
 * (and so run taken_run_ult for such units). */
static inline bool ran_hint(weft_unit *t)
{
#if WEFT_TSAN
    (void)t;
    return false;
#else
    return weft_atomic_load_relaxed_plain(&t->ctx) != NULL;
#endif
}

/* Did the take give a unit that never ran and has no stack (fresh_roc_run's case)? */
static inline bool taken_fresh_lazy(const weft_unit *t)
{
    return t->ctx == NULL && t->stack_kind == WEFT_STACK_NONE;
}

/* Starts a ULT taken out of its pool that never ran and has no stack yet (WEFT_STACK_NONE), with
 * self as its bypassing joiner (join_run_ult, specialised).  True: it returned intact,
 * its stack is back in the cache and nothing is published; false: it deviated and
 * finished through the termination hand-off (self->xs says where self now runs). */
static inline __attribute__((always_inline)) bool fresh_roc_run(weft_xstream *xs, weft_unit *self,
                                                                weft_unit *t)
{
    WEFT_ASSERT(t->stack == NULL && t->stack_kind == WEFT_STACK_NONE);
    weft_stack *st = weft_stack_cache_take(&xs->cache);
    t->stack = st;
    t->stack_kind = WEFT_STACK_CACHED;
    leave_check(self); /* the canary; SC promotion */
    weft_waiter w;
    bypass_waiter_init(&w, self);
    weft_atomic_store_relaxed(&t->joiner, &w);
    weft_atomic_store_relaxed(&self->state, WEFT_BLOCKED);
    prep_run_quiet(xs, t);
    if (WEFT_TSAN)
        t->tsan_fiber = weft_tsan_fiber_create();
    san_switch_to(&self->asan_fake_stack, t);
    void *r = weft_ctx_call(&self->ctx, weft_stack_top(st), weft_ult_entry_roc_fresh, t);
    if (WEFT_LIKELY(r == roc_done_tag(xs))) {
        weft_san_landed(self->asan_fake_stack);
        /* weft_ult_entry_roc_join's end, which weft_ult_entry_roc_fresh leaves to us: we waited
         * here, in no pool, unmovable */
        WEFT_ASSERT(xs == weft_tls_xs && self->xs == xs && !xs->post_fn);
        xs->cur = self;
        weft_atomic_store_relaxed(&self->state, WEFT_RUNNING);
        weft_tool_switch(t, self,
                         ABT_TOOL_EVENT_THREAD_FINISH | ABT_TOOL_EVENT_THREAD_RESUME |
                             ABT_TOOL_EVENT_THREAD_RUN);
        if (WEFT_ASAN || WEFT_TSAN) {
            release_stack(xs, t);
        } else { /* release_stack's first case; the release resets stack_kind */
            weft_stack_free_default(&xs->cache, t->stack);
            t->stack = NULL;
            t->ctx = NULL;
        }
        return true;
    }
    ult_landed(self, r);
    return false;
}

/* A ULT that fresh_roc_run reports intact ended: published as finish_joined does (its
 * stack is back already). */
static inline void fresh_roc_publish_end(weft_unit *t)
{
    WEFT_OPAQUE(t); /* (its fields' addresses are not kept across the call) */
    t->stack_kind = WEFT_STACK_NONE;
    joined_publish_end(t);
}

/* A RoC ULT taken out of its pool that ran before (it yielded, and ran_hint missed it)
 * or runs on the stack its user gave (WEFT_STACK_USER): join_run_ult, out of the way of
 * the usual case. */
static __attribute__((noinline)) bool taken_run_ult(weft_xstream *xs, weft_unit *self, weft_unit *t,
                                                    bool freeing)
{
    weft_waiter w;
    bypass_waiter_init(&w, self);
    return join_run_ult(xs, self, t, &w, freeing);
}

static __attribute__((noinline)) void join_wait_plain(weft_xstream *xs, weft_unit *self,
                                                      weft_unit *t)
{
    join_wait(xs, self, t, NULL, false, true);
}
static void join_fresh_sc(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p);
/* Whether a joiner may call a fresh unit on its own stack (lend.c, "a fresh unit on its joiner's
 * stack"): not in ThreadSanitizer builds (its shadow call stack does not follow the jump
 * back), nor when the program asked for a guard page below every ULT's own stack
 * (ABT_STACK_OVERFLOW_CHECK=mprotect or mprotect_strict: cfg.lend_stacks), nor while a
 * tool listens for the RUN and FINISH events that the call skips. */
static inline bool lend_allowed(void)
{
    return !WEFT_TSAN && weft_g.cfg.lend_stacks &&
           !weft_tool_wants(ABT_TOOL_EVENT_THREAD_RUN | ABT_TOOL_EVENT_THREAD_FINISH);
}
/* A join of a unit that never ran and is neither a tasklet nor RoC-L: a fresh SC unit
 * first (its test here, so that the dispatcher's usual cases pay none), then join_wait.
 * Frameless: both ways out are tail calls. */
static __attribute__((noinline)) void join_wait_general(weft_xstream *xs, weft_unit *self,
                                                        weft_unit *t)
{
    weft_pool *p;
    if (weft_unit_picks_sc(t) && (p = fresh_sc_pool(xs, self, t)) && lend_allowed()) {
        join_fresh_sc(xs, self, t, p);
        return;
    }
    join_wait_plain(xs, self, t);
}
/* ... after the usual path's take missed: no bypass (a copy of its own, so that the
 * general join tests no flag for it) */
static __attribute__((noinline)) void join_wait_missed(weft_xstream *xs, weft_unit *self,
                                                       weft_unit *t)
{
    join_wait(xs, self, t, NULL, false, false);
}

/* The usual join of a queued tasklet (weft_unit_join_wait, weft_unit_join_told). */
/* `told`: the end tells JOIN too (tasklet_publish_end_told); true when it did */
static inline __attribute__((always_inline)) bool
join_fresh_tasklet_do(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p, bool told)
{
    if (WEFT_UNLIKELY(!weft_pool_fifo_take_tasklet(p, t))) {
        join_wait_missed(xs, self, t);
        return false;
    }
    fresh_tasklet_run(xs, self, t, false);
    if (told) {
        tasklet_publish_end_told(t);
        return true;
    }
    tasklet_publish_end(t);
    return false;
}
static WEFT_HOT_ALIGN __attribute__((noinline)) void
join_fresh_tasklet(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p)
{
    (void)join_fresh_tasklet_do(xs, self, t, p, false);
}

/* The join's end of sc_lend_run: what it did, the unit published if it ran intact. */
/* `told`: an intact end tells JOIN too (tasklet_publish_end_told). */
static inline __attribute__((always_inline)) int join_lent(weft_xstream *xs, weft_unit *self,
                                                           weft_unit *t, weft_pool *p, bool told)
{
    int r = sc_lend_run(xs, self, t, p);
    if (WEFT_LIKELY(r == SC_LEND_INTACT)) {
        WEFT_OPAQUE(t);
        t->stack_kind = WEFT_STACK_NONE;
        if (told)
            tasklet_publish_end_told(t);
        else
            tasklet_publish_end(t);
    }
    return r;
}

/* The usual join of a fresh SC unit (join_wait_general). */
static __attribute__((noinline)) void join_fresh_sc(weft_xstream *xs, weft_unit *self, weft_unit *t,
                                                    weft_pool *p)
{
    switch (join_lent(xs, self, t, p, false)) {
    case SC_LEND_INTACT:
    case SC_LEND_ENDED: return;
    case SC_LEND_MISSED: join_wait_missed(xs, self, t); return;
    default: join_wait_plain(xs, self, t); return;
    }
}

/* The usual join of a fresh RoC-L ULT (weft_unit_join_wait, weft_unit_join_told). */
/* `told`: an intact lent end tells JOIN too (join_lent); true when it did */
static inline __attribute__((always_inline)) bool
join_fresh_roc_do(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p, bool told)
{
    /* on self's stack first; else (no room, or t ran: the take takes it if it is the
     * head) on a stack of its own */
    if (WEFT_LIKELY(lend_allowed())) {
        int r = join_lent(xs, self, t, p, told);
        if (WEFT_LIKELY(r == SC_LEND_INTACT))
            return told;
        if (r == SC_LEND_ENDED)
            return false;
    }
    if (WEFT_UNLIKELY(!fresh_roc_fits(xs, t))) {
        join_wait_plain(xs, self, t);
        return false;
    }
    if (WEFT_UNLIKELY(!weft_pool_fifo_take_joinable(p, t, true))) {
        join_wait_missed(xs, self, t);
        return false;
    }
    if (WEFT_UNLIKELY(!taken_fresh_lazy(t)))
        taken_run_ult(xs, self, t, false);
    else if (fresh_roc_run(xs, self, t))
        fresh_roc_publish_end(t);
    return false;
}

static WEFT_HOT_ALIGN __attribute__((noinline)) void
join_fresh_roc(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p)
{
    (void)join_fresh_roc_do(xs, self, t, p, false);
}

/* ABT_thread_join's and ABT_task_join's joins (weft_unit_join_told): each path, then the
 * JOIN event in the same frame, so that the entry point tail-calls the join and keeps no
 * register across it.  The event is tested after the join, as the entry point did: a tool
 * registered while the unit runs hears it (tests/free_tool_midrun.c). */
static inline __attribute__((always_inline)) int join_told_end(weft_unit *t)
{
    weft_tool_event(t, ABT_TOOL_EVENT_THREAD_JOIN);
    return ABT_SUCCESS;
}
static WEFT_HOT_ALIGN __attribute__((noinline)) int
join_fresh_tasklet_told(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p)
{
    if (join_fresh_tasklet_do(xs, self, t, p, true))
        return ABT_SUCCESS;
    return join_told_end(t);
}
static WEFT_HOT_ALIGN __attribute__((noinline)) int
join_fresh_roc_told(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p)
{
    if (join_fresh_roc_do(xs, self, t, p, true))
        return ABT_SUCCESS;
    return join_told_end(t);
}
static __attribute__((noinline)) int join_plain_told(weft_xstream *xs, weft_unit *self,
                                                     weft_unit *t)
{
    join_wait_plain(xs, self, t);
    return join_told_end(t);
}
static __attribute__((noinline)) int join_general_told(weft_xstream *xs, weft_unit *self,
                                                       weft_unit *t)
{
    join_wait_general(xs, self, t);
    return join_told_end(t);
}

/* Frameless: every way out is a tail call, so a join that is not the usual one (a unit
 * that yielded, the deviation benchmark's; another technique) pays only the tests: a unit
 * that ran first, then the unit's kind and technique.  `told`: the ways out of
 * weft_unit_join_told, which end with the JOIN event. */
static inline __attribute__((always_inline)) int join_dispatch(weft_xstream *xs, weft_unit *self,
                                                               weft_unit *t, bool told)
{
    weft_pool *p;
    if (WEFT_UNLIKELY(ran_hint(t))) { /* (the layout of the fresh case first) */
        if (told)                     /* the general join */
            return join_plain_told(xs, self, t);
        join_wait_plain(xs, self, t);
        return ABT_SUCCESS;
    } else if (!(t->flags & WEFT_U_ULT)) {
        if ((p = fresh_pool(xs, self, t)) &&
            fresh_tasklet_fits(self, t, ABT_TOOL_EVENT_THREAD_RUN | ABT_TOOL_EVENT_THREAD_FINISH)) {
            if (told)
                return join_fresh_tasklet_told(xs, self, t, p);
            join_fresh_tasklet(xs, self, t, p);
            return ABT_SUCCESS;
        }
    } else if (weft_unit_picks_roc_l(t) && (p = fresh_pool(xs, self, t))) {
        if (told)
            return join_fresh_roc_told(xs, self, t, p);
        join_fresh_roc(xs, self, t, p);
        return ABT_SUCCESS;
    }
    if (told)
        return join_general_told(xs, self, t);
    join_wait_general(xs, self, t);
    return ABT_SUCCESS;
}
WEFT_HOT_ALIGN void weft_unit_join_wait(weft_xstream *xs, weft_unit *self, weft_unit *t)
{
    (void)join_dispatch(xs, self, t, false);
}
WEFT_HOT_ALIGN int weft_unit_join_told(weft_xstream *xs, weft_unit *self, weft_unit *t)
{
    return join_dispatch(xs, self, t, true);
}

void weft_unit_join_wait_chain(weft_xstream *xs, weft_unit *self, weft_unit *t,
                               weft_join_chain *chain)
{
    join_wait(xs, self, t, chain, false, true);
}

/* ABT_thread_free / ABT_task_free of a unit not seen terminated, in one call: the join
 * (join_wait, which leaves a unit it ran to completion here unpublished), the JOIN and
 * FREE events if a tool wants them, the release, the handle to `null`.  `inv`: the error
 * for the unit itself or a special unit (ABT_ERR_INV_THREAD, ABT_ERR_INV_TASK). */
static inline __attribute__((always_inline)) int free_join(weft_unit *t, ABT_thread *hp,
                                                           ABT_thread null, int inv, bool bypass)
{
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    if (WEFT_UNLIKELY(t == self || (t->flags & WEFT_U_SPECIAL)))
        return inv;
    if (!join_wait(xs, self, t, NULL, true, bypass)) {
        /* a ULT may come back on another stream; its unit says which */
        xs = self ? self->xs : xs;
        weft_unit_free_told(t);
    }
    weft_unit_release(xs, t);
    *hp = null;
    return ABT_SUCCESS;
}

static __attribute__((noinline)) int thread_free_join_general(weft_unit *t, ABT_thread *thread,
                                                              bool bypass)
{
    return free_join(t, thread, ABT_THREAD_NULL, ABT_ERR_INV_THREAD, bypass);
}

/* The free's end of sc_lend_run: true when the free is done (the unit ran on self's stack
 * and is released), false when sc_lend_run did nothing (*r: SC_LEND_MISSED or _NO_ROOM). */
static inline __attribute__((always_inline)) bool
free_lent(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p, ABT_thread *thread, int *r)
{
    *r = sc_lend_run(xs, self, t, p);
    if (WEFT_LIKELY(*r == SC_LEND_INTACT)) {
        if (WEFT_LIKELY(!weft_tool_wants(ABT_TOOL_EVENT_THREAD_FINISH | WEFT_FREE_EVENTS))) {
            /* unpublished, as join_wait leaves a unit it ran when freeing; the release
             * resets its kind */
            weft_unit_release_stackless(xs, t);
            *thread = ABT_THREAD_NULL;
            return true;
        }
        t->stack_kind = WEFT_STACK_NONE;
        tasklet_publish_end(t);
    } else if (*r == SC_LEND_ENDED) {
        xs = self->xs; /* self may run on another stream now */
    } else {
        return false;
    }
    weft_unit_free_told(t);
    weft_unit_release(xs, t);
    *thread = ABT_THREAD_NULL;
    return true;
}

/* ABT_thread_free of an SC ULT (its flags tested: WEFT_U_PICK_SC): the usual join of a
 * fresh one, called on the caller's stack (sc_lend_run), then free_join's end. */
WEFT_HOT_ALIGN int weft_thread_free_join_sc(weft_unit *t, ABT_thread *thread)
{
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    weft_pool *p;
    int r;
    /* (t == self, or a t that ran: the take misses, below) */
    if (WEFT_UNLIKELY(!(p = fresh_sc_pool(xs, self, t)) || !lend_allowed()))
        return thread_free_join_general(t, thread, true);
    if (WEFT_LIKELY(free_lent(xs, self, t, p, thread, &r)))
        return ABT_SUCCESS;
    /* a unit that ran (promoted by its loop, now ready) may still be resumed by the
     * join's bypass; one gone from its pool may not (ran_hint: the take checks again) */
    return thread_free_join_general(t, thread, r == SC_LEND_MISSED ? ran_hint(t) : true);
}

/* ABT_thread_free of a ULT that is neither RoC-L nor SC (ABT_thread_free tested both). */
int weft_thread_free_join_other(weft_unit *t, ABT_thread *thread)
{
    return thread_free_join_general(t, thread, true);
}

/* ABT_thread_free of a RoC-L ULT (its flags tested): the usual join (above), then
 * free_join's end. */
WEFT_HOT_ALIGN int weft_thread_free_join(weft_unit *t, ABT_thread *thread)
{
    WEFT_ASSERT(weft_unit_picks_roc_l(t));
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    weft_pool *p = fresh_pool(xs, self, t);
    int r;
    /* on self's stack first (free_lent); else (no room, or t ran: the take takes it if it
     * is the head) on a stack of its own */
    if (WEFT_LIKELY(p != NULL) && WEFT_LIKELY(lend_allowed()) &&
        WEFT_LIKELY(free_lent(xs, self, t, p, thread, &r)))
        return ABT_SUCCESS;
    if (WEFT_LIKELY(p != NULL && fresh_roc_fits(xs, t))) {
        if (WEFT_UNLIKELY(!weft_pool_fifo_take_joinable(p, t, true)))
            return thread_free_join_general(t, thread, false);
        bool intact = WEFT_UNLIKELY(!taken_fresh_lazy(t)) ? taken_run_ult(xs, self, t, true)
                                                          : fresh_roc_run(xs, self, t);
        if (WEFT_LIKELY(intact) && WEFT_LIKELY(!weft_tool_wants(WEFT_FREE_EVENTS))) {
            /* unpublished, as join_wait leaves a unit it ran when freeing */
            weft_unit_release_stackless(xs, t);
            *thread = ABT_THREAD_NULL;
            return ABT_SUCCESS;
        }
        if (intact) {
            fresh_roc_publish_end(t);
        } else {
            xs = self->xs; /* self may come back on another stream */
        }
        weft_unit_free_told(t);
        weft_unit_release(xs, t);
        *thread = ABT_THREAD_NULL;
        return ABT_SUCCESS;
    }
    return thread_free_join_general(t, thread, true);
}

static __attribute__((noinline)) int task_free_join_general(weft_unit *t, ABT_task *task,
                                                            bool bypass)
{
    return free_join(t, task, (ABT_thread)ABT_TASK_NULL, ABT_ERR_INV_TASK, bypass);
}

/* ABT_task_free of a queued tasklet: the usual join (above), then free_join's end.  (A
 * ULT freed by ABT_task_free, unusual, takes free_join after this function's tests.) */
WEFT_HOT_ALIGN int weft_task_free_join(weft_unit *t, ABT_task *task)
{
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    weft_pool *p = fresh_pool(xs, self, t);
    if (WEFT_LIKELY(p != NULL &&
                    fresh_tasklet_fits(self, t,
                                       ABT_TOOL_EVENT_THREAD_RUN | ABT_TOOL_EVENT_THREAD_FINISH |
                                           WEFT_FREE_EVENTS))) {
        if (WEFT_UNLIKELY(!weft_pool_fifo_take_tasklet(p, t)))
            return task_free_join_general(t, task, false);
        xs = fresh_tasklet_run(xs, self, t, true);
        /* a tool that registered while it ran hears its end as free_join tells it */
        if (WEFT_UNLIKELY(weft_tool_wants(ABT_TOOL_EVENT_THREAD_FINISH | WEFT_FREE_EVENTS))) {
            tasklet_publish_end(t);
            weft_unit_free_told(t);
        }
        weft_unit_release_stackless(xs, t);
        *task = ABT_TASK_NULL;
        return ABT_SUCCESS;
    }
    return task_free_join_general(t, task, true);
}
