/* src/core/unit/exit.c - a unit's end: termination (the hand-off to its joiner, the
 * jump to the scheduler, a join_many chain), the entries of a ULT (weft_ult_entry and the
 * return-on-completion ones), the descriptor given back, and the restartable loops of
 * the predefined schedulers, which a deviating SS or SC unit restarts. */

#include "core/unit/switch.h"

/* Terminating: leave the current stack for good and resume the scheduler. */
static __attribute__((noreturn)) void jump_to_sched(weft_xstream *xs)
{
    weft_sched *s = xs->sched;
    sched_fresh_fiber(s);
    size_t sz = 0;
    const void *lo = WEFT_ASAN ? sched_stack_lo(xs, s, &sz) : NULL;
    xs->cur = s->unit;
    weft_san_switch(NULL, lo, sz, s->tsan_fiber);
    if (WEFT_LIKELY(s->ctx != NULL))
        weft_ctx_jump(s->ctx, xs);
    weft_ctx dummy;
    if (s->restart_top) { /* it ran an SS unit unsaved: its loop starts afresh */
        sched_restart_unpoison(s);
        weft_ctx_start(&dummy, s->restart_top, s->restart_fn, s);
    }
    weft_ctx_start(&dummy, weft_stack_top(s->stack), weft_sched_entry, s);
    __builtin_unreachable();
}

/* An unnamed unit's end, out of line: the tool's FREE event, then the descriptor back to
 * the cache. */
__attribute__((noinline)) void weft_unit_release_told(weft_xstream *xs, weft_unit *u)
{
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_FREE);
    weft_unit_release(xs, u);
}

void weft_unit_release_extras(weft_xstream *xs, weft_unit *u)
{
    if (weft_atomic_load_relaxed(&u->keys) != NULL)
        weft_unit_run_key_dtors(u);
    if (weft_atomic_load_relaxed(&u->cold)) { /* the third line */
        if (weft_atomic_load_relaxed(&u->uunit) != NULL)
            weft_user_unit_drop(u);
        if (u->stack_kind == WEFT_STACK_USER && weft_g.cfg.guard_in_stack)
            weft_overflow_user_guard_clear(u); /* set at its creation */
        u->migr_cb = NULL;
        u->sched = NULL;
        weft_atomic_store_relaxed(&u->cold, 0);
    }
    if (u->stack) { /* kept since its creation (WEFT_U_F_KEEP) */
        if (WEFT_ASAN)
            weft_asan_unpoison_stack(weft_stack_lo(u->stack), u->stack->usable);
        weft_stack_free(weft_xs_cache(xs), u->stack);
        u->stack = NULL;
    }
}

void weft_post_finish(weft_xstream *xs, void *arg) { unit_finish(xs, arg); }

/* The finished unit handed the CPU to its joiner, which is already running. */
static void post_finish_handoff(weft_xstream *xs, void *arg)
{
    weft_unit *u = arg;
    release_stack(xs, u);
    weft_atomic_store_release(&u->state, WEFT_TERMINATED);
    /* The joiner registered before the hand-off and is the one running this: nobody
     * else writes the field any more, so a store does (no atomic read-modify-write). */
    weft_waiter *w = weft_atomic_load_relaxed(&u->joiner);
    if (w->counted_blocked)
        weft_atomic_fetch_sub_relaxed(&w->ult->pool->num_blocked, 1);
    weft_atomic_store_release(&u->joiner, WEFT_JOIN_DONE);
}

static void post_finish_chain(weft_xstream *xs, void *arg) { finish_joined(xs, arg); }

/* join_many's N + 1 switches (trade-off paper): the child `self` of a chained join
 * finishes on the joiner's stream; if the next unit of the joiner's list is a fresh ULT
 * that the joiner could bypass-join itself, start it here instead of resuming the joiner
 * just for it to do so.  Anything else (a bad handle, a tasklet, a unit that ran, one in
 * another pool) ends the chain: the joiner resumes and joins the rest one by one, with
 * the usual errors.  Returns only when the chain ends. */
