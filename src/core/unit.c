/* src/core/unit.c - switching between units and schedulers, and the unit life cycle.
 * The protocol (post actions, runner, dynamic promotion) is described in unit.h. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fork.h"
#include "core/sanitizer.h"
#include "core/sched/loop.h"
#include "core/unit.h"
#include "core/xstream.h"
#include "core/overflow.h"
#include "arch/lend.h"

/* ---------------------------------------------------------------- stacks and bounds */

/* The lend record of a unit running on its joiner's stack (WEFT_STACK_LENT, _BORROWED: "a
 * fresh unit on its joiner's stack", below), in the joiner's frame. */
struct sc_lend {
    weft_lend_buf buf;  /* arch/lend.h: the call of sc_lend_run */
    weft_unit *lender;  /* the joiner, beneath */
    uintptr_t floor;    /* the lowest address of the stack (unit_stack_floor) */
    uintptr_t *canary;  /* the word right below the unit's nominal stack (weft_unit_lent_lo),
                         * WEFT_CANARY_VALUE until the unit overruns its stack size; `spare`
                         * when no canary is kept (cfg.lend_canary) */
    uintptr_t *restore; /* the canary that the unit's own frames may cover legitimately,
                         * written again when it returns: its lender's when the lender is
                         * lent itself, else `canary` */
    uintptr_t spare;
    int how; /* after its promotion: why the unit came back (0: it returned; or
              * through weft_lend_jump: SC_LEND_EXIT, _CANCEL) */
};
enum { SC_LEND_EXIT = 1, SC_LEND_CANCEL };

static inline struct sc_lend *sc_lend_of(const weft_unit *u) { return u->user_stack; }

static inline void *unit_stack_top(weft_unit *u)
{
    if (u->stack_kind == WEFT_STACK_USER)
        return (void *)(((uintptr_t)u->user_stack + u->stack_size) & ~(uintptr_t)15);
    return weft_stack_top(u->stack);
}

/* Bounds of the stack a context runs on (ASan; weft_unit_lent_stack). */
static inline const void *unit_stack_lo(const weft_unit *u, size_t *size)
{
    switch (u->stack_kind) {
    case WEFT_STACK_USER: *size = u->stack_size; return u->user_stack;
    case WEFT_STACK_OS:
        *size = u->xs ? u->xs->os_stack_size : 0;
        return u->xs ? u->xs->os_stack_lo : NULL;
    case WEFT_STACK_NONE:
    case WEFT_STACK_SC: *size = 0; return NULL;
    case WEFT_STACK_LENT:
    case WEFT_STACK_BORROWED: return unit_stack_lo(sc_lend_of(u)->lender, size);
    default: *size = u->stack->usable; return weft_stack_lo(u->stack);
    }
}

static inline const void *sched_stack_lo(weft_xstream *xs, weft_sched *s, size_t *size)
{
    if (s->body_stack) { /* its loop runs on a stack of its own (weft_sched_loop_enter) */
        *size = s->body_stack->usable;
        return weft_stack_lo(s->body_stack);
    }
    if (s->unit)
        return unit_stack_lo(s->unit, size);
    if (s->stack) {
        *size = s->stack->usable;
        return weft_stack_lo(s->stack);
    }
    *size = xs->os_stack_size;
    return xs->os_stack_lo;
}

/* No stack for a ULT about to run for the first time.  Nobody can be told (the unit was
 * created long ago; its scheduler or a bypass is starting it), so the policy is: the
 * unit stays ready and is tried again later (the caller pushes it back or takes another
 * path).  Under lasting memory exhaustion that retry would spin without a word, so after
 * STACK_SHORTAGE_WARN failed attempts in the process one message goes to stderr, once.
 * docs/architecture.md ("Memory") states the policy. */
#define STACK_SHORTAGE_WARN 100
/* core/handle.h: the first generation of a descriptor whose slab is carved (a new slab,
 * or a trimmed one carved again, mem/desc.c).  It starts from a process-wide counter,
 * not 0, so a handle kept from before a trim does not match the descriptor's new first
 * life.  Its address must leave the tag bits free (heap pointer tagging, e.g. AArch64 MTE
 * in malloc, or memory mapped above 2^48 would not): stop with a message rather than hand
 * out handles that do not work. */
static _Atomic uintptr_t handle_seed;

void weft_unit_handle_init(void *desc)
{
    uintptr_t a = (uintptr_t)desc;
    if (WEFT_UNLIKELY((a & WEFT_HANDLE_ADDR_MASK) != a))
        weft_fatal("work-unit descriptor at %p does not fit a handle (address above 2^48 or "
                   "tagged by the allocator); see docs/architecture.md, \"Stale handles\"",
                   desc);
    uintptr_t gen = weft_atomic_fetch_add_relaxed(&handle_seed, 1) * WEFT_HANDLE_GEN_STEP;
    weft_atomic_store_relaxed(&((weft_unit *)desc)->handle, a + gen);
}

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
static WEFT_COLD __attribute__((noinline)) bool ensure_stack_slow(weft_xstream *xs, weft_unit *u)
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

/* Give u a stack before it first runs.  Allocation happens here, before any switch is
 * committed to, so a failure can still be handled (the unit is retried later).  Inline:
 * a default-size stack from the stream's cache, the common case. */
static inline bool ensure_stack(weft_xstream *xs, weft_unit *u)
{
    WEFT_ASSERT(u->ctx == NULL);
    if (u->stack || u->stack_kind == WEFT_STACK_USER)
        return true;
    struct weft_mem_cache *c = weft_xs_cache(xs);
    if (WEFT_LIKELY(c != NULL && u->stack_size == weft_mem_cfg.thread_stacksize &&
                    weft_stack_cache_nonempty(c))) {
        u->stack = weft_stack_alloc(c, u->stack_size);
        u->stack_kind = WEFT_STACK_CACHED;
        return true;
    }
    return ensure_stack_slow(xs, u);
}

/* ensure_stack's fast case only: u has a stack, or gets one of the default size from
 * the stream's cache (no call, no lock).  False: ensure_stack must do the rest.  Not
 * written as a call of ensure_stack: its slow path inlined into the yield bypass cost
 * 20 instructions per fork-join (deviation --callgrind default --n 4096 --d 100). */
static inline bool stack_from_cache(weft_xstream *xs, weft_unit *u)
{
    if (u->stack || u->stack_kind == WEFT_STACK_USER)
        return true;
    struct weft_mem_cache *c = weft_xs_cache(xs);
    if (u->stack_size != weft_mem_cfg.thread_stacksize || !weft_stack_cache_nonempty(c))
        return false;
    u->stack = weft_stack_alloc(c, u->stack_size);
    u->stack_kind = WEFT_STACK_CACHED;
    return true;
}

/* The unit has left its stack for good (a post action, or a unit that never ran): only
 * the stream `xs` running this touches its caches. */
static inline void release_stack(weft_xstream *xs, weft_unit *u)
{
    WEFT_ASSERT(xs != NULL);
    if (WEFT_ASAN && u->stack_kind != WEFT_STACK_NONE && u->stack_kind != WEFT_STACK_OS &&
        u->stack_kind != WEFT_STACK_SC) {
        size_t sz;
        const void *lo = unit_stack_lo(u, &sz);
        weft_asan_unpoison_stack(lo, sz);
    }
    /* a kept stack (WEFT_U_F_KEEP) goes when the unit is freed; the default-size one
     * first, the common case */
    if (WEFT_LIKELY(u->stack_kind == WEFT_STACK_CACHED) && !(u->flags & WEFT_U_F_KEEP)) {
        weft_stack_free_default(&xs->cache, u->stack);
        u->stack = NULL;
        u->stack_kind = WEFT_STACK_NONE;
    } else if (u->stack_kind == WEFT_STACK_OWNED && !(u->flags & WEFT_U_F_KEEP)) {
        weft_stack_free(&xs->cache, u->stack);
        u->stack = NULL;
        u->stack_kind = WEFT_STACK_NONE;
    } else if (u->stack_kind == WEFT_STACK_SC) { /* it finished on its scheduler's stack */
        u->stack_kind = WEFT_STACK_NONE;
    }
    u->ctx = NULL;
    if (WEFT_TSAN) {
        weft_tsan_fiber_destroy(u->tsan_fiber);
        u->tsan_fiber = NULL;
    }
}

/* ---------------------------------------------------------------- switching */

static void ult_entry(void *arg);
static void sched_entry(void *arg);

/* Hand-over word.  Whoever resumes a suspended context passes its own stream as the
 * switch's data, so the resumed side learns where it now runs (it may have moved to
 * another OS thread) without a TLS lookup.  A fresh context gets its unit or scheduler
 * as the entry argument instead. */

/* Common landing for a ULT that was suspended in a switch; `resumed_by` is the data the
 * switch returned: the stream it now runs on. */
