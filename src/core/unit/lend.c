/* src/core/unit/lend.c - a fresh unit on its joiner's stack (scheduler creation in the
 * joiner, and the default technique's usual join).
 *
 * A ULT that joins or frees a fresh SC or RoC-L unit without a stack, waiting in
 * its loop's bypass pool, calls it on its own stack, as it runs a tasklet (sc_lend_run,
 * "the usual join", join.c), when that stack has room below the caller for the unit's stack
 * size: no stack to take, no context, and the unit returns to its joiner like a function
 * (RoC-L's return on completion, with the joiner's stack as the lazily found one).  The
 * unit is LENT the stack.  The first time it is about to leave it (leave_check), it is promoted:
 * it keeps running on that stack (BORROWED), and its joiner, whose frames lie beneath,
 * waits (BLOCKED, counted in its pool) until the unit's function returns into the
 * joiner's frame, on whatever stream ran the unit last; so does every joiner further down
 * that had lent the same stack in turn.  The joiner then runs again where the unit ended
 * (on another stream, it goes back to its pool first: weft_unit_lend_end).  ABT_thread_exit of
 * such a unit, and its cancellation, go back to that frame (arch/lend.h: weft_lend_jump
 * to the lend record's buffer); the unit's frames are dropped, as a terminated ULT's
 * stack is.  ThreadSanitizer builds do not lend (its shadow call stack does not follow
 * such a jump): their SC units wait for the loop, and their RoC-L units get a stack of their
 * own.  (struct sc_lend is in switch.h.)
 *
 * Here: the lend after its call.  The call itself (sc_lend_run, the room test, the canary)
 * is inline in switch.h, where the usual paths of the join and the free (join.c) take
 * it; this file has the unit's promotion when it first leaves the stack, its exit and
 * cancellation back to its joiner's frame, its end there, the nested lend, and the
 * bounds the SIGSEGV handler asks for. */

#include "core/unit/switch.h"

bool weft_unit_lent_stack(const weft_unit *u, weft_stack **st, uintptr_t *lo, uintptr_t *top)
{
    const weft_unit *v = u;
    while (v->stack_kind == WEFT_STACK_LENT || v->stack_kind == WEFT_STACK_BORROWED)
        v = sc_lend_of(v)->lender;
    if (v->stack_kind == WEFT_STACK_CACHED || v->stack_kind == WEFT_STACK_OWNED) {
        *st = v->stack; /* its guard page too */
        return *st != NULL;
    }
    *st = NULL;
    size_t size;
    const void *l = unit_stack_lo(v, &size); /* the primary ULT's, a user's; else NULL */
    *lo = (uintptr_t)l;
    *top = *lo + size;
    return l != NULL;
}

/* u, LENT or BORROWED, leaves its stack or returns: has it overrun its stack size? */
static inline void lend_canary_check(weft_unit *u)
{
    if (WEFT_UNLIKELY(!weft_canary_word_intact(sc_lend_of(u)->canary)))
        weft_lend_canary_fail(u, weft_unit_lent_lo(u));
}

/* The unit u, LENT its joiner's stack, is about to leave it: u, and every LENT joiner
 * beneath it, keep the stack, and each one's joiner waits. */
WEFT_COLD __attribute__((noinline)) void weft_unit_lend_promote(weft_unit *u)
{
    lend_canary_check(u); /* u leaves the stack: its frames are above its nominal end */
    weft_unit *v = u;
    while (v->stack_kind == WEFT_STACK_LENT)
        v = sc_lend_of(v)->lender;
    /* v owns the stack (or borrowed it before): the canary checks read its descriptor */
    weft_stack *st = v->stack_kind == WEFT_STACK_CACHED || v->stack_kind == WEFT_STACK_OWNED ||
                             v->stack_kind == WEFT_STACK_BORROWED
                         ? v->stack
                         : NULL;
    void *fiber = weft_tsan_fiber_current();
    while (u->stack_kind == WEFT_STACK_LENT) {
        weft_unit *lender = sc_lend_of(u)->lender;
        sc_lend_of(u)->how = 0; /* a return, unless it exits or is cancelled */
        u->stack_kind = WEFT_STACK_BORROWED;
        u->stack = st;
        u->tsan_fiber = fiber;
        weft_tool_event(lender, ABT_TOOL_EVENT_THREAD_SUSPEND);
        weft_unit_count_blocked(lender);
        /* release: whoever sees BLOCKED also sees the count */
        weft_atomic_store_release(&lender->state, WEFT_BLOCKED);
        u = lender;
    }
}

/* ABT_thread_exit, or a cancellation, of a unit on its joiner's stack: back to the
 * joiner's frame (sc_lend_run), the unit's frames dropped. */
WEFT_COLD __attribute__((noreturn)) void weft_unit_lend_leave(weft_unit *u, int how)
{
    struct sc_lend *l = sc_lend_of(u);
    l->how = how;
#if WEFT_ASAN
    __asan_handle_no_return();
#endif
    weft_lend_jump(&l->buf);
}

