/* src/core/unit/stack.c - a unit's stack: taken before its first run (ensure_stack's
 * slow case, the shortage policy), and the promotion of a unit that runs on a stack not
 * its own when it first leaves it (scheduler creation; the lend's is in lend.c).  Giving
 * a stack back (release_stack) and the bounds are inline in switch.h. */

#include "core/unit/switch.h"

/* No stack for a ULT about to run for the first time.  Nobody can be told (the unit was
 * created long ago; its scheduler or a bypass is starting it), so the policy is: the
 * unit stays ready and is tried again later (the caller pushes it back or takes another
 * path).  Under lasting memory exhaustion that retry would spin without a word, so after
 * STACK_SHORTAGE_WARN failed attempts in the process one message goes to stderr, once.
 * docs/design/mem.md states the policy. */
#define STACK_SHORTAGE_WARN 100

static _Atomic unsigned long stack_shortages;

static WEFT_COLD void stack_shortage(weft_unit *u)
{
    unsigned long n = weft_atomic_fetch_add_relaxed(&stack_shortages, 1) + 1;
    if (n == STACK_SHORTAGE_WARN)
        fprintf(stderr,
                "weft: out of memory for ULT stacks: %lu attempts to give a ULT its stack "
                "(%zu bytes) at its first run have failed; such ULTs stay ready and are "
                "retried, so the program stalls until memory is freed.\n",
                n, u->stack_size);
}

/* ensure_stack's other cases: no stream (an external thread creates a unit that takes
 * its stack at creation), a size other than the default, an empty cache. */
WEFT_COLD bool weft_unit_ensure_stack_slow(weft_xstream *xs, weft_unit *u)
{
    weft_stack *s = weft_stack_alloc(weft_xs_cache(xs), u->stack_size);
    if (WEFT_UNLIKELY(!s)) {
        stack_shortage(u);
        return false;
    }
    u->stack = s;
    u->stack_kind =
        u->stack_size == weft_mem_cfg.thread_stacksize ? WEFT_STACK_CACHED : WEFT_STACK_OWNED;
    return true;
}

/* Scheduler creation (SC, core/unit/fork.h).  A predefined loop whose body runs on a stack of
 * its own (body_stack, weft_sched_loop_enter) calls a fresh SC unit on that stack like a
 * tasklet (sc_run, run.c).  The first time the unit is about to leave its stack (yield,
 * park, yield_to, *_to, a child-first creation, the join bypass: leave_check), it is
 * promoted: the loop's stack becomes the unit's (stack_kind OWNED), the scheduler gets a
 * new one and its loop will start afresh there (its context was not saved: s->ctx is
 * NULL).  A unit that runs another as its parent scheduler (ABT_self_schedule) stays on
 * the loop stack: that child comes back to it, never to the loop.  Promotion cannot fail:
 * the loop's next stack (sc_spare) is taken before an SC unit starts, and without one the
 * unit runs as SS. */

static WEFT_COLD void sc_promote_of(weft_xstream *xs, weft_sched *s, weft_unit *u)
{
    WEFT_ASSERT(s->sc_unit == u && u->stack_kind == WEFT_STACK_SC && s->body_stack && s->sc_spare);
    weft_stack *nw = s->sc_spare;
    s->sc_spare = NULL;
    u->stack = s->body_stack;
    u->stack_size = s->body_stack->usable;
    u->stack_kind = WEFT_STACK_OWNED;
    if (WEFT_TSAN) { /* it ran as the loop's fiber and keeps it (with its call stack) */
        u->tsan_fiber = s->tsan_fiber;
        s->tsan_fiber = weft_tsan_fiber_create();
    }
    s->body_stack = nw;
    s->restart_top = weft_stack_top(nw);
    s->sc_unit = NULL;
    WEFT_ASSERT(s->ctx == NULL);
}

/* A unit with no stack descriptor that never left the stack it runs on (SC, LENT) is
 * about to leave it: promoted.  (A BORROWED one, which left it before, does not come
 * here: types.h orders the kinds so.) */
WEFT_COLD __attribute__((noinline)) void weft_unit_leave_promote(weft_unit *self)
{
    if (self->stack_kind == WEFT_STACK_SC)
        sc_promote_of(self->xs, self->xs->sched, self);
    else if (self->stack_kind == WEFT_STACK_LENT)
        weft_unit_lend_promote(self);
}