static inline weft_xstream *ult_landed(weft_unit *self, void *resumed_by)
{
    weft_san_landed(self->asan_fake_stack);
    weft_xstream *xs = resumed_by;
    /* hand-over: whoever resumed us passed its stream, which is now ours; we run again */
    WEFT_ASSERT(xs != NULL && xs == weft_tls_xs && xs->cur == self);
    weft_land(xs);
    return xs;
}

/* Enter `to` (prepared: xs->cur, state, stack) from a context that saves into *save.
 * Returns the hand-over word of whoever resumes the saved context. */
/* The sanitizers' side of a switch to `to` (nothing in other builds). */
static inline void san_switch_to(void **fake, weft_unit *to)
{
    size_t sz = 0;
    const void *lo = WEFT_ASAN ? unit_stack_lo(to, &sz) : NULL;
    weft_san_switch(fake, lo, sz, to->tsan_fiber);
}

static inline __attribute__((always_inline)) void *enter_unit(weft_xstream *xs, weft_ctx *save,
                                                              void **fake, weft_unit *to)
{
    if (to->ctx == NULL) {
        if (WEFT_TSAN)
            to->tsan_fiber = weft_tsan_fiber_create();
        san_switch_to(fake, to);
        return weft_ctx_start(save, unit_stack_top(to), ult_entry, to);
    }
    san_switch_to(fake, to);
    return weft_ctx_switch(save, to->ctx, xs);
}

/* enter_unit for a `to` that has run before (to->ctx set: no start to test for). */
static inline void *resume_unit(weft_xstream *xs, weft_ctx *save, void **fake, weft_unit *to,
                                weft_ctx *to_ctx)
{
    san_switch_to(fake, to);
    return weft_ctx_switch(save, to_ctx, xs);
}

/* u runs next on xs.  The _quiet variant is for paths that report RUN together with the
 * event of the unit that leaves, behind one test of the tool mask (weft_tool_wants), so
 * that no path tests the mask more often than before it reported both. */
static inline __attribute__((always_inline)) void prep_run_quiet(weft_xstream *xs, weft_unit *u)
{
    u->xs = xs;
    xs->cur = u;
    weft_atomic_store_relaxed(&u->state, WEFT_RUNNING);
}

static inline __attribute__((always_inline)) void prep_run(weft_xstream *xs, weft_unit *u)
{
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_RUN);
    prep_run_quiet(xs, u);
}

/* ---------------------------------------------------------------- scheduler creation
 * (SC, core/fork.h).  A predefined loop whose body runs on a stack of its own
 * (body_stack, weft_sched_loop_enter) calls a fresh SC unit on that stack like a tasklet
 * (sc_run).  The first time the unit is about to leave its stack (yield, park, yield_to,
 * *_to, a child-first creation, the join bypass: leave_check), it is promoted: the
 * loop's stack becomes the unit's (stack_kind OWNED), the scheduler gets a new one and
 * its loop will start afresh there (its context was not saved: s->ctx is NULL).  A unit
 * that runs another as its parent scheduler (ABT_self_schedule) stays on the loop stack:
 * that child comes back to it, never to the loop.  Promotion cannot fail: the loop's next
 * stack (sc_spare) is taken before an SC unit starts, and without one the unit runs as
 * SS. */

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

/* ---------------------------------------------------------------- a fresh unit on its
 * joiner's stack (scheduler creation in the joiner, and the default technique's usual
 * join).  A ULT that joins or frees a fresh SC or RoC-L unit without a stack, waiting in
 * its loop's bypass pool, calls it on its own stack, as it runs a tasklet (sc_lend_run,
 * "the usual join" below), when that stack has room below the caller for the unit's stack
 * size: no stack to take, no context, and the unit returns to its joiner like a function
 * (RoC-L's return on completion, with the joiner's stack as the lazily found one).  The
 * unit is LENT the stack.  The first time it is about to leave it (leave_check), it is promoted:
 * it keeps running on that stack (BORROWED), and its joiner, whose frames lie beneath,
 * waits (BLOCKED, counted in its pool) until the unit's function returns into the
 * joiner's frame, on whatever stream ran the unit last; so does every joiner further down
 * that had lent the same stack in turn.  The joiner then runs again where the unit ended
 * (on another stream, it goes back to its pool first: sc_lend_end).  ABT_thread_exit of
 * such a unit, and its cancellation, go back to that frame (arch/lend.h: weft_lend_jump
 * to the lend record's buffer); the unit's frames are dropped, as a terminated ULT's
 * stack is.  ThreadSanitizer builds do not lend (its shadow call stack does not follow
 * such a jump): their SC units wait for the loop, and their RoC-L units get a stack of their
 * own.  (struct sc_lend is at the top of the file.) */

/* The lowest address of the stack u runs on; SC_FLOOR_NONE when it is unknown (an SC unit
 * on its loop's stack, a unit that has none).  On a 64-bit target SC_FLOOR_NONE is the
 * sign bit: above every user-space address, so that sc_lend_has_room needs no test of its
 * own for it. */
#if UINTPTR_MAX > 0xffffffffu
#define SC_FLOOR_NONE ((uintptr_t)INTPTR_MIN)
#else
#define SC_FLOOR_NONE ((uintptr_t)0)
#endif
static inline uintptr_t unit_stack_floor(const weft_unit *u)
{
    uint8_t k = u->stack_kind;
    if (k == WEFT_STACK_OS || k == WEFT_STACK_USER) /* OS: the primary ULT's (runtime.c) */
        return (uintptr_t)u->user_stack;
    if (k == WEFT_STACK_CACHED || k == WEFT_STACK_OWNED)
        return (uintptr_t)weft_stack_lo(u->stack);
    if (k == WEFT_STACK_LENT || k == WEFT_STACK_BORROWED)
        return sc_lend_of(u)->floor; /* its lender's */
    return SC_FLOOR_NONE;
}

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

/* The canary of a lent unit (struct sc_lend): a plain store and load below the stack
 * pointer, in memory of the lender's stack that nothing else uses. */
__attribute__((no_sanitize("address", "thread"))) static inline void
lend_canary_set(uintptr_t *word)
{
    *word = WEFT_CANARY_VALUE;
}
/* u, LENT or BORROWED, leaves its stack or returns: has it overrun its stack size? */
static inline void lend_canary_check(weft_unit *u)
{
    if (WEFT_UNLIKELY(!weft_canary_word_intact(sc_lend_of(u)->canary)))
        weft_lend_canary_fail(u, weft_unit_lent_lo(u));
}

/* Whether the stack whose floor is `floor` has `need` bytes below `here`, an address on
 * it (need < 2^41: WEFT_STACKSIZE_MAX; the sum does not wrap). */
static inline bool sc_lend_has_room(uintptr_t floor, uintptr_t here, size_t need)
{
#if UINTPTR_MAX > 0xffffffffu
    return here >= floor + need; /* never for SC_FLOOR_NONE */
#else
    return floor != SC_FLOOR_NONE && here - floor >= need;
#endif
}

/* The unit u, LENT its joiner's stack, is about to leave it: u, and every LENT joiner
 * beneath it, keep the stack, and each one's joiner waits. */
static WEFT_COLD __attribute__((noinline)) void sc_lend_promote(weft_unit *u)
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

/* A unit with no stack descriptor that never left the stack it runs on (SC, LENT) is
 * about to leave it: promoted.  (A BORROWED one, which left it before, does not come
 * here: types.h orders the kinds so.) */
static WEFT_COLD __attribute__((noinline)) void sc_leave_promote(weft_unit *self)
{
    if (self->stack_kind == WEFT_STACK_SC)
        sc_promote_of(self->xs, self->xs->sched, self);
    else if (self->stack_kind == WEFT_STACK_LENT)
        sc_lend_promote(self);
}

/* ABT_thread_exit, or a cancellation, of a unit on its joiner's stack: back to the
 * joiner's frame (sc_lend_run), the unit's frames dropped. */
static WEFT_COLD __attribute__((noreturn)) void sc_lend_leave(weft_unit *u, int how)
{
    struct sc_lend *l = sc_lend_of(u);
    l->how = how;
#if WEFT_ASAN
    __asan_handle_no_return();
#endif
    weft_lend_jump(&l->buf);
}

/* Every path on which a running ULT may leave its stack (yield, park, yield_to, *_to,
 * the join bypass, child-first creation, exit) starts with the canary check of its stack
 * (core/overflow.h).  A unit with no stack of its own (the primary ULT, a user stack, an
 * SC unit on the loop's stack or on its joiner's) fails its first test; there, an SC
 * unit is promoted: it costs the hot paths nothing. */