static void join_chain_next(weft_xstream *xs, weft_unit *self, weft_waiter *w)
{
    weft_join_chain *c = w->data;
    if (c->next >= c->n)
        return;
    weft_unit *t = weft_unit_from(c->list[c->next]);
    if (!t || t == w->ult || (t->flags & (WEFT_U_SPECIAL | WEFT_U_ULT)) != WEFT_U_ULT ||
        weft_unit_done(t))
        return;
    if (!bypass_take(xs, t, false))
        return;
    if (!ensure_stack(xs, t)) {
        weft_pool_push(t->pool, t);
        return;
    }
    c->next++;
    weft_atomic_store_relaxed(&t->joiner, w);
    if (weft_tool_wants(ABT_TOOL_EVENT_THREAD_FINISH | ABT_TOOL_EVENT_THREAD_RUN)) {
        weft_tool_dispatch(self, ABT_TOOL_EVENT_THREAD_FINISH);
        weft_tool_dispatch(t, ABT_TOOL_EVENT_THREAD_RUN);
    }
    prep_run_quiet(xs, t);
    weft_set_post(xs, post_finish_chain, self);
    weft_ctx dead; /* self's context is never resumed */
    enter_unit(xs, &dead, NULL, t);
    __builtin_unreachable();
}

/* A unit on a stack not its own exits.  On its joiner's stack (an SC or RoC-L unit, LENT
 * or BORROWED), it goes back to its joiner's frame; on the loop's (SC), it ends there,
 * and the loop takes the stack back (restarting). */
static WEFT_COLD __attribute__((noinline)) void sc_exit_stack(weft_xstream *xs, weft_unit *self)
{
    if (self->stack_kind == WEFT_STACK_LENT || self->stack_kind == WEFT_STACK_BORROWED)
        weft_unit_lend_leave(self, SC_LEND_EXIT);
    weft_sched *s = xs->sched;
    s->sc_unit = NULL;
    if (WEFT_TSAN) { /* it runs as the loop's fiber: that one goes with it */
        self->tsan_fiber = s->tsan_fiber;
        s->tsan_fiber = weft_tsan_fiber_create();
    }
}

void weft_ult_exit(weft_xstream *xs, weft_unit *self)
{
    weft_canary_check(self); /* (helper) core/tool/overflow.h: ABT_STACK_OVERFLOW_CHECK */
    xs->epoch++;             /* no return on completion below this */
    if (WEFT_UNLIKELY(self->stack_kind >= WEFT_STACK_BORROWED)) /* BORROWED, SC, LENT */
        sc_exit_stack(xs, self);
    weft_waiter *w = weft_atomic_load_acquire(&self->joiner);
    if (w && w != WEFT_JOIN_DONE && w->ult && w->ult->xs == xs && (self->flags & WEFT_U_NAMED)) {
        if (WEFT_UNLIKELY(w->join_chain))
            join_chain_next(xs, self, w);
        /* Hand-off: resume the joiner directly, no scheduler, no pool.  The joiner is
         * suspended (it reported SUSPEND when it parked or started us): FINISH, then its
         * RESUME and RUN, as if it went through its pool. */
        weft_unit *j = w->ult;
        weft_tool_switch(self, j,
                         ABT_TOOL_EVENT_THREAD_FINISH | ABT_TOOL_EVENT_THREAD_RESUME |
                             ABT_TOOL_EVENT_THREAD_RUN);
        prep_run_quiet(xs, j);
        weft_set_post(xs, post_finish_handoff, self);
        san_switch_to(NULL, j);
        weft_ctx_jump(j->ctx, xs);
    }
    weft_tool_event(self, ABT_TOOL_EVENT_THREAD_FINISH);
    weft_set_post(xs, weft_post_finish, self);
    jump_to_sched(xs);
}

void weft_ult_entry(void *arg)
{
    weft_unit *u = arg;
    weft_san_landed(NULL);
    /* u->xs is the stream running it: whoever starts or resumes a unit sets it there
     * (prep_run), so it is right again after fn, even if the ULT moved meanwhile */
    weft_land(u->xs);
    u->fn(u->arg);
    weft_ult_exit(u->xs, u);
}

/* Return on completion.
 *
 * RoC techniques (core/unit/fork.h, WEFT_U_F_ROC).  A scheduler, or a joiner that bypasses
 * one, starts a fresh RoC unit with weft_ctx_call instead of weft_ctx_start: its own
 * context is saved as usual, but when the unit's function returns and nothing else ran
 * on the stream meanwhile (the stream's epoch is the one read at the start, and the unit
 * is still on that stream), the unit returns to its starter like a function: no saved
 * register is restored.  Otherwise it leaves as any unit does (weft_ult_exit): hand-off
 * to its joiner, or jump to the scheduler, whose context is the one saved then. */

