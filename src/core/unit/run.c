/* src/core/unit/run.c - the scheduler side: a popped unit run to its next switch-back
 * (weft_sched_run_unit: cancellation, the primary ULT sent home, scheduler creation's
 * call, stack separation, a return on completion finished here), the entry of a
 * scheduler on its own stack, and a ULT that stands in for a scheduler for one run
 * (ABT_self_schedule). */

#include "core/unit/switch.h"

/* A cancelled unit ends without running: CANCEL, then its end.  Inlined where the
 * scheduler runs a popped unit; ABT_thread_cancel calls weft_unit_cancel_now. */
static inline __attribute__((always_inline)) void cancel_now(weft_xstream *xs, weft_unit *u)
{
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_CANCEL);
    unit_finish(xs, u);
}

void weft_unit_cancel_now(weft_xstream *xs, weft_unit *u) { cancel_now(xs, u); }

/* Scheduler creation's call: u runs on the loop's own stack.  If it comes back here
 * promoted (it left the stack once and now owns it), this frame is u's and the code after
 * the call runs as u, maybe on another stream: it leaves as any unit.  Not inlined, so
 * that the frame u may keep is this one. */
static __attribute__((noinline)) void sc_run(weft_xstream *xs, weft_sched *s, weft_unit *u)
{
    s->ctx = NULL; /* nothing saved: going back to s restarts its loop */
    s->sc_unit = u;
    u->stack_kind = WEFT_STACK_SC;
    u->stack_size = s->body_stack->usable; /* it runs on, and may keep, the loop's stack */
    u->fn(u->arg);
    if (WEFT_UNLIKELY(u->stack_kind != WEFT_STACK_SC))
        weft_ult_exit(u->xs, u);
    /* never left: the loop goes on, as after a tasklet */
    s->sc_unit = NULL;
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_FINISH);
    xs->cur = s->unit;
    unit_finish_inline(xs, u);
}

void weft_sched_run_unit(weft_xstream *xs, weft_sched *s, weft_unit *u)
{
    if (WEFT_UNLIKELY(weft_atomic_load_acquire(&u->request) & WEFT_REQ_CANCEL)) {
        if (WEFT_UNLIKELY(u->stack_kind == WEFT_STACK_BORROWED))
            weft_unit_lend_cancel(xs, s, u); /* its joiner, beneath it, gets its frame back */
        else
            cancel_now(xs, u);
        return;
    }
    if (WEFT_UNLIKELY((u->flags & WEFT_U_MAIN) && !xs->primary && weft_main_belongs_home(u))) {
        /* The primary ULT runs on the primary stream unless the program moved it to
         * another stream's pool: popped from a shared pool elsewhere, it is sent home. */
        weft_xstream *home = weft_g.primary;
        weft_atomic_store_release(&home->main_handoff, u);
        weft_xs_wake(home); /* core/sched/idle.h: its scheduler may sleep */
        return;
    }
    if (WEFT_LIKELY(u->flags & WEFT_U_ULT)) {
        /* scheduler creation: a fresh SC unit with no stack of its own yet is called on
         * the loop's stack, if the loop has one and its next one is at hand */
        if (WEFT_UNLIKELY(u->flags & WEFT_U_F_SC) && !u->ctx && u->stack_kind == WEFT_STACK_NONE &&
            s->body_stack && s->restart_top && !s->sc_unit &&
            (s->sc_spare ||
             (s->sc_spare = weft_stack_alloc(&xs->cache, weft_g.cfg.sched_stacksize)))) {
            prep_run(xs, u);
            sc_run(xs, s, u);
            return;
        }
        if (WEFT_UNLIKELY(!u->ctx && !ensure_stack(xs, u))) {
            weft_pool_push(u->pool, u); /* out of memory: retry later */
            sched_yield();              /* and let whoever may free memory run */
            return;
        }
        prep_run(xs, u);
        if ((u->flags & WEFT_U_F_SS) && s->restart_top && !u->ctx) {
            /* stack separation: nothing saved; a deviation restarts the loop */
            s->ctx = NULL;
            if (WEFT_TSAN)
                u->tsan_fiber = weft_tsan_fiber_create();
            san_switch_to(&s->asan_fake_stack, u);
            weft_ctx_call_nosave(unit_stack_top(u), weft_ult_entry_ss, u);
        } else if (start_unit_roc(xs, &s->ctx, &s->asan_fake_stack, u, weft_ult_entry_roc_sched) ==
                   roc_done_tag(xs)) {
            /* u returned without deviating: finish it here (no post action) */
            weft_san_landed(s->asan_fake_stack);
            WEFT_ASSERT(xs == weft_tls_xs && xs->cur == s->unit && !xs->post_fn);
            unit_finish_inline(xs, u);
            return;
        }
        weft_san_landed(s->asan_fake_stack);
        weft_land(xs);
        return;
    }
    /* tasklet: runs to completion on the scheduler's stack */
    prep_run(xs, u);
    u->fn(u->arg);
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_FINISH);
    xs->cur = s->unit;
    unit_finish_inline(xs, u);
}

/* A scheduler that runs on its own stack (the primary stream's).  When its loop ends
 * (ABT_finalize asked it to finish), control goes back to the primary ULT. */
void weft_sched_entry(void *arg)
{
    weft_sched *s = arg;
    weft_san_landed(NULL);
    weft_xstream *xs = weft_xs_reload();
    weft_land(xs);
    for (;;) {
        s->def.run((ABT_sched)s);
        xs = weft_xs_reload();
        if (xs->main_sched == s) {
            if (weft_xstream_should_stop(xs, s))
                break;
            continue;
        }
        /* replaced by ABT_xstream_set_main_sched: run the new one on this stack */
        weft_sched *next = xs->main_sched;
        next->tsan_fiber = s->tsan_fiber;
        s->tsan_fiber = NULL;
        weft_sched_retire(s);
        weft_xstream_retire_pending(xs);
        s = next;
        xs->sched = s;
    }
    s->ctx = NULL;
    weft_unit *m = xs->main_unit;
    weft_tool_event(m, ABT_TOOL_EVENT_THREAD_RESUME); /* parked by ABT_finalize */
    prep_run(xs, m);
    san_switch_to(NULL, m);
    weft_ctx_jump(m->ctx, xs);
}

/* ABT_self_schedule from a ULT: the caller becomes the unit's parent scheduler for one
 * run.  A scheduler record on the caller's stack stands in for it (as a stacked
 * scheduler would): the unit switches back to it when it yields, blocks or finishes,
 * and the caller continues right away. */
void weft_ult_run_as_parent(weft_xstream *xs, weft_unit *self, weft_unit *u)
{
    weft_canary_check(self); /* (helper) core/tool/overflow.h */
    weft_sched parent;
    memset(&parent, 0, sizeof(parent));
    parent.predef = -1;
    parent.unit = self;
    parent.parent = xs->sched;
    parent.xs = xs;
    parent.tsan_fiber = weft_tsan_fiber_current(); /* self's (an SC unit runs on its loop's) */
    xs->sched = &parent;
    weft_sched_run_unit(xs, &parent, u);
    /* back on the caller's stack, on the same stream (the record never migrates); the
     * scheduler to return to is read again: ABT_xstream_set_main_sched may have
     * replaced a main scheduler that had not started */
    xs->sched = parent.parent;
    xs->cur = self;
}