static inline void leave_check(weft_unit *self)
{
    if (WEFT_UNLIKELY(!self->stack)) {
        if (self->stack_kind >= WEFT_STACK_SC) /* SC or LENT (types.h) */
            sc_leave_promote(self);
        return;
    }
    weft_canary_check(self); /* (helper) core/overflow.h: ABT_STACK_OVERFLOW_CHECK */
}

/* TSan: a loop that restarts gets a fiber of its own whose call stack is empty (the old
 * one's holds the abandoned loop frames; no code runs on it any more). */
static inline void sched_fresh_fiber(weft_sched *s)
{
    if (WEFT_TSAN && !s->ctx && s->restart_top) {
        void *old = s->tsan_fiber;
        s->tsan_fiber = weft_tsan_fiber_create();
        weft_tsan_fiber_destroy(old);
    }
}

/* The calling ULT `self` switches to its stream's current scheduler (post already set).
 * Returns when self is resumed, on whatever stream resumes it. */
static weft_xstream *switch_to_sched(weft_xstream *xs, weft_unit *self)
{
    weft_sched *s = xs->sched;
    sched_fresh_fiber(s);
    size_t sz = 0;
    const void *lo = WEFT_ASAN ? sched_stack_lo(xs, s, &sz) : NULL;
    xs->epoch++;
    xs->cur = s->unit;
    weft_san_switch(&self->asan_fake_stack, lo, sz, s->tsan_fiber);
    void *by;
    if (WEFT_LIKELY(s->ctx != NULL))
        by = weft_ctx_switch(&self->ctx, s->ctx, xs);
    else if (s->restart_top) /* it runs an SS unit unsaved: its loop starts afresh */
        by = weft_ctx_start(&self->ctx, s->restart_top, s->restart_fn, s);
    else /* a scheduler on its own stack that has not started yet (primary stream) */
        by = weft_ctx_start(&self->ctx, weft_stack_top(s->stack), sched_entry, s);
    return ult_landed(self, by);
}

/* ASan: a loop that starts afresh on its body stack abandons the frames of its last round
 * there, whose redzones would stay poisoned under the new round's frames (a false report
 * as soon as one of those lands on them).  The caller runs on another stack. */
static inline void sched_restart_unpoison(weft_sched *s)
{
    if (WEFT_ASAN && s->body_stack)
        weft_asan_unpoison_stack(weft_stack_lo(s->body_stack), s->body_stack->usable);
}

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
    weft_ctx_start(&dummy, weft_stack_top(s->stack), sched_entry, s);
    __builtin_unreachable();
}

/* ---------------------------------------------------------------- termination */

/* An unnamed unit's end, out of line (the tool's FREE event). */
static __attribute__((noinline)) void unit_recycle(weft_xstream *xs, weft_unit *u)
{
    weft_unit_recycle(xs, u);
}

/* Termination of a unit that has left its stack (or is a tasklet).  The caller reported
 * FINISH (or CANCEL) already: a unit's life cycle has one of the two, never both.
 * Inlined where a scheduler finishes the units it runs (weft_sched_run_unit, sc_run),
 * called elsewhere. */
static inline __attribute__((always_inline)) void unit_finish_inline(weft_xstream *xs, weft_unit *u)
{
    if (u->flags & WEFT_U_ULT)
        release_stack(xs, u);
    if (!(u->flags & WEFT_U_NAMED)) {
        unit_recycle(xs, u);
        return;
    }
    weft_atomic_store_release(&u->state, WEFT_TERMINATED);
    weft_waiter *w = weft_atomic_exchange_acq_rel(&u->joiner, WEFT_JOIN_DONE);
    /* u may be freed by its joiner from here on */
    if (w)
        weft_waiter_wake(w);
}
static void unit_finish(weft_xstream *xs, weft_unit *u) { unit_finish_inline(xs, u); }

static void post_finish(weft_xstream *xs, void *arg) { unit_finish(xs, arg); }

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

/* May the joiner run its fresh target, associated with pool `p`, itself?  Only when `p`
 * is one of the pools the stream's running scheduler takes work from and that scheduler
 * is a predefined one: a user-defined scheduler decides what runs next and how (it may
 * associate the unit with another pool through ABT_self_schedule), so the join waits for
 * it, as in Argobots.  The caller reads t->pool once, relaxed: the scheduler of another
 * stream may be re-associating t (ABT_self_schedule, ABT_xstream_run_unit). */
static inline bool join_may_bypass(weft_xstream *xs, weft_pool *p)
{
    weft_sched *s = xs->sched;
    WEFT_ASSERT(p != NULL);  /* a unit always has its pool */
    if (p == s->bypass_pool) /* a BASIC loop's only pool, RANDWS's own (else NULL): usual */
        return true;
    for (int i = 0; i < s->num_join_pools; i++) /* 0 for user-defined schedulers */
        if (s->pools[i] == p)
            return true;
    return false;
}

/* The join bypass's take: t waits in one of those pools and never ran, or (ran_ok, the
 * join of join_wait) it ran and waits ready (it yielded) at the head of a built-in FIFO
 * pool with no cancellation or migration pending (weft_pool_fifo_take_joinable).  Take it
 * out of the pool: the joiner, or a chained child, starts or resumes it itself.  For a
 * unit that ran, that is the unit a parked joiner's stream would run next anyway (the
 * head), reached in one switch where parking took the park, its post action and a pop; a
 * unit further back waits its turn (the joiner parks), so FIFO order among yielding
 * units is kept. */
static inline bool bypass_take(weft_xstream *xs, weft_unit *t, bool ran_ok)
{
    weft_pool *tp = weft_atomic_load_relaxed_plain(&t->pool);
    return join_may_bypass(xs, tp) && weft_pool_take_joinable(tp, t, ran_ok);
}

/* A unit whose joiner entered through a bypass (not counted blocked) is done: as after a
 * hand-off without the count.  As a post action: a chained child finished and the next
 * one of its joiner's join_many list runs in its place; inline: a bypass-joined RoC unit
 * returned intact (join_wait). */
/* ... its stack already given back */
static inline void joined_publish_end(weft_unit *u)
{
    weft_atomic_store_release(&u->state, WEFT_TERMINATED);
    weft_atomic_store_release(&u->joiner, WEFT_JOIN_DONE);
}
static inline void finish_joined(weft_xstream *xs, weft_unit *u)
{
    release_stack(xs, u);
    joined_publish_end(u);
}

/* The waiter of a ULT that bypass-joins: read only for ult, counted_blocked and
 * join_chain (hand-off or wake-up); the other fields are set on the paths that use them. */
static inline void bypass_waiter_init(weft_waiter *w, weft_unit *self)
{
    w->ult = self;
    w->counted_blocked = 0;
    w->join_chain = 0;
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
        sc_lend_leave(self, SC_LEND_EXIT);
    weft_sched *s = xs->sched;
    s->sc_unit = NULL;
    if (WEFT_TSAN) { /* it runs as the loop's fiber: that one goes with it */
        self->tsan_fiber = s->tsan_fiber;
        s->tsan_fiber = weft_tsan_fiber_create();
    }
}

void weft_ult_exit(weft_xstream *xs, weft_unit *self)
{
    weft_canary_check(self); /* (helper) core/overflow.h: ABT_STACK_OVERFLOW_CHECK */
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
    weft_set_post(xs, post_finish, self);
    jump_to_sched(xs);
}

static void ult_entry(void *arg)
{
    weft_unit *u = arg;
    weft_san_landed(NULL);
    /* u->xs is the stream running it: whoever starts or resumes a unit sets it there
     * (prep_run), so it is right again after fn, even if the ULT moved meanwhile */
    weft_land(u->xs);
    u->fn(u->arg);
    weft_ult_exit(u->xs, u);
}

/* ---------------------------------------------------------------- return on completion
 *
 * RoC techniques (core/fork.h, WEFT_U_F_ROC).  A scheduler, or a joiner that bypasses
 * one, starts a fresh RoC unit with weft_ctx_call instead of weft_ctx_start: its own
 * context is saved as usual, but when the unit's function returns and nothing else ran
 * on the stream meanwhile (the stream's epoch is the one read at the start, and the unit
 * is still on that stream), the unit returns to its starter like a function: no saved
 * register is restored.  Otherwise it leaves as any unit does (weft_ult_exit): hand-off
 * to its joiner, or jump to the scheduler, whose context is the one saved then. */

/* The return itself.  Sanitizer builds resume the starter's saved context instead (the
 * same landing): their fiber switch, announced before it, must not be followed by the
 * epilogues of instrumented frames on the stack being left. */
static inline void *roc_leave(weft_xstream *xs, weft_ctx starter)
{
    if (WEFT_ASAN || WEFT_TSAN)
        weft_ctx_jump(starter, xs);
    return xs;
}