/* The start of every RoC entry: u's function, then whether u comes back intact
 * (roc_intact) to the stream it started on, *xsp. */
static inline __attribute__((always_inline)) bool roc_run(weft_unit *u, weft_xstream **xsp)
{
    weft_san_landed(NULL);
    weft_xstream *xs = u->xs;
    uint64_t epoch = xs->epoch;
    WEFT_ASSERT(xs->post_fn == NULL); /* a RoC start leaves no post action: no weft_land */
    u->fn(u->arg);
    *xsp = xs;
    return roc_intact(xs, epoch, u);
}

/* The entry of a unit started by a scheduler that it returns to: `unsaved` for an SS
 * start (the loop saved nothing: sanitizer builds, which cannot return (roc_leave), have
 * nothing to jump to and restart the loop, which a stateless scheduler allows). */
static inline __attribute__((always_inline)) void *roc_sched_entry(weft_unit *u, bool unsaved)
{
    weft_xstream *xs;
    if (WEFT_UNLIKELY(!roc_run(u, &xs)))
        weft_ult_exit(u->xs, u);
    weft_canary_check(u); /* (helper) core/tool/overflow.h */
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_FINISH);
    if (unsaved)
        weft_set_post(xs, weft_post_finish, u);
    weft_sched *s = xs->sched;
    if (unsaved && (WEFT_ASAN || WEFT_TSAN))
        sched_fresh_fiber(s); /* s->ctx is NULL: it restarts below */
    size_t sz = 0;
    const void *lo = WEFT_ASAN ? sched_stack_lo(xs, s, &sz) : NULL;
    xs->cur = s->unit;
    weft_san_switch(NULL, lo, sz, s->tsan_fiber);
    if (!unsaved) { /* the scheduler finishes u (weft_sched_run_unit) */
        if (WEFT_ASAN || WEFT_TSAN)
            weft_ctx_jump(s->ctx, roc_done_tag(xs));
        return roc_done_tag(xs);
    }
    if (WEFT_ASAN || WEFT_TSAN) {
        weft_ctx dead;
        sched_restart_unpoison(s);
        weft_ctx_start(&dead, s->restart_top, s->restart_fn, s);
    }
    return xs;
}

/* Started by a scheduler (weft_sched_run_unit) that saved itself: return to it. */
void *weft_ult_entry_roc_sched(void *arg) { return roc_sched_entry(arg, false); }

/* Started unsaved by a predefined loop (stack separation): return to it. */
void *weft_ult_entry_ss(void *arg) { return roc_sched_entry(arg, true); }

/* Started by its joiner (the join bypass): return to the joiner, as a hand-off would;
 * intact, it leaves its finish to the joiner (roc_done_tag). */
void *weft_ult_entry_roc_join(void *arg)
{
    weft_unit *u = arg;
    weft_xstream *xs;
    bool intact = roc_run(u, &xs);
    /* the joiner registered before starting us; a join_many chain takes the exit's road */
    weft_waiter *w = weft_atomic_load_relaxed(&u->joiner);
    if (WEFT_UNLIKELY(!intact || w->join_chain))
        weft_ult_exit(u->xs, u);
    weft_canary_check(u); /* (helper) core/tool/overflow.h */
    weft_unit *j = w->ult;
    weft_tool_switch(u, j,
                     ABT_TOOL_EVENT_THREAD_FINISH | ABT_TOOL_EVENT_THREAD_RESUME |
                         ABT_TOOL_EVENT_THREAD_RUN);
    /* prep_run_quiet without j->xs: the joiner waited here, in no pool, unmovable */
    WEFT_ASSERT(j->xs == xs);
    xs->cur = j;
    weft_atomic_store_relaxed(&j->state, WEFT_RUNNING);
    san_switch_to(NULL, j);
    if (WEFT_ASAN || WEFT_TSAN)
        weft_ctx_jump(j->ctx, roc_done_tag(xs));
    return roc_done_tag(xs);
}

