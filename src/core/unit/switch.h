/* src/core/unit/switch.h - the switching protocol of the unit engine, shared by its files
 * (stack.c, lend.c, exit.c, run.c, create.c, yield.c, join.c) and by ABT_thread_yield
 * (core/api/thread.c), which inlines the yield's bypass.  Everything here is static inline
 * (most of it always_inline): there is no LTO, and a hot path that called across files
 * would lose its inlining.  The protocol itself (post actions, runner, dynamic
 * promotion) is described in unit.h; the techniques' steps are tabled in fork.h.
 *
 * Contents, in the order a unit meets them: the stack a context runs on and its bounds;
 * giving a unit its stack and taking it back; entering a unit (start, resume, the
 * hand-over word); leaving a stack (leave_check, the switch to the scheduler); return on
 * completion's start and tag; a unit's end (unit_finish); the join bypass's take; the
 * yield's bypass; the call of a fresh unit on its joiner's stack (the lend). */
#ifndef WEFT_CORE_UNIT_SWITCH_H
#define WEFT_CORE_UNIT_SWITCH_H

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/unit/fork.h"
#include "core/tool/sanitizer.h"
#include "core/sched/loop.h"
#include "core/unit/unit.h"
#include "core/sched/sched.h"
#include "core/tool/overflow.h"
#include "arch/lend.h"

/* The lend record of a unit running on its joiner's stack (WEFT_STACK_LENT, _BORROWED:
 * lend.c), in the joiner's frame. */
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

/* ensure_stack's other cases (stack.c). */
WEFT_INTERNAL WEFT_COLD bool weft_unit_ensure_stack_slow(weft_xstream *xs, weft_unit *u);

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
    return weft_unit_ensure_stack_slow(xs, u);
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

/* The entry of a ULT started with weft_ctx_start (exit.c), and of a scheduler that runs
 * on its own stack (run.c). */
WEFT_INTERNAL void weft_ult_entry(void *arg);
WEFT_INTERNAL void weft_sched_entry(void *arg);

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

/* The sanitizers' side of a switch to `to` (nothing in other builds). */
static inline void san_switch_to(void **fake, weft_unit *to)
{
    size_t sz = 0;
    const void *lo = WEFT_ASAN ? unit_stack_lo(to, &sz) : NULL;
    weft_san_switch(fake, lo, sz, to->tsan_fiber);
}

/* Enter `to` (prepared: xs->cur, state, stack) from a context that saves into *save.
 * Returns the hand-over word of whoever resumes the saved context. */