/* The checks of a RoC completion: the unit did not deviate since it started. */
static inline bool roc_intact(weft_xstream *xs0, uint64_t epoch, weft_unit *u)
{
    weft_xstream *xs = u->xs;
    return xs == xs0 && xs->epoch == epoch;
}

/* What a RoC entry returns to its starter (a scheduler that saved itself, or a bypassing
 * joiner) when the unit ran to completion without deviating: the stream's pointer with
 * its low bit set (no stream is at an odd address).  The starter then finishes the unit
 * itself (weft_sched_run_unit, join_wait), with no post action. */
static inline void *roc_done_tag(weft_xstream *xs) { return (void *)((uintptr_t)xs | 1); }

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
    weft_canary_check(u); /* (helper) core/overflow.h */
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_FINISH);
    if (unsaved)
        weft_set_post(xs, post_finish, u);
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
static void *ult_entry_roc_sched(void *arg) { return roc_sched_entry(arg, false); }

/* Started unsaved by a predefined loop (stack separation): return to it. */
static void *ult_entry_ss(void *arg) { return roc_sched_entry(arg, true); }

/* Started by its joiner (the join bypass): return to the joiner, as a hand-off would;
 * intact, it leaves its finish to the joiner (roc_done_tag). */
static void *ult_entry_roc_join(void *arg)
{
    weft_unit *u = arg;
    weft_xstream *xs;
    bool intact = roc_run(u, &xs);
    /* the joiner registered before starting us; a join_many chain takes the exit's road */
    weft_waiter *w = weft_atomic_load_relaxed(&u->joiner);
    if (WEFT_UNLIKELY(!intact || w->join_chain))
        weft_ult_exit(u->xs, u);
    weft_canary_check(u); /* (helper) core/overflow.h */
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

/* Started by the usual join of a fresh unit (fresh_roc_run): ult_entry_roc_join, whose
 * end the joiner does when the unit returns intact (it becomes the stream's current unit
 * again and tells the tool), so the entry reads nothing of the joiner's waiter.  Sanitizer
 * builds leave by a jump to the joiner's context, and make it current first. */
static WEFT_HOT_ALIGN void *ult_entry_roc_fresh(void *arg)
{
    weft_unit *u = arg;
    weft_xstream *xs;
    if (WEFT_UNLIKELY(!roc_run(u, &xs)))
        weft_ult_exit(u->xs, u);
    weft_canary_check(u); /* (helper) core/overflow.h */
    if (WEFT_ASAN || WEFT_TSAN) {
        weft_unit *j = weft_atomic_load_relaxed(&u->joiner)->ult;
        xs->cur = j;
        san_switch_to(NULL, j);
        weft_ctx_jump(j->ctx, roc_done_tag(xs));
    }
    return roc_done_tag(xs);
}

/* Start fresh unit `to` from a context that saves into *save and that `to` may return to
 * (a scheduler, or `to`'s bypassing joiner: `entry` says which). */
static inline void *start_unit_roc(weft_xstream *xs, weft_ctx *save, void **fake, weft_unit *to,
                                   void *(*entry)(void *))
{
    if (!(to->flags & WEFT_U_F_ROC) || to->ctx != NULL)
        return enter_unit(xs, save, fake, to);
    if (WEFT_TSAN)
        to->tsan_fiber = weft_tsan_fiber_create();
    san_switch_to(fake, to);
    return weft_ctx_call(save, unit_stack_top(to), entry, to);
}

/* A scheduler that runs on its own stack (the primary stream's).  When its loop ends
 * (ABT_finalize asked it to finish), control goes back to the primary ULT. */
static void sched_entry(void *arg)
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

/* ---------------------------------------------------------------- restartable loops
 * (sched/loop.h).  The loop body runs on a stack of its own (body_stack, the scheduler's
 * stack size), started with weft_ctx_start: restarting it is starting it there again
 * (on another stack once an SC unit took that one), and its end jumps back to the saved
 * enter.  Without memory for that stack it runs just below the frame of the enter, on
 * the stack that entered it (SC units then run as SS). */

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

/* ---------------------------------------------------------------- scheduler side */

static bool weft_main_belongs_home(weft_unit *m)
{
    weft_sched *s = weft_atomic_load_acquire(&weft_g.primary->main_sched);
    for (int i = 0; i < s->num_pools; i++)
        if (s->pools[i] == m->pool)
            return true;
    return false;
}

void weft_unit_cancel_now(weft_xstream *xs, weft_unit *u)
{
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_CANCEL);
    unit_finish(xs, u);
}

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

/* A cancelled unit that runs on its joiner's stack (WEFT_STACK_BORROWED): started on that
 * stack among the frames it leaves, sc_lend_unwind goes back to the joiner's frame as
 * ABT_thread_exit would, and the joiner runs on; this scheduler is resumed as after any
 * unit it ran. */