/* self, lent a stack itself, lends it on at `here`: its own frames must lie within its
 * stack size, and its canary be intact (else it overran that size first); the unit it
 * lends to may cover that canary, which is written again when the unit returns. */
static WEFT_COLD __attribute__((noinline)) uintptr_t *lend_canary_lender(weft_unit *self,
                                                                         uintptr_t here)
{
    uintptr_t lo = weft_unit_lent_lo(self);
    if (here < lo && weft_g.cfg.lend_canary)
        weft_lend_canary_fail(self, lo);
    lend_canary_check(self);
    return sc_lend_of(self)->canary;
}

/* sc_lend_run of a joiner that runs on a stack lent to it in turn (nested joins: a
 * recursion under the primary ULT; not cold). */
__attribute__((noinline)) int weft_unit_lend_run_nested(weft_xstream *xs, weft_unit *self,
                                                        weft_unit *t, weft_pool *p)
{
    uintptr_t *restore = lend_canary_lender(self, (uintptr_t)__builtin_frame_address(0));
    return sc_lend_body(xs, self, t, p, sc_lend_of(self)->floor, restore);
}

/* The unit t, promoted on self's stack, came back into self's frame (sc_lend_run): its
 * function returned, or it exited or was cancelled (`how`).  It ends here, published
 * (another joiner may wait for it), and self, beneath it, runs again; on another stream
 * than the one self last ran on, self goes back to its pool first (a primary ULT is sent
 * home from there, weft_sched_run_unit).  Returns the stream self runs on. */
WEFT_COLD __attribute__((noinline)) weft_xstream *weft_unit_lend_end(weft_unit *self, weft_unit *t,
                                                                     int how)
{
    weft_xstream *xs = t->xs;
    WEFT_ASSERT(xs == weft_tls_xs && xs->cur == t && t->stack_kind == WEFT_STACK_BORROWED);
    weft_tool_event(t, how == SC_LEND_CANCEL ? ABT_TOOL_EVENT_THREAD_CANCEL
                                             : ABT_TOOL_EVENT_THREAD_FINISH);
    /* the stack is self's: nothing for unit_finish's release to give back */
    t->stack = NULL;
    t->stack_kind = WEFT_STACK_NONE;
    t->tsan_fiber = NULL; /* self's, never destroyed here (no TSan build lends) */
    weft_xstream *was = self->xs;
    weft_atomic_fetch_sub_relaxed(&self->pool->num_blocked, 1);
    prep_run_quiet(xs, self);
    if (weft_tool_wants(ABT_TOOL_EVENT_THREAD_RESUME | ABT_TOOL_EVENT_THREAD_RUN)) {
        weft_tool_dispatch(self, ABT_TOOL_EVENT_THREAD_RESUME);
        weft_tool_dispatch(self, ABT_TOOL_EVENT_THREAD_RUN);
    }
    unit_finish(xs, t); /* TERMINATED, and a waiting joiner woken */
    if (xs != was) {
        /* through the scheduler, not weft_ult_yield: its bypass would keep a primary ULT
         * here when nothing else is ready, and only the scheduler sends it home */
        leave_check(self);
        weft_atomic_store_relaxed(&self->state, WEFT_READY);
        weft_set_post(xs, weft_post_push, self);
        xs = switch_to_sched(xs, self);
    }
    return xs;
}

/* A cancelled unit that runs on its joiner's stack (WEFT_STACK_BORROWED): started on that
 * stack among the frames it leaves, sc_lend_unwind goes back to the joiner's frame as
 * ABT_thread_exit would, and the joiner runs on; this scheduler is resumed as after any
 * unit it ran. */
static void sc_lend_unwind(void *arg)
{
    weft_unit *u = arg;
    weft_san_landed(NULL);
    weft_land(u->xs);
    weft_unit_lend_leave(u, SC_LEND_CANCEL);
}
WEFT_COLD __attribute__((noinline)) void weft_unit_lend_cancel(weft_xstream *xs, weft_sched *s,
                                                               weft_unit *u)
{
    prep_run_quiet(xs, u);
    /* in the dropped frames of u's function, just below the call (memory that ran as
     * stack before: valgrind knows it as such) */
    void *top = (void *)(((uintptr_t)weft_lend_sp(&sc_lend_of(u)->buf) - 128) & ~(uintptr_t)15);
    /* ASan: those frames' redzones (u's stack had room for t->stack_size below the call) */
    weft_asan_unpoison_stack((char *)top - 4096, 4096 + 128);
    san_switch_to(&s->asan_fake_stack, u);
    weft_ctx_start(&s->ctx, top, sc_lend_unwind, u);
    weft_san_landed(s->asan_fake_stack);
    weft_land(xs);
}