static inline __attribute__((always_inline)) void *enter_unit(weft_xstream *xs, weft_ctx *save,
                                                              void **fake, weft_unit *to)
{
    if (to->ctx == NULL) {
        if (WEFT_TSAN)
            to->tsan_fiber = weft_tsan_fiber_create();
        san_switch_to(fake, to);
        return weft_ctx_start(save, unit_stack_top(to), weft_ult_entry, to);
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

/* leave_check's rare case: a unit that never left the stack it runs on (stack.c). */
WEFT_INTERNAL WEFT_COLD void weft_unit_leave_promote(weft_unit *self);
/* The lend's ways out of line (lend.c): a LENT unit promoted as it first leaves its
 * joiner's stack; an exit or a cancellation back to its joiner's frame (`how`:
 * SC_LEND_EXIT, _CANCEL); a cancelled BORROWED unit that a scheduler popped. */
WEFT_INTERNAL WEFT_COLD void weft_unit_lend_promote(weft_unit *u);
WEFT_INTERNAL WEFT_COLD __attribute__((noreturn)) void weft_unit_lend_leave(weft_unit *u, int how);
WEFT_INTERNAL WEFT_COLD void weft_unit_lend_cancel(weft_xstream *xs, weft_sched *s, weft_unit *u);

/* Every path on which a running ULT may leave its stack (yield, park, yield_to, *_to,
 * the join bypass, child-first creation, exit) starts with the canary check of its stack
 * (core/tool/overflow.h).  A unit with no stack of its own (the primary ULT, a user stack, an
 * SC unit on the loop's stack or on its joiner's) fails its first test; there, an SC
 * unit is promoted: it costs the hot paths nothing. */
static inline void leave_check(weft_unit *self)
{
    if (WEFT_UNLIKELY(!self->stack)) {
        if (self->stack_kind >= WEFT_STACK_SC) /* SC or LENT (types.h) */
            weft_unit_leave_promote(self);
        return;
    }
    weft_canary_check(self); /* (helper) core/tool/overflow.h: ABT_STACK_OVERFLOW_CHECK */
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
static inline __attribute__((always_inline)) weft_xstream *switch_to_sched(weft_xstream *xs,
                                                                           weft_unit *self)
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
        by = weft_ctx_start(&self->ctx, weft_stack_top(s->stack), weft_sched_entry, s);
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

/* The RoC entries (exit.c): started by a scheduler that saved itself, unsaved by a
 * predefined loop (SS), by a bypassing joiner, by the usual join of a fresh unit. */
WEFT_INTERNAL void *weft_ult_entry_roc_sched(void *arg);
WEFT_INTERNAL void *weft_ult_entry_ss(void *arg);
WEFT_INTERNAL void *weft_ult_entry_roc_join(void *arg);
WEFT_INTERNAL void *weft_ult_entry_roc_fresh(void *arg);

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

/* An unnamed unit's end, out of line (exit.c). */
WEFT_INTERNAL __attribute__((noinline)) void weft_unit_release_told(weft_xstream *xs, weft_unit *u);

/* Termination of a unit that has left its stack (or is a tasklet).  The caller reported
 * FINISH (or CANCEL) already: a unit's life cycle has one of the two, never both.
 * Inlined where a scheduler finishes the units it runs (weft_sched_run_unit, sc_run),
 * called elsewhere. */
static inline __attribute__((always_inline)) void unit_finish_inline(weft_xstream *xs, weft_unit *u)
{
    if (u->flags & WEFT_U_ULT)
        release_stack(xs, u);
    if (!(u->flags & WEFT_U_NAMED)) {
        weft_unit_release_told(xs, u);
        return;
    }
    weft_atomic_store_release(&u->state, WEFT_TERMINATED);
    weft_waiter *w = weft_atomic_exchange_acq_rel(&u->joiner, WEFT_JOIN_DONE);
    /* u may be freed by its joiner from here on */
    if (w)
        weft_waiter_wake(w);
}
static inline void unit_finish(weft_xstream *xs, weft_unit *u) { unit_finish_inline(xs, u); }

/* Post actions shared by the files: a finished unit's end (exit.c), a yielding unit
 * queued again (yield.c). */
WEFT_INTERNAL void weft_post_finish(weft_xstream *xs, void *arg);
WEFT_INTERNAL void weft_post_push(weft_xstream *xs, void *arg);

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

/* Whether the primary ULT `m` belongs to the primary stream: its pool is one of that
 * stream's main scheduler's. */
static inline bool weft_main_belongs_home(weft_unit *m)
{
    weft_sched *s = weft_atomic_load_acquire(&weft_g.primary->main_sched);
    for (int i = 0; i < s->num_pools; i++)
        if (s->pools[i] == m->pool)
            return true;
    return false;
}

/* The next unit needs the scheduler: a tasklet, the primary ULT, a cancelled unit, or an
 * SS or SC unit that never ran (a stateless loop starts those, core/unit/fork.h).  The
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

/* The yield's ways out of line (yield.c). */
WEFT_INTERNAL __attribute__((noinline)) void weft_ult_yield_sched_checked(weft_xstream *xs,
                                                                          weft_unit *self);
WEFT_INTERNAL __attribute__((noinline)) void
weft_ult_yield_fresh_slow(weft_xstream *xs, weft_unit *self, weft_pool *p, weft_unit *next);
WEFT_INTERNAL void weft_post_push_fifo(weft_xstream *xs, void *arg);
WEFT_INTERNAL void weft_post_push_release(weft_xstream *xs, void *arg);

/* A yield in one lock round ends without a post action where the context switch can
 * release the pool's lock itself (weft_ctx_switch_release: the assembly backends), the
 * build is not ThreadSanitizer's (which would not see that release) and no scheduler
 * sleeps on the pool (p->notify: the push must wake it, weft_post_push_release does). */
#if WEFT_CTX_HAS_SWITCH_RELEASE && !WEFT_TSAN
#define YIELD_RELEASE_IN_SWITCH 1
#else
#define YIELD_RELEASE_IN_SWITCH 0
#endif

/* The switch of a yield in one lock round from `self` to `next` (prepared, out of p):
 * `self` is already linked at the tail of its pool `p`, whose lock is held if it has
 * one; the switch releases it once `self` is saved and off its stack, so no other stream
 * can resume `self` before (docs/design/unit.md, "The switching protocol"). */
static inline __attribute__((always_inline)) void *
yield_switch_release(weft_xstream *xs, weft_unit *self, weft_pool *p, weft_unit *next, weft_ctx to,
                     bool locked)
{
    WEFT_ASSERT(locked == p->locked); /* (the caller's read of it) */
    san_switch_to(&self->asan_fake_stack, next);
#if YIELD_RELEASE_IN_SWITCH
    if (locked)
        return weft_ctx_switch_release(&self->ctx, to, xs, weft_spin_word(&p->lock));
#endif
    return weft_ctx_switch(&self->ctx, to, xs);
}

/* yield_switch_release for a `next` that never ran: it starts on its stack. */
static inline __attribute__((always_inline)) void *
yield_start_release(weft_xstream *xs, weft_unit *self, weft_pool *p, weft_unit *next, bool locked)
{
#if YIELD_RELEASE_IN_SWITCH
    if (locked) {
        san_switch_to(&self->asan_fake_stack, next);
        return weft_ctx_start_release(&self->ctx, unit_stack_top(next), weft_ult_entry, next,
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
static inline __attribute__((always_inline)) void
ult_yield_fresh(weft_xstream *xs, weft_unit *self, weft_pool *p, weft_unit *next, bool locked)
{
    if (WEFT_UNLIKELY(!stack_from_cache(xs, next))) {
        weft_pool_fifo_take_head(p, next);
        weft_ult_yield_fresh_slow(xs, self, p, next);
        return;
    }
    weft_atomic_store_relaxed(&self->state, WEFT_READY);
    prep_run_quiet(xs, next);
    if (YIELD_RELEASE_IN_SWITCH && WEFT_LIKELY(!p->notify)) {
        weft_pool_fifo_rotate(p, next, self);
        ult_landed(self, yield_start_release(xs, self, p, next, locked));
        return;
    }
    weft_pool_fifo_take_head(p, next);
    weft_set_post(xs, weft_post_push_release, self);
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
 * (weft_post_push_release).  Every way out that needs more is a call out of line, and nothing
 * is kept across the switch but what it returns, so the usual yield saves one register. */
/* ult_yield_checked's bypass, with p->locked read once (`locked`, a constant where it is
 * inlined): the lock's take and the switch's release test nothing more. */
static inline __attribute__((always_inline)) int ult_yield_bypass(weft_xstream *xs, weft_unit *self,
                                                                  weft_pool *p, bool locked)
{
    WEFT_ASSERT(xs->cur == self && weft_pool_can(p, WEFT_POOL_CAP_INLINE_FIFO));
    WEFT_ASSERT(xs->post_fn == NULL);
    weft_unit *next = weft_pool_fifo_head_hold_as(p, locked);
    if (!next) {
        /* nobody else to run: keep going, unless the primary ULT waits at home for its
         * child-first child (post_home), which the scheduler runs */
        if (WEFT_UNLIKELY(weft_atomic_nonnull_relaxed(&xs->main_handoff)))
            weft_ult_yield_sched_checked(xs, self);
        return ABT_SUCCESS;
    }
    weft_ctx to = next->ctx;
    if (WEFT_UNLIKELY(!to ? bypass_declines(next) : bypass_declines_ran(next))) {
        if (locked)
            weft_spin_unlock(&p->lock);
        weft_ult_yield_sched_checked(xs, self);
        return ABT_SUCCESS;
    }
    if (WEFT_UNLIKELY(!to)) {
        ult_yield_fresh(xs, self, p, next, locked);
        return ABT_SUCCESS;
    }
    weft_atomic_store_relaxed(&self->state, WEFT_READY);
    prep_run_quiet(xs, next); /* prep_run without its tool hook (no tool here) */
    if (YIELD_RELEASE_IN_SWITCH && WEFT_LIKELY(!p->notify)) {
        weft_pool_fifo_rotate(p, next, self);
        ult_landed(self, yield_switch_release(xs, self, p, next, to, locked));
        return ABT_SUCCESS;
    }
    weft_pool_fifo_take_head(p, next);
    weft_set_post(xs, weft_post_push_release, self);
    ult_landed(self, resume_unit(xs, &self->ctx, &self->asan_fake_stack, next, to));
    return ABT_SUCCESS;
}
static inline __attribute__((always_inline)) int ult_yield_checked(weft_xstream *xs,
                                                                   weft_unit *self)
{
    weft_pool *p = xs->sched->bypass_pool;
    /* (no bypass pool: NULL, which self's pool never is) */
    WEFT_ASSERT(self->pool != NULL);
    if (self->pool != p || weft_dec_le_zero(&xs->yield_budget) ||
        weft_atomic_nonnull_relaxed(&self->migr_to) ||
        (WEFT_TOOL && weft_atomic_test64_relaxed(&weft_tool_g.mask, ~(uint64_t)0))) {
        weft_ult_yield_sched_checked(xs, self);
        return ABT_SUCCESS;
    }
    /* one copy of the bypass per kind of pool: a shared pool (locked), a private one */
    if (WEFT_LIKELY(p->locked))
        return ult_yield_bypass(xs, self, p, true);
    return ult_yield_bypass(xs, self, p, false);
}

/* The call of a fresh SC or RoC-L unit on its joiner's stack (the lend, lend.c): the
 * usual paths of the join and the free (join.c) inline it.  Where the call is not native
 * (arch/lend.h, WEFT_LEND_INLINE) sc_lend_body and sc_lend_run are out of line, and
 * marked unused for the files that do not call them. */

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

/* The canary of a lent unit (struct sc_lend): a plain store and load below the stack
 * pointer, in memory of the lender's stack that nothing else uses. */
__attribute__((no_sanitize("address", "thread"))) static inline void
lend_canary_set(uintptr_t *word)
{
    *word = WEFT_CANARY_VALUE;
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

/* Below the caller's frame, what self's stack must have left for t beyond t's own stack
 * size: the frames of sc_lend_run and of what it calls before t's function. */
#define SC_LEND_SLACK 512

/* What sc_lend_run did. */
enum {
    SC_LEND_INTACT, /* t ran on self's stack and never left it: unpublished, still LENT (the
                     * caller resets its kind), self current */
    SC_LEND_ENDED,  /* t left the stack once and has ended: published, self runs again */
    SC_LEND_MISSED, /* t is not queued any more: nothing done */
    SC_LEND_NO_ROOM /* self's stack is too short for t, its extent unknown, or t has a stack of
                     * its own: nothing done */
};

/* sc_lend_body's ends out of line (lend.c): the unit came back promoted; the joiner is
 * lent its stack itself. */
WEFT_INTERNAL WEFT_COLD __attribute__((noinline)) weft_xstream *
weft_unit_lend_end(weft_unit *self, weft_unit *t, int how);
WEFT_INTERNAL __attribute__((noinline)) int
weft_unit_lend_run_nested(weft_xstream *xs, weft_unit *self, weft_unit *t, weft_pool *p);

/* Takes the fresh SC or RoC-L unit t out of its pool p and calls it on self's stack, whose
 * floor is `floor`.  Its frame is the one t comes back to (inlined where arch/lend.h is
 * native).  `restore`: the canary of self when self is lent itself (t's frames may cover
 * it), written again when t comes back; NULL otherwise (a constant there: the usual path
 * has no such store). */
static WEFT_LEND_INLINE __attribute__((unused)) int sc_lend_body(weft_xstream *xs, weft_unit *self,
                                                                 weft_unit *t, weft_pool *p,
                                                                 uintptr_t floor,
                                                                 uintptr_t *restore)
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
    /* (lend.how is set where it is read: at t's promotion, weft_unit_lend_promote) */
    t->user_stack = &lend;
    t->stack_kind = WEFT_STACK_LENT;
    /* the canary at t's nominal end, as below a stack of its own (overflow.h): checked
     * when t first leaves the stack (weft_unit_lend_promote) and when the call comes back */
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
    weft_unit_lend_end(self, t, lend.how);
    return SC_LEND_ENDED;
}

/* Takes the fresh SC or RoC-L unit t out of its pool p and calls it on self's stack
 * (sc_lend_body). */
static WEFT_LEND_INLINE __attribute__((unused)) int sc_lend_run(weft_xstream *xs, weft_unit *self,
                                                                weft_unit *t, weft_pool *p)
{
    /* unit_stack_floor, the primary ULT's first and a lent joiner's apart */
    uint8_t k = self->stack_kind;
    uintptr_t floor;
    if (WEFT_LIKELY(k == WEFT_STACK_OS) || k == WEFT_STACK_USER)
        floor = (uintptr_t)self->user_stack;
    else if (k == WEFT_STACK_CACHED || k == WEFT_STACK_OWNED)
        floor = (uintptr_t)weft_stack_lo(self->stack);
    else if (k == WEFT_STACK_LENT || k == WEFT_STACK_BORROWED)
        return weft_unit_lend_run_nested(xs, self, t, p);
    else
        floor = SC_FLOOR_NONE;
    return sc_lend_body(xs, self, t, p, floor, NULL);
}

#endif