static void sc_lend_unwind(void *arg)
{
    weft_unit *u = arg;
    weft_san_landed(NULL);
    weft_land(u->xs);
    sc_lend_leave(u, SC_LEND_CANCEL);
}
static WEFT_COLD __attribute__((noinline)) void sc_lend_cancel(weft_xstream *xs, weft_sched *s,
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

void weft_sched_run_unit(weft_xstream *xs, weft_sched *s, weft_unit *u)
{
    if (WEFT_UNLIKELY(weft_atomic_load_acquire(&u->request) & WEFT_REQ_CANCEL)) {
        if (WEFT_UNLIKELY(u->stack_kind == WEFT_STACK_BORROWED))
            sc_lend_cancel(xs, s, u); /* its joiner, beneath it, gets its frame back */
        else
            weft_unit_cancel_now(xs, u);
        return;
    }
    if (WEFT_UNLIKELY((u->flags & WEFT_U_MAIN) && !xs->primary && weft_main_belongs_home(u))) {
        /* The primary ULT runs on the primary stream unless the program moved it to
         * another stream's pool: popped from a shared pool elsewhere, it is sent home. */
        weft_xstream *home = weft_g.primary;
        weft_atomic_store_release(&home->main_handoff, u);
        weft_xs_wake(home); /* core/idle.h: its scheduler may sleep */
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
            weft_ctx_call_nosave(unit_stack_top(u), ult_entry_ss, u);
        } else if (start_unit_roc(xs, &s->ctx, &s->asan_fake_stack, u, ult_entry_roc_sched) ==
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

/* ---------------------------------------------------------------- creation */

int weft_unit_apply_attr(weft_unit *u, const struct weft_thread_attr *attr)
{
    u->stack_size = attr->stacksize;
    if (attr->stackaddr) {
        u->stack_kind = WEFT_STACK_USER;
        u->user_stack = attr->stackaddr;
        /* its guard page, in the mprotect modes (core/overflow.h) */
        if (WEFT_UNLIKELY(weft_g.cfg.guard_in_stack)) {
            int r = weft_overflow_user_guard_set(u);
            if (r != ABT_SUCCESS)
                return r;
        }
    }
    if (!attr->migratable)
        u->flags &= (uint16_t)~WEFT_U_MIGRATABLE;
    if (attr->cb) { /* a fresh descriptor's are NULL */
        u->migr_cb = attr->cb;
        u->migr_cb_arg = attr->cb_arg;
        weft_atomic_store_relaxed(&u->cold, 1);
    }
    if (attr->fork_flags && (u->flags & WEFT_U_ULT)) /* (weft_fork_flags(attr->fork)) */
        u->flags = (uint16_t)((u->flags & ~WEFT_U_FORK_BITS) | attr->fork_flags);
    return ABT_SUCCESS;
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

int weft_unit_push_told(weft_pool *p, weft_unit *u)
{
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_CREATE);
    weft_pool_fifo_push(p, u);
    return ABT_SUCCESS;
}

/* weft_unit_spawn into a pool without the inline FIFO (unit.h). */
int weft_unit_spawn_other(weft_pool *p, weft_unit *u, ABT_thread *handle)
{
    int r = weft_pool_bind(p, u);
    if (WEFT_UNLIKELY(r != ABT_SUCCESS)) {
        uint16_t flags = u->flags;
        /* nothing was published: no event, the descriptor goes back as it came */
        weft_unit_recycle_quiet(weft_xs_self(), u);
        weft_unit_spawn_failed(handle, flags);
        return r;
    }
    if (handle)
        *handle = weft_unit_handle(u);
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_CREATE);
    p->ops->push(p, u, ABT_POOL_CONTEXT_OP_THREAD_CREATE);
    return ABT_SUCCESS;
}

int weft_unit_create_to(weft_xstream *xs, weft_unit *self, weft_pool *p, void (*fn)(void *),
                        void *arg, const struct weft_thread_attr *a, ABT_thread *handle)
{
    /* a plain ULT: it starts by a direct switch, which no creation technique takes part in */
    uint16_t flags = (uint16_t)(WEFT_U_ULT | WEFT_U_DEFAULT_FLAGS | (handle ? WEFT_U_NAMED : 0));
    weft_unit *u = weft_unit_new(xs, p, fn, arg, flags);
    if (WEFT_UNLIKELY(!u)) {
        weft_unit_spawn_failed(handle, flags);
        return ABT_ERR_MEM;
    }
    int r = a ? weft_unit_apply_attr(u, a) : ABT_SUCCESS;
    if (r == ABT_SUCCESS)
        r = weft_pool_bind(p, u); /* a user pool's create_unit: may fail, nothing published */
    if (WEFT_UNLIKELY(r != ABT_SUCCESS)) {
        weft_unit_recycle_quiet(xs, u);
        weft_unit_spawn_failed(handle, flags);
        return r;
    }
    if (handle)
        *handle = weft_unit_handle(u);
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_CREATE);
    /* on a stack shortage it waits in its pool instead, pushed as a creation */
    (void)weft_ult_switch_to(xs, self, u, WEFT_TO_CREATE, false);
    return ABT_SUCCESS;
}

/* ---------------------------------------------------------------- child-first
 *
 * A child-first unit (core/fork.h, WEFT_U_F_CF) created by a ULT runs at once: its
 * creator saves its context (weft_ctx_call), and the child, once on its own stack,
 * queues the creator in the creator's pool (the post action), where this stream's
 * scheduler - if the child deviates - or another stream may take it.  When the child's
 * function returns without a deviation and the creator is still queued, the child takes
 * it back and resumes it: by returning to it (C-RoC, C-RoC-E) or by restoring its saved
 * context (C-Full, C-Full-E).  "Still queued" is checked under the pool's lock: the
 * creator is in the pool and its cf_child is this child.  A creator that a thief took
 * clears cf_child as soon as it runs again, before it can be queued once more, so a
 * later queueing cannot be mistaken for this one.  Otherwise the child leaves as every
 * unit does (weft_ult_exit): to its joiner or to the scheduler. */

/* The child-first creation applies: the creator is a ULT that may be queued in a
 * built-in pool (it runs no stacked scheduler), and `p` is a pool of the running
 * predefined scheduler, so the child may run here (as the join bypass requires). */
static inline bool cf_applies(weft_xstream *xs, weft_pool *p)
{
    weft_unit *self = xs ? xs->cur : NULL;
    if (!self || (self->flags & (WEFT_U_ULT | WEFT_U_SCHED | WEFT_U_MAIN_SCHED)) != WEFT_U_ULT ||
        self->sched != NULL)
        return false;
    weft_pool *sp = self->pool;
    return (sp->caps & WEFT_POOL_CAP_INLINE_FIFO) && (p->caps & WEFT_POOL_CAP_INLINE_FIFO) &&
           join_may_bypass(xs, p);
}

static void post_push(weft_xstream *xs, void *arg);

/* The post action of a child-first creation by the primary ULT on the primary stream:
 * the creator waits in that stream's hand-off slot rather than in its pool.  Another
 * stream could take it from the pool only to send it home (weft_sched_run_unit), and
 * then the child's end would go through the primary stream's scheduler: a round trip
 * between the streams per child (deviation --fork c-roc-e --streams 2).  The primary
 * stream's scheduler looks at the slot first in every round (weft_sched_take_main), so
 * a child that deviates leaves the creator to it as a queued creator would be. */
static void post_home(weft_xstream *xs, void *arg)
{
    WEFT_ASSERT(xs->primary && weft_atomic_load_relaxed(&xs->main_handoff) == NULL);
    weft_atomic_store_release(&xs->main_handoff, (weft_unit *)arg);
}

static bool weft_main_belongs_home(weft_unit *m);

/* The child takes its creator `par` back if it is still queued for it. */
static inline bool cf_take_parent(weft_unit *par, weft_unit *c)
{
    if (WEFT_UNLIKELY(par->flags & WEFT_U_MAIN)) {
        /* the primary ULT waits at home (post_home): only the primary stream's scheduler
         * takes it from there, and it is not running while c runs on that stream */
        weft_xstream *xs = c->xs;
        if (xs->primary && weft_atomic_load_acquire(&xs->main_handoff) == par &&
            par->cf_child == c) {
            weft_atomic_store_relaxed(&xs->main_handoff, NULL);
            return true;
        }
    }
    weft_pool *pp = weft_atomic_load_relaxed_plain(&par->pool);
    if (!(pp->caps & WEFT_POOL_CAP_INLINE_FIFO))
        return false;
    weft_pool_lock(pp);
    /* cf_child is read only while par is queued: then nobody writes it */
    if (par->in_pool && par->pool == pp && par->cf_child == c) {
        fifo_unlink(pp, par);
        weft_pool_unlock(pp);
        return true;
    }
    weft_pool_unlock(pp);
    return false;
}

static void *cf_entry(void *arg)
{
    weft_unit *par = arg;
    weft_unit *c = par->cf_child; /* read before the post action queues par */
    weft_san_landed(NULL);
    weft_xstream *xs = c->xs;
    uint64_t epoch = xs->epoch;
    weft_land(xs); /* par into its pool */
    c->fn(c->arg);
    if (WEFT_UNLIKELY(!roc_intact(xs, epoch, c) || !cf_take_parent(par, c)))
        weft_ult_exit(c->xs, c);
    weft_canary_check(c); /* (helper) core/overflow.h */
    weft_tool_switch(c, par, ABT_TOOL_EVENT_THREAD_FINISH | ABT_TOOL_EVENT_THREAD_RUN);
    prep_run_quiet(xs, par);
    weft_set_post(xs, post_finish, c); /* its joiner, if one came meanwhile, is woken */
    san_switch_to(NULL, par);
    if (c->flags & WEFT_U_F_ROC)
        return roc_leave(xs, par->ctx);
    weft_ctx_jump(par->ctx, xs);
}

/* Run child `c` (pool p, stack ready) first; the caller `self` continues when c returns
 * it or a thief runs it. */
static int cf_spawn(weft_xstream *xs, weft_unit *c, ABT_thread *handle)
{
    weft_unit *self = xs->cur;
    if (handle)
        *handle = weft_unit_handle(c);
    weft_tool_event(c, ABT_TOOL_EVENT_THREAD_CREATE);
    weft_tool_switch(self, c, ABT_TOOL_EVENT_THREAD_YIELD | ABT_TOOL_EVENT_THREAD_RUN);
    leave_check(self); /* the canary; SC promotion */
    self->cf_child = c;
    weft_atomic_store_relaxed(&self->state, WEFT_READY);
    if (WEFT_UNLIKELY(self->flags & WEFT_U_MAIN) && xs->primary &&
        !weft_atomic_load_relaxed(&self->migr_to) && weft_main_belongs_home(self))
        weft_set_post(xs, post_home, self);
    else
        weft_set_post(xs, post_push, self);
    prep_run_quiet(xs, c);
    if (WEFT_TSAN)
        c->tsan_fiber = weft_tsan_fiber_create();
    san_switch_to(&self->asan_fake_stack, c);
    void *by = weft_ctx_call(&self->ctx, unit_stack_top(c), cf_entry, self);
    /* back: c returned us, or a scheduler (maybe another stream's) ran us */
    ult_landed(self, by);
    self->cf_child = NULL;
    return ABT_SUCCESS;
}

int weft_unit_spawn_fork(weft_pool *p, weft_unit *u, ABT_thread *handle)
{
    weft_xstream *xs = weft_xs_self();
    bool cf = (u->flags & WEFT_U_F_CF) && cf_applies(xs, p);
    if ((cf || (u->flags & WEFT_U_F_KEEP)) && !ensure_stack(xs, u)) {
        if (!(u->flags & WEFT_U_F_KEEP)) {
            cf = false; /* a lazy child: it runs later, parent-first, when a stack is had */
        } else {
            uint16_t flags = u->flags;
            weft_unit_recycle_quiet(xs, u); /* nothing was published */
            weft_unit_spawn_failed(handle, flags);
            return ABT_ERR_MEM;
        }
    }
    if (cf)
        return cf_spawn(xs, u, handle);
    /* parent-first: queued as weft_unit_spawn queues any unit */
    if (WEFT_UNLIKELY(!(p->caps & WEFT_POOL_CAP_INLINE_FIFO)))
        return weft_unit_spawn_other(p, u, handle);
    return weft_unit_publish_fifo(p, u, handle);
}

int weft_unit_create_fork(weft_xstream *xs, weft_pool *p, void (*fn)(void *), void *arg,
                          uint16_t flags, ABT_thread *handle)
{
    WEFT_ASSERT(flags & (WEFT_U_F_CF | WEFT_U_F_KEEP));
    weft_unit *u = weft_desc_cache_take(&xs->cache);
    weft_unit_init(u, p, fn, arg, handle ? (uint16_t)(flags | WEFT_U_NAMED) : flags);
    return weft_unit_spawn_fork(p, u, handle);
}

/* ---------------------------------------------------------------- yield, park, wake */

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

/* post_push for a yield that bypassed the scheduler: the pool is an inline FIFO and a
 * pending migration was ruled out before the switch (one requested meanwhile applies at
 * the next push). */
static void post_push_fifo(weft_xstream *xs, void *arg)
{
    weft_unit *u = arg;
    weft_pool_fifo_push(u->pool, u);
}

/* The yield's and yield_to's post action where the switch cannot release the lock
 * (YIELD_RELEASE_IN_SWITCH): the yielding ULT still holds its pool's lock
 * (weft_pool_fifo_take_hold); queue it and release the lock. */
static void post_push_release(weft_xstream *xs, void *arg)
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

static void post_push(weft_xstream *xs, void *arg)
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

/* The next unit needs the scheduler: a tasklet, the primary ULT, a cancelled unit, or an
 * SS or SC unit that never ran (a stateless loop starts those, core/fork.h).  The
 * caller owns `next` or holds its pool's lock. */
static inline bool bypass_declines(weft_unit *next)
{
    uint16_t fl = next->flags;
    if (WEFT_UNLIKELY((fl & (WEFT_U_ULT | WEFT_U_MAIN | WEFT_U_F_SS | WEFT_U_F_SC)) !=
                      WEFT_U_ULT)) {
        if ((fl & (WEFT_U_ULT | WEFT_U_MAIN)) != WEFT_U_ULT || !next->ctx)
            return true;
    }
    return weft_atomic_test32_relaxed(&next->request, WEFT_REQ_CANCEL);
}

/* bypass_declines of a unit that has run (next->ctx set, so a ULT: a tasklet never gets
 * a context): only the primary ULT or a cancelled unit needs the scheduler. */
static inline bool bypass_declines_ran(weft_unit *next)
{
    WEFT_ASSERT(next->ctx && (next->flags & WEFT_U_ULT));
    return (next->flags & WEFT_U_MAIN) ||
           weft_atomic_test32_relaxed(&next->request, WEFT_REQ_CANCEL);
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
static __attribute__((noinline)) void ult_yield_sched(weft_xstream *xs, weft_unit *self)
{
    weft_tool_event(self, ABT_TOOL_EVENT_THREAD_YIELD);
    xs->yield_budget = (int32_t)xs->sched->event_freq;
    weft_atomic_store_relaxed(&self->state, WEFT_READY);
    weft_set_post(xs, post_push, self);
    switch_to_sched(xs, self);
}

/* ult_yield_fresh's end when the stream's cache has no stack for `next`: the lock is
 * released first (mapping, the depot's lock), which costs a second lock round. */
static __attribute__((noinline)) void ult_yield_fresh_slow(weft_xstream *xs, weft_unit *self,
                                                           weft_pool *p, weft_unit *next)
{
    weft_pool_unlock(p);
    if (!ensure_stack(xs, next)) {
        weft_pool_push_head(p, next);
        ult_yield_sched(xs, self);
        return;
    }
    weft_atomic_store_relaxed(&self->state, WEFT_READY);
    weft_set_post(xs, post_push_fifo, self);
    prep_run_quiet(xs, next);
    ult_landed(self, enter_unit(xs, &self->ctx, &self->asan_fake_stack, next));
}

/* A yield in one lock round ends without a post action where the context switch can
 * release the pool's lock itself (weft_ctx_switch_release: the assembly backends), the
 * build is not ThreadSanitizer's (which would not see that release) and no scheduler
 * sleeps on the pool (p->notify: the push must wake it, post_push_release does). */
#if WEFT_CTX_HAS_SWITCH_RELEASE && !WEFT_TSAN
#define YIELD_RELEASE_IN_SWITCH 1
#else
#define YIELD_RELEASE_IN_SWITCH 0
#endif

/* The switch of a yield in one lock round from `self` to `next` (prepared, out of p):
 * `self` is already linked at the tail of its pool `p`, whose lock is held if it has
 * one; the switch releases it once `self` is saved and off its stack, so no other stream
 * can resume `self` before (docs/architecture.md, "The switching protocol"). */
static inline __attribute__((always_inline)) void *
yield_switch_release(weft_xstream *xs, weft_unit *self, weft_pool *p, weft_unit *next, weft_ctx to)
{
    san_switch_to(&self->asan_fake_stack, next);
#if YIELD_RELEASE_IN_SWITCH
    if (p->locked)
        return weft_ctx_switch_release(&self->ctx, to, xs, weft_spin_word(&p->lock));
#endif
    return weft_ctx_switch(&self->ctx, to, xs);
}

/* yield_switch_release for a `next` that never ran: it starts on its stack. */
static inline __attribute__((always_inline)) void *
yield_start_release(weft_xstream *xs, weft_unit *self, weft_pool *p, weft_unit *next)
{
#if YIELD_RELEASE_IN_SWITCH
    if (p->locked) {
        san_switch_to(&self->asan_fake_stack, next);
        return weft_ctx_start_release(&self->ctx, unit_stack_top(next), ult_entry, next,
                                      weft_spin_word(&p->lock));
    }
#endif
    return enter_unit(xs, &self->ctx, &self->asan_fake_stack, next);
}

/* The bypass's next unit `next`, p's head, seen with p's lock held, has never run: a
 * stack from the stream's cache is a pop, taken under the lock, and `next` starts as
 * yield_switch_release resumes (weft_ctx_start_release).  Inline: out of line, as a call
 * of its own, it made the deviation benchmark 4-20 % slower at D = 50-100 % (N = 4096,
 * alternating runs), with fewer instructions: a start from a yield is the deviation's
 * common step, and the yielded ULT later returns through every frame it left. */
static inline __attribute__((always_inline)) void ult_yield_fresh(weft_xstream *xs, weft_unit *self,
                                                                  weft_pool *p, weft_unit *next)
{
    if (WEFT_UNLIKELY(!stack_from_cache(xs, next))) {
        weft_pool_fifo_take_head(p, next);
        ult_yield_fresh_slow(xs, self, p, next);
        return;
    }
    weft_atomic_store_relaxed(&self->state, WEFT_READY);
    prep_run_quiet(xs, next);
    if (YIELD_RELEASE_IN_SWITCH && WEFT_LIKELY(!p->notify)) {
        weft_pool_fifo_rotate(p, next, self);
        ult_landed(self, yield_start_release(xs, self, p, next));
        return;
    }
    weft_pool_fifo_take_head(p, next);
    weft_set_post(xs, post_push_release, self);
    ult_landed(self, enter_unit(xs, &self->ctx, &self->asan_fake_stack, next));
}

/* Scheduler bypass on yield, after leave_check.  When the running scheduler is a
 * predefined BASIC one with a single built-in FIFO pool, going through it would only push
 * `self` to that pool, pop the head and switch to it.  The yielding ULT does exactly that
 * itself: one context switch instead of two, and a lone ULT's yield costs no switch at
 * all.  Order is the same FIFO order.  Every event_freq yields the scheduler runs anyway,
 * so its stop checks, timers and hand-offs keep their pace; a registered tool takes the
 * scheduler's path, where every event is reported.  One lock round: the pool's lock is
 * taken to look at the head; when it has run before, the head leaves and `self` joins
 * the tail in one step (weft_pool_fifo_rotate) and the switch releases the lock
 * (yield_switch_release; a head that never ran starts the same way, ult_yield_fresh).
 * Where that cannot be (YIELD_RELEASE_IN_SWITCH, p->notify), the lock stays held across
 * the switch and the post action on the other side queues `self` and releases it
 * (post_push_release).  Every way out that needs more is a call out of line, and nothing
 * is kept across the switch but what it returns, so the usual yield saves one register. */
static inline __attribute__((always_inline)) int ult_yield_checked(weft_xstream *xs,
                                                                   weft_unit *self)
{
    weft_pool *p = xs->sched->bypass_pool;
    /* (no bypass pool: NULL, which self's pool never is) */
    WEFT_ASSERT(self->pool != NULL);
    if (self->pool != p || weft_dec_le_zero(&xs->yield_budget) ||
        weft_atomic_nonnull_relaxed(&self->migr_to) ||
        (WEFT_TOOL && weft_atomic_test64_relaxed(&weft_tool_g.mask, ~(uint64_t)0))) {
        ult_yield_sched(xs, self);
        return ABT_SUCCESS;
    }
    WEFT_ASSERT(xs->cur == self && weft_pool_can(p, WEFT_POOL_CAP_INLINE_FIFO));
    WEFT_ASSERT(xs->post_fn == NULL);
    weft_unit *next = weft_pool_fifo_head_hold(p);
    if (!next) {
        /* nobody else to run: keep going, unless the primary ULT waits at home for its
         * child-first child (post_home), which the scheduler runs */
        if (WEFT_UNLIKELY(weft_atomic_nonnull_relaxed(&xs->main_handoff)))
            ult_yield_sched(xs, self);
        return ABT_SUCCESS;
    }
    weft_ctx to = next->ctx;
    if (WEFT_UNLIKELY(!to ? bypass_declines(next) : bypass_declines_ran(next))) {
        weft_pool_unlock(p);
        ult_yield_sched(xs, self);
        return ABT_SUCCESS;
    }
    if (WEFT_UNLIKELY(!to)) {
        ult_yield_fresh(xs, self, p, next);
        return ABT_SUCCESS;
    }
    weft_atomic_store_relaxed(&self->state, WEFT_READY);
    prep_run_quiet(xs, next); /* prep_run without its tool hook (no tool here) */
    if (YIELD_RELEASE_IN_SWITCH && WEFT_LIKELY(!p->notify)) {
        weft_pool_fifo_rotate(p, next, self);
        ult_landed(self, yield_switch_release(xs, self, p, next, to));
        return ABT_SUCCESS;
    }
    weft_pool_fifo_take_head(p, next);
    weft_set_post(xs, post_push_release, self);
    ult_landed(self, resume_unit(xs, &self->ctx, &self->asan_fake_stack, next, to));
    return ABT_SUCCESS;
}

/* weft_ult_yield, and ABT_thread_yield of an SC unit that has not left its stack yet. */
static __attribute__((noinline)) void ult_yield(weft_xstream *xs, weft_unit *self)
{
    leave_check(self); /* the canary; SC promotion */
    ult_yield_checked(xs, self);
}

void weft_ult_yield(weft_xstream *xs, weft_unit *self) { ult_yield(xs, self); }

void weft_ult_yield_sched(weft_xstream *xs, weft_unit *self)
{
    leave_check(self); /* the canary; SC promotion */
    ult_yield_sched(xs, self);
}

/* Here rather than in thread.c so the yield path is one function. */
WEFT_API int ABT_thread_yield(void)
{
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    /* An external thread or a tasklet cannot yield: Argobots makes it a no-op. */
    if (WEFT_UNLIKELY(!self || !weft_unit_is_ult(self)))
        return ABT_SUCCESS;
    /* leave_check, its rare call out of line */
    if (WEFT_LIKELY(self->stack)) {
        weft_canary_check(self);                    /* core/overflow.h */
    } else if (self->stack_kind >= WEFT_STACK_SC) { /* SC or LENT (types.h) */
        ult_yield(xs, self);
        return ABT_SUCCESS;
    }
    return ult_yield_checked(xs, self);
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
         * and putting us back, the lock held across the switch (post_push_release) */
        if (!weft_pool_fifo_take_hold(p, to))
            return ABT_ERR_THREAD;
        weft_atomic_store_relaxed(&self->state, WEFT_READY);
        prep_run_quiet(xs, to);
        /* to->ctx read again: it is only stable now that we own `to` (a unit that has
         * run keeps a context until it terminates) */
        if (YIELD_RELEASE_IN_SWITCH && WEFT_LIKELY(!p->notify)) {
            fifo_link_tail(p, self); /* the lock released by the switch, as a yield's */
            ult_landed(self, yield_switch_release(xs, self, p, to, to->ctx));
            return ABT_SUCCESS;
        }
        weft_set_post(xs, post_push_release, self);
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

static void make_ready_after_suspend(weft_unit *u)
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
        weft_set_post(xs, post_finish, self);
        if (to->ctx) {
            san_switch_to(NULL, to);
            weft_ctx_jump(to->ctx, xs);
        }
        if (WEFT_TSAN)
            to->tsan_fiber = weft_tsan_fiber_create();
        san_switch_to(NULL, to);
        weft_ctx dummy;
        weft_ctx_start(&dummy, unit_stack_top(to), ult_entry, to);
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

/* ABT_self_schedule from a ULT: the caller becomes the unit's parent scheduler for one
 * run.  A scheduler record on the caller's stack stands in for it (as a stacked
 * scheduler would): the unit switches back to it when it yields, blocks or finishes,
 * and the caller continues right away. */
void weft_ult_run_as_parent(weft_xstream *xs, weft_unit *self, weft_unit *u)
{
    weft_canary_check(self); /* (helper) core/overflow.h */
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
    switch_to_sched(xs, self);
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

/* ---------------------------------------------------------------- join */

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
    void *r = start_unit_roc(xs, &self->ctx, &self->asan_fake_stack, t, ult_entry_roc_join);
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
 * unpublished (neither TERMINATED nor JOIN_DONE: the caller retires it at once, and
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

/* ---- the usual join of a fresh unit (ABT_*_join, and the join of ABT_*_free) ----
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

/* A RoC-L ULT (its flags tested: weft_unit_fresh_roc_flags) of the default stack size
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
    void *r = weft_ctx_call(&self->ctx, weft_stack_top(st), ult_entry_roc_fresh, t);
    if (WEFT_LIKELY(r == roc_done_tag(xs))) {
        weft_san_landed(self->asan_fake_stack);
        /* ult_entry_roc_join's end, which ult_entry_roc_fresh leaves to us: we waited here,
         * in no pool, unmovable */
        WEFT_ASSERT(xs == weft_tls_xs && self->xs == xs && !xs->post_fn);
        xs->cur = self;
        weft_atomic_store_relaxed(&self->state, WEFT_RUNNING);
        weft_tool_switch(t, self,
                         ABT_TOOL_EVENT_THREAD_FINISH | ABT_TOOL_EVENT_THREAD_RESUME |
                             ABT_TOOL_EVENT_THREAD_RUN);
        if (WEFT_ASAN || WEFT_TSAN) {
            release_stack(xs, t);
        } else { /* release_stack's first case; the retire resets stack_kind */
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
/* Whether a joiner may call a fresh unit on its own stack ("a fresh unit on its joiner's
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
    if (weft_unit_fresh_sc_flags(t) && (p = fresh_sc_pool(xs, self, t)) && lend_allowed()) {
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

/* The usual join of a queued tasklet (weft_unit_join_wait). */
static WEFT_HOT_ALIGN __attribute__((noinline)) void
join_fresh_tasklet(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p)
{
    if (WEFT_UNLIKELY(!weft_pool_fifo_take_tasklet(p, t))) {
        join_wait_missed(xs, self, t);
        return;
    }
    fresh_tasklet_run(xs, self, t, false);
    tasklet_publish_end(t);
}

/* ---- a fresh SC unit, run on its joiner's stack (scheduler creation in the joiner) ---- */

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

/* Below the caller's frame, what self's stack must have left for t beyond t's own stack
 * size: the frames of sc_lend_run and of what it calls before t's function. */
#define SC_LEND_SLACK 512

/* The unit t, promoted on self's stack, came back into self's frame (sc_lend_run): its
 * function returned, or it exited or was cancelled (`how`).  It ends here, published
 * (another joiner may wait for it), and self, beneath it, runs again; on another stream
 * than the one self last ran on, self goes back to its pool first (a primary ULT is sent
 * home from there, weft_sched_run_unit).  Returns the stream self runs on. */
static WEFT_COLD __attribute__((noinline)) weft_xstream *sc_lend_end(weft_unit *self, weft_unit *t,
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
        weft_set_post(xs, post_push, self);
        xs = switch_to_sched(xs, self);
    }
    return xs;
}

/* What sc_lend_run did. */
enum {
    SC_LEND_INTACT, /* t ran on self's stack and never left it: unpublished, still LENT (the
                     * caller resets its kind), self current */
    SC_LEND_ENDED,  /* t left the stack once and has ended: published, self runs again */
    SC_LEND_MISSED, /* t is not queued any more: nothing done */
    SC_LEND_NO_ROOM /* self's stack is too short for t, its extent unknown, or t has a stack of
                     * its own: nothing done */
};

/* Takes the fresh SC or RoC-L unit t out of its pool p and calls it on self's stack, whose
 * floor is `floor`.  Its frame is the one t comes back to (inlined where arch/lend.h is
 * native).  `restore`: the canary of self when self is lent itself (t's frames may cover
 * it), written again when t comes back; NULL otherwise (a constant there: the usual path
 * has no such store). */
static WEFT_LEND_INLINE int sc_lend_body(weft_xstream *xs, weft_unit *self, weft_unit *t,
                                         weft_pool *p, uintptr_t floor, uintptr_t *restore)
{
    struct sc_lend lend;
    if (WEFT_UNLIKELY(!sc_lend_has_room(floor, (uintptr_t)&lend, t->stack_size + SC_LEND_SLACK)))
        return SC_LEND_NO_ROOM;
    if (WEFT_UNLIKELY(!weft_pool_fifo_take_stackless(p, t))) {
        /* a stack its user gave (set at creation, never changed) is the one it runs on */
        return t->stack_kind == WEFT_STACK_USER ? SC_LEND_NO_ROOM : SC_LEND_MISSED;
    }
    lend.lender = self;
    lend.floor = floor; /* a unit that t joins in turn finds it here, at any depth */
    /* (lend.how is set where it is read: at t's promotion, sc_lend_promote) */
    t->user_stack = &lend;
    t->stack_kind = WEFT_STACK_LENT;
    /* the canary at t's nominal end, as below a stack of its own (overflow.h): checked
     * when t first leaves the stack (sc_lend_promote) and when the call comes back */
    uintptr_t *cw = (uintptr_t *)weft_unit_lent_lo(t) - 1;
    if (WEFT_UNLIKELY(!weft_g.cfg.lend_canary))
        cw = &lend.spare;
    lend_canary_set(cw);
    lend.canary = cw;
    /* self waits in its join, as a joiner that starts its target on the target's own
     * stack does (fresh_roc_run): BLOCKED, in no pool, unmovable */
    weft_atomic_store_relaxed(&self->state, WEFT_BLOCKED);
    prep_run_quiet(xs, t);
    weft_lend_call(&lend.buf, t->fn, t->arg);
    if (WEFT_UNLIKELY(!weft_canary_word_intact(lend.canary)))
        weft_lend_canary_fail(t, weft_unit_lent_lo(t));
    if (restore)
        lend_canary_set(restore);
    if (WEFT_LIKELY(t->stack_kind == WEFT_STACK_LENT)) { /* it never left (or exited) */
        xs->cur = self;                                  /* on the stream it was called on */
        weft_atomic_store_relaxed(&self->state, WEFT_RUNNING);
        return SC_LEND_INTACT;
    }
    sc_lend_end(self, t, lend.how);
    return SC_LEND_ENDED;
}

/* sc_lend_run of a joiner that runs on a stack lent to it in turn (nested joins: a
 * recursion under the primary ULT; not cold). */
static __attribute__((noinline)) int sc_lend_run_nested(weft_xstream *xs, weft_unit *self,
                                                        weft_unit *t, weft_pool *p)
{
    uintptr_t *restore = lend_canary_lender(self, (uintptr_t)__builtin_frame_address(0));
    return sc_lend_body(xs, self, t, p, sc_lend_of(self)->floor, restore);
}

/* Takes the fresh SC or RoC-L unit t out of its pool p and calls it on self's stack
 * (sc_lend_body). */
static WEFT_LEND_INLINE int sc_lend_run(weft_xstream *xs, weft_unit *self, weft_unit *t,
                                        weft_pool *p)
{
    /* unit_stack_floor, the primary ULT's first and a lent joiner's apart */
    uint8_t k = self->stack_kind;
    uintptr_t floor;
    if (WEFT_LIKELY(k == WEFT_STACK_OS) || k == WEFT_STACK_USER)
        floor = (uintptr_t)self->user_stack;
    else if (k == WEFT_STACK_CACHED || k == WEFT_STACK_OWNED)
        floor = (uintptr_t)weft_stack_lo(self->stack);
    else if (k == WEFT_STACK_LENT || k == WEFT_STACK_BORROWED)
        return sc_lend_run_nested(xs, self, t, p);
    else
        floor = SC_FLOOR_NONE;
    return sc_lend_body(xs, self, t, p, floor, NULL);
}

/* The join's end of sc_lend_run: what it did, the unit published if it ran intact. */
static inline __attribute__((always_inline)) int join_lent(weft_xstream *xs, weft_unit *self,
                                                           weft_unit *t, weft_pool *p)
{
    int r = sc_lend_run(xs, self, t, p);
    if (WEFT_LIKELY(r == SC_LEND_INTACT)) {
        t->stack_kind = WEFT_STACK_NONE;
        tasklet_publish_end(t);
    }
    return r;
}

/* The usual join of a fresh SC unit (join_wait_general). */
static __attribute__((noinline)) void join_fresh_sc(weft_xstream *xs, weft_unit *self, weft_unit *t,
                                                    weft_pool *p)
{
    switch (join_lent(xs, self, t, p)) {
    case SC_LEND_INTACT:
    case SC_LEND_ENDED: return;
    case SC_LEND_MISSED: join_wait_missed(xs, self, t); return;
    default: join_wait_plain(xs, self, t); return;
    }
}

/* The usual join of a fresh RoC-L ULT (weft_unit_join_wait). */
static WEFT_HOT_ALIGN __attribute__((noinline)) void
join_fresh_roc(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p)
{
    /* on self's stack first; else (no room, or t ran: the take takes it if it is the
     * head) on a stack of its own */
    if (WEFT_LIKELY(lend_allowed())) {
        int r = join_lent(xs, self, t, p);
        if (WEFT_LIKELY(r == SC_LEND_INTACT) || r == SC_LEND_ENDED)
            return;
    }
    if (WEFT_UNLIKELY(!fresh_roc_fits(xs, t))) {
        join_wait_plain(xs, self, t);
        return;
    }
    if (WEFT_UNLIKELY(!weft_pool_fifo_take_joinable(p, t, true))) {
        join_wait_missed(xs, self, t);
        return;
    }
    if (WEFT_UNLIKELY(!taken_fresh_lazy(t)))
        taken_run_ult(xs, self, t, false);
    else if (fresh_roc_run(xs, self, t))
        fresh_roc_publish_end(t);
}

/* Frameless: every way out is a tail call, so a join that is not the usual one (a unit
 * that yielded, the deviation benchmark's; another technique) pays only the tests: a unit
 * that ran first, then the unit's kind and technique. */
WEFT_HOT_ALIGN void weft_unit_join_wait(weft_xstream *xs, weft_unit *self, weft_unit *t)
{
    weft_pool *p;
    if (ran_hint(t)) {
        join_wait_plain(xs, self, t); /* the general join */
        return;
    } else if (!(t->flags & WEFT_U_ULT)) {
        if ((p = fresh_pool(xs, self, t)) &&
            fresh_tasklet_fits(self, t, ABT_TOOL_EVENT_THREAD_RUN | ABT_TOOL_EVENT_THREAD_FINISH)) {
            join_fresh_tasklet(xs, self, t, p);
            return;
        }
    } else if (weft_unit_fresh_roc_flags(t) && (p = fresh_pool(xs, self, t))) {
        join_fresh_roc(xs, self, t, p);
        return;
    }
    join_wait_general(xs, self, t);
}

void weft_unit_join_wait_chain(weft_xstream *xs, weft_unit *self, weft_unit *t,
                               weft_join_chain *chain)
{
    join_wait(xs, self, t, chain, false, true);
}

/* ABT_thread_free / ABT_task_free of a unit not seen terminated, in one call: the join
 * (join_wait, which leaves a unit it ran to completion here unpublished), the JOIN and
 * FREE events if a tool wants them, the retire, the handle to `null`.  `inv`: the error
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
    weft_unit_retire(xs, t);
    *hp = null;
    return ABT_SUCCESS;
}

static __attribute__((noinline)) int thread_free_join_general(weft_unit *t, ABT_thread *thread,
                                                              bool bypass)
{
    return free_join(t, thread, ABT_THREAD_NULL, ABT_ERR_INV_THREAD, bypass);
}

/* The free's end of sc_lend_run: true when the free is done (the unit ran on self's stack
 * and is retired), false when sc_lend_run did nothing (*r: SC_LEND_MISSED or _NO_ROOM). */
static inline __attribute__((always_inline)) bool
free_lent(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p, ABT_thread *thread, int *r)
{
    *r = sc_lend_run(xs, self, t, p);
    if (WEFT_LIKELY(*r == SC_LEND_INTACT)) {
        if (WEFT_LIKELY(!weft_tool_wants(ABT_TOOL_EVENT_THREAD_FINISH | WEFT_FREE_EVENTS))) {
            /* unpublished, as join_wait leaves a unit it ran when freeing; the retire
             * resets its kind */
            weft_unit_retire_stackless(xs, t);
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
    weft_unit_retire(xs, t);
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
    WEFT_ASSERT(weft_unit_fresh_roc_flags(t));
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
            weft_unit_retire_stackless(xs, t);
            *thread = ABT_THREAD_NULL;
            return ABT_SUCCESS;
        }
        if (intact) {
            fresh_roc_publish_end(t);
        } else {
            xs = self->xs; /* self may come back on another stream */
        }
        weft_unit_free_told(t);
        weft_unit_retire(xs, t);
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
        weft_unit_retire_stackless(xs, t);
        *task = ABT_TASK_NULL;
        return ABT_SUCCESS;
    }
    return task_free_join_general(t, task, true);
}