/* Started by the usual join of a fresh unit (fresh_roc_run): weft_ult_entry_roc_join, whose
 * end the joiner does when the unit returns intact (it becomes the stream's current unit
 * again and tells the tool), so the entry reads nothing of the joiner's waiter.  Sanitizer
 * builds leave by a jump to the joiner's context, and make it current first. */
WEFT_HOT_ALIGN void *weft_ult_entry_roc_fresh(void *arg)
{
    weft_unit *u = arg;
    weft_xstream *xs;
    if (WEFT_UNLIKELY(!roc_run(u, &xs)))
        weft_ult_exit(u->xs, u);
    weft_canary_check(u); /* (helper) core/tool/overflow.h */
    if (WEFT_ASAN || WEFT_TSAN) {
        weft_unit *j = weft_atomic_load_relaxed(&u->joiner)->ult;
        xs->cur = j;
        san_switch_to(NULL, j);
        weft_ctx_jump(j->ctx, roc_done_tag(xs));
    }
    return roc_done_tag(xs);
}

/* Restartable loops (sched/loop.h).  The loop body runs on a stack of its own
 * (body_stack, the scheduler's stack size), started with weft_ctx_start: restarting it is
 * starting it there again (on another stack once an SC unit took that one), and its end
 * jumps back to the saved enter.  Without memory for that stack it runs just below the
 * frame of the enter, on the stack that entered it (SC units then run as SS). */

void weft_sched_loop_enter(weft_sched *s, void (*body)(void *))
{
    weft_xstream *xs = weft_xs_self();
    void *old_top = s->restart_top;
    void (*old_fn)(void *) = s->restart_fn;
    /* ASan: the stack the enter runs on, for the switches to and from the body */
    s->loop_size = 0;
    s->loop_lo = WEFT_ASAN ? sched_stack_lo(xs, s, &s->loop_size) : NULL;
    s->sc_unit = NULL;
    s->body_stack = weft_stack_alloc(&xs->cache, weft_g.cfg.sched_stacksize);
    uintptr_t top;
    if (s->body_stack)
        top = (uintptr_t)weft_stack_top(s->body_stack);
    else /* below this frame (the real one: under ASan a local may be on a fake stack),
          * with room for the context weft_ctx_start saves there */
        top = ((uintptr_t)__builtin_frame_address(0) - 256) & ~(uintptr_t)15;
    s->restart_top = (void *)top;
    s->restart_fn = body;
    /* TSan: the body is a call chain of its own, on a fiber of its own */
    void *enter_fiber = s->tsan_fiber;
    s->loop_fiber = enter_fiber;
    if (WEFT_TSAN)
        s->tsan_fiber = weft_tsan_fiber_create();
    size_t sz = 0;
    const void *lo = WEFT_ASAN ? sched_stack_lo(xs, s, &sz) : NULL;
    weft_san_switch(&s->loop_fake, lo, sz, s->tsan_fiber);
    weft_ctx_start(&s->loop_exit, (void *)top, body, s);
    weft_san_landed(s->loop_fake);
    if (WEFT_TSAN) {
        weft_tsan_fiber_destroy(s->tsan_fiber);
        s->tsan_fiber = enter_fiber;
    }
    /* the loop ended: its stack (maybe another than the first: SC units took some) */
    xs = weft_xs_reload();
    WEFT_ASSERT(s->sc_unit == NULL);
    if (s->sc_spare) {
        weft_stack_free(&xs->cache, s->sc_spare);
        s->sc_spare = NULL;
    }
    if (s->body_stack) {
        if (WEFT_ASAN)
            weft_asan_unpoison_stack(weft_stack_lo(s->body_stack), s->body_stack->usable);
        weft_stack_free(&xs->cache, s->body_stack);
        s->body_stack = NULL;
    }
    s->restart_top = old_top;
    s->restart_fn = old_fn;
}

void weft_sched_loop_begin(weft_sched *s)
{
    weft_san_landed(NULL);
    weft_land(weft_xs_reload());
    (void)s;
}

void weft_sched_loop_end(weft_sched *s)
{
    weft_xstream *xs = weft_xs_reload();
    weft_san_switch(NULL, s->loop_lo, s->loop_size, s->loop_fiber);
    weft_ctx_jump(s->loop_exit, xs);
}
