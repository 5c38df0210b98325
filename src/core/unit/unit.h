/* src/core/unit/unit.h - the life of a work unit: create, run, yield, block, wake, join, exit.
 *
 * Switching protocol ("post actions").  A unit must never become visible to another
 * stream while it still runs on its own stack.  So whatever has to happen *after* a unit
 * has left its stack (push it back to a pool on yield, release the lock of the waiter
 * list it parks on, give its stack back when it terminates) is stored in the stream as
 * xs->post_fn/post_arg before the switch, and run by whoever resumes right after the
 * switch returns (weft_land).  That is the "on top" step of Boost.Context-style
 * switching, done with one well-predicted branch per switch.
 *
 * Runner.  A running ULT returns control to xs->sched, the innermost scheduler of its
 * stream, whose context was saved when it entered the unit.  Exceptions that skip the
 * scheduler: yield_to (ULT to ULT), join bypass (a joiner starts a fresh target itself),
 * and termination hand-off (a finishing ULT resumes its blocked joiner directly).
 *
 * Dynamic promotion (trade-off paper; the default technique, RoC-L).  A ULT gets no stack
 * when created.  The first time it runs, it takes a stack from the stream cache and
 * starts like a function call on it (weft_ctx_call): no frame is written ahead of time.
 * If its function returns without having deviated it returns to its starter like a
 * function, and the stack goes straight back to the cache.  The other techniques
 * (fork.h, which tables their steps) change where the stack comes from, how the unit
 * starts and leaves.  The engine is in this folder, one file per operation: stack.c,
 * lend.c, exit.c, run.c, create.c, yield.c, join.c, sharing the inline protocol of
 * switch.h. */
#ifndef WEFT_CORE_UNIT_H
#define WEFT_CORE_UNIT_H

#include <stddef.h>
#include <string.h>

#include "core/handle.h"
#include "core/pool/pool.h"
#include "core/runtime.h"
#include "core/tool/tool.h"
#include "core/wait.h"
#include "mem/mem.h"

static inline bool weft_unit_is_ult(const weft_unit *u) { return u->flags & WEFT_U_ULT; }

/* The calling work unit as Argobots programs see it (the ABT_self_* and *_self routines):
 * the running unit, or, inside a main scheduler (xs->cur == NULL), that scheduler's ULT
 * handle (types.h, weft_sched.self_unit).  NULL for an external thread.  Waiting and
 * switching keep using xs->cur: a main scheduler does not park. */
static inline weft_unit *weft_self_seen(weft_xstream *xs)
{
    if (!xs)
        return NULL;
    if (xs->cur)
        return xs->cur;
    return xs->sched ? xs->sched->self_unit : NULL;
}

/* Units that are no ordinary ULT or tasklet: the primary ULT and a main scheduler's
 * handle cannot be joined, freed, cancelled, migrated, yielded to or scheduled. */
#define WEFT_U_SPECIAL (WEFT_U_MAIN | WEFT_U_MAIN_SCHED)

/* Run the pending post action of this stream, if any.  Call right after every switch. */
static inline void weft_land(weft_xstream *xs)
{
    void (*fn)(weft_xstream *, void *) = xs->post_fn;
    if (fn) {
        xs->post_fn = NULL;
        fn(xs, xs->post_arg);
    }
}

static inline void weft_set_post(weft_xstream *xs, void (*fn)(weft_xstream *, void *), void *arg)
{
    /* one post action per switch: the previous one has run (weft_land) */
    WEFT_ASSERT(xs->post_fn == NULL);
    xs->post_fn = fn;
    xs->post_arg = arg;
}

/* Creation. */
struct weft_thread_attr {
    size_t stacksize;
    void *stackaddr; /* user stack, or NULL */
    bool migratable;
    void (*cb)(ABT_thread, void *);
    void *cb_arg;
    int fork;            /* weft_fork_t (weft.h); 0: the runtime default */
    uint16_t fork_flags; /* weft_fork_flags(fork), 0 with fork (set with it: fork.c) */
    /* no user stack, no callback, migratable: kept by every writer of those fields
     * (weft_thread_attr_reshape), so that ABT_thread_create tests one byte for them */
    bool shape_plain;
};

static inline void weft_thread_attr_reshape(struct weft_thread_attr *a)
{
    a->shape_plain = !a->stackaddr && !a->cb && a->migratable;
}

/* An attribute that changes nothing but the technique (ABT_thread_create's fast path).
 * The stack size is compared with the runtime's at each call: an attribute created
 * before an ABT_finalize and ABT_init keeps the size of its time. */
static inline bool weft_thread_attr_plain(const struct weft_thread_attr *a)
{
    return a->shape_plain && a->stacksize == weft_g.cfg.thread_stacksize;
}

WEFT_INTERNAL void weft_unit_run_key_dtors(weft_unit *u);
/* Releasing: run the key destructors and give a user pool's unit back, if any (exit.c). */
WEFT_INTERNAL void weft_unit_release_extras(weft_xstream *xs, weft_unit *u);
/* The unit's id (ABT_thread_get_id), given on first request (thread.c). */
WEFT_INTERNAL uint64_t weft_unit_id(weft_unit *u);
/* Work-unit-local values (key.c): ABT_ERR_INV_KEY, ABT_ERR_MEM or ABT_SUCCESS. */
WEFT_INTERNAL WEFT_WUR int weft_key_set(weft_unit *u, ABT_key key, void *value);
WEFT_INTERNAL int weft_key_get(weft_unit *u, ABT_key key, void **value);

/* A descriptor in a cache is "released": ctx, stack, keys, migration fields, request,
 * sched, sanitizer cookies and the user-pool unit (uunit, upool, unext) are NULL/0,
 * `cold` is 0, stack_kind is NONE and in_pool is 0.  Fresh
 * descriptors are zeroed (desc.c); weft_unit_release restores the state before a
 * descriptor goes back.  So creating a unit only writes what differs per unit. */
/* u->flags = flags, in a released descriptor (stack_kind NONE, in_pool 0): a constant as
 * one store of the 32-bit word the three share (types.h; a 16-bit store of a constant takes two
 * instructions: GCC avoids its length-changing prefix). */
static inline void unit_set_flags_word(weft_unit *u, uint16_t flags)
{
    WEFT_ASSERT(u->stack_kind == WEFT_STACK_NONE && !u->in_pool);
    if (!__builtin_constant_p(flags)) { /* a computed value is in a register already */
        u->flags = flags;
        return;
    }
    unsigned char w[4] = { 0 }; /* flags, then stack_kind and in_pool at 0 */
    memcpy(w, &flags, sizeof(flags));
    memcpy(&u->flags, w, sizeof(w));
}
static inline void weft_unit_init(weft_unit *u, weft_pool *p, void (*fn)(void *), void *arg,
                                  uint16_t flags)
{
    u->pool = p;
    u->fn = fn;
    u->arg = arg;
    unit_set_flags_word(u, flags);
    weft_atomic_store_relaxed(&u->state, WEFT_READY);
    u->xs = NULL;
    weft_atomic_store_relaxed(&u->joiner, NULL);
    if (flags & WEFT_U_ULT) /* a tasklet's is never read (its stack size is 0) */
        u->stack_size = weft_g.cfg.thread_stacksize;
    weft_atomic_store_relaxed(&u->id, 0);
}

static inline weft_unit *weft_unit_new(weft_xstream *xs, weft_pool *p, void (*fn)(void *),
                                       void *arg, uint16_t flags)
{
    weft_unit *u = weft_desc_alloc(weft_xs_cache(xs));
    if (WEFT_UNLIKELY(!u))
        return NULL;
    weft_unit_init(u, p, fn, arg, flags);
    return u;
}

/* The descriptor back to the cache, after the FREE event if any (weft_unit_release, below):
 * the unit's handle gets its next generation, and its copies are stale from here on
 * (core/handle.h). */
/* keys, a third line in use (a migration callback, a scheduler, the unit of a
 * user-defined pool: pool/user.c), or a stack kept until now (WEFT_U_F_KEEP,
 * core/unit/fork.h): one test for the three, on the first two lines only */
static inline bool unit_extras_but_stack(weft_unit *u)
{
    return weft_atomic_nonzero8_relaxed(&u->cold); /* set with keys too (key.c) */
}
static inline bool weft_unit_has_extras(weft_unit *u)
{
    return unit_extras_but_stack(u) || u->stack != NULL;
}

/* What a released descriptor must have at zero and its handle's new generation (the
 * extras already released; only the unit's freer writes its handle). */
static inline void weft_unit_release_fields(weft_unit *u)
{
    /* flags 0 (marks a free descriptor: stack dumps skip it), stack_kind NONE and in_pool
     * 0 (which it is), in one store of the word they share (types.h) */
    WEFT_ASSERT(!u->in_pool);
    memset(&u->flags, 0, 4);
    weft_atomic_store_relaxed(&u->migr_to, NULL);
#if !WEFT_TSAN
    /* request 0, prio 0 and cold 0 (which it is: released above) in one 8-byte store of
     * the word they share with padding (types.h); TSan builds keep the atomic store it
     * sees */
    WEFT_ASSERT(!weft_atomic_load_relaxed(&u->cold));
    memset((void *)&u->request, 0, 8);
#else
    u->prio = 0;
    weft_atomic_store_relaxed(&u->request, 0);
#endif
#if WEFT_ASAN
    u->asan_fake_stack = NULL; /* only ASan builds ever write it (core/sanitizer.h) */
#endif
    weft_atomic_add_sole_relaxed(&u->handle, WEFT_HANDLE_GEN_STEP);
}

/* `extras`: weft_unit_has_extras, or what the caller knows of it */
static inline void unit_release_with(weft_xstream *xs, weft_unit *u, bool extras)
{
    if (WEFT_UNLIKELY(extras))
        weft_unit_release_extras(xs, u);
    weft_unit_release_fields(u);
    weft_desc_free(weft_xs_cache(xs), u);
}
static inline void weft_unit_release(weft_xstream *xs, weft_unit *u)
{
    unit_release_with(xs, u, weft_unit_has_extras(u));
}

/* ... of a unit that holds no stack (a tasklet, or a ULT whose stack the caller has just
 * given back): one field less to test. */
static inline void weft_unit_release_stackless(weft_xstream *xs, weft_unit *u)
{
    WEFT_ASSERT(u->stack == NULL);
    unit_release_with(xs, u, unit_extras_but_stack(u));
}

/* A unit whose creation failed goes back with weft_unit_release too: nothing was
 * published, so the tool hears nothing.  An unnamed unit's end tells it first
 * (weft_unit_release_told, exit.c). */

#define WEFT_U_DEFAULT_FLAGS WEFT_U_MIGRATABLE

/* The handle a failed creation leaves: ABT_THREAD_NULL, or ABT_TASK_NULL for a tasklet,
 * as Argobots 1.x does. */
static inline void weft_unit_spawn_failed(ABT_thread *handle, uint16_t flags)
{
    if (handle)
        *handle = (flags & WEFT_U_ULT) ? ABT_THREAD_NULL : (ABT_thread)ABT_TASK_NULL;
}

/* The end of a parent-first creation into a built-in FIFO pool: the handle, the CREATE
 * event, then the push that publishes the unit. */
static inline int weft_unit_publish_fifo(weft_pool *p, weft_unit *u, ABT_thread *handle)
{
    if (handle)
        *handle = weft_unit_handle(u);
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_CREATE);
    weft_pool_fifo_push(p, u);
    return ABT_SUCCESS;
}

/* What a thread attribute changes in a new unit (create.c; only with an attribute). */
/* ABT_SUCCESS, or ABT_ERR_MEM when mprotect_strict's guard page of a user-given stack
 * cannot be set (core/tool/overflow.h; then u is to be released, nothing else is held). */
WEFT_INTERNAL WEFT_WUR int weft_unit_apply_attr(weft_unit *u, const struct weft_thread_attr *attr);

/* The one creation path of every ULT and tasklet (ABT_thread_create*, ABT_task_create*,
 * revive): a descriptor from the calling stream's cache, the attribute if any, the CREATE
 * event, then the push that publishes the unit (after which another stream may run it, so
 * nothing is written to it here after the push).  The handle (ABT_thread and ABT_task are
 * one type), when asked for, is set before the push; on failure to ABT_THREAD_NULL, or
 * ABT_TASK_NULL for a tasklet, as Argobots 1.x does.
 * ABT_ERR_MEM when no descriptor can be had; into a user-defined pool, also the error of
 * its bind (ABT_ERR_OTHER: the user's create_unit failed), with nothing left behind. */
WEFT_INTERNAL WEFT_WUR int weft_unit_spawn_other(weft_pool *p, weft_unit *u, ABT_thread *handle);
/* ... of a ULT whose technique takes its stack at creation or runs it child-first. */
WEFT_INTERNAL WEFT_WUR int weft_unit_spawn_fork(weft_pool *p, weft_unit *u, ABT_thread *handle);
/* ABT_thread_create of such a ULT where weft_unit_create_fits holds but for its
 * technique: a descriptor from xs's cache (not empty), `flags` with the technique's, no
 * attribute to apply (none, or one weft_thread_attr_plain), then weft_unit_spawn_fork. */
WEFT_INTERNAL WEFT_WUR int weft_unit_create_fork(weft_xstream *xs, weft_pool *p, void (*fn)(void *),
                                                 void *arg, uint16_t flags, ABT_thread *handle);
static inline WEFT_WUR int weft_unit_spawn(weft_pool *p, void (*fn)(void *), void *arg,
                                           const struct weft_thread_attr *attr, uint16_t flags,
                                           ABT_thread *handle)
{
    /* a ULT's technique: the runtime default unless the attribute names one */
    if ((flags & (WEFT_U_ULT | WEFT_U_SCHED)) == WEFT_U_ULT)
        flags |= weft_g.cfg.fork_flags;
    weft_unit *u = weft_unit_new(weft_xs_self(), p, fn, arg, flags);
    if (WEFT_UNLIKELY(!u)) {
        weft_unit_spawn_failed(handle, flags);
        return ABT_ERR_MEM;
    }
    if (WEFT_UNLIKELY(attr != NULL)) {
        int r = weft_unit_apply_attr(u, attr);
        if (WEFT_UNLIKELY(r != ABT_SUCCESS)) {
            weft_unit_release(weft_xs_self(), u);
            weft_unit_spawn_failed(handle, flags);
            return r;
        }
    }
    if (WEFT_UNLIKELY(u->flags & (WEFT_U_F_CF | WEFT_U_F_KEEP)))
        return weft_unit_spawn_fork(p, u, handle);
    if (WEFT_UNLIKELY(!(p->caps & WEFT_POOL_CAP_INLINE_FIFO)))
        return weft_unit_spawn_other(p, u, handle);
    return weft_unit_publish_fifo(p, u, handle);
}
/* The creation fast path of ABT_thread_create and ABT_task_create: the common case (no
 * attribute, or one that only names the technique: weft_thread_attr_plain; a stream whose
 * descriptor cache is not empty, a built-in FIFO pool, a technique that does nothing at
 * creation) with no call on it, so that
 * the compiler gives the entry point no frame (the general path, weft_unit_spawn, saves
 * five registers for its calls).  The rare ends are tail calls: a tool that wants the
 * CREATE event (weft_unit_push_told), a contended lock (weft_pool_fifo_push_contended) and
 * a sleeper to wake (weft_pool_notify_done).
 * weft_unit_create_fits says whether it applies; weft_unit_create_fast does it (`flags`
 * without WEFT_U_NAMED: a non-NULL `handle` adds it). */
static inline bool weft_unit_create_fits(weft_xstream *xs, weft_pool *p, void (*fn)(void *),
                                         uint16_t fork_flags)
{
    /* "p is neither NULL nor ABT_POOL_NULL (5)" as one mask test: the other values it
     * keeps out (1, 4) are no object's address, and the general path answers for them as
     * before.  A technique that acts at creation first: those units leave after one test.
     * No test of the initialisation count: a thread is a stream's (xs != NULL) only while
     * the runtime is initialised (the primary's weft_tls_xs is set before the count rises
     * and cleared before it falls to 0, runtime.c, atfork.c; the secondary streams' threads
     * end before that), and the general path answers ABT_ERR_UNINITIALIZED for the rest */
    WEFT_ASSERT(xs == NULL || weft_initialized());
    return !(fork_flags & (WEFT_U_F_CF | WEFT_U_F_KEEP)) &&
           ((uintptr_t)p & ~(uintptr_t)ABT_POOL_NULL) != 0 && fn != NULL && xs != NULL &&
           weft_desc_cache_nonempty(&xs->cache) && (p->caps & WEFT_POOL_CAP_INLINE_FIFO);
}
/* weft_unit_create_fast's end when a tool wants CREATE (the tracer): the event, then the
 * push (create.c); a tail call */
WEFT_INTERNAL int weft_unit_push_told(weft_pool *p, weft_unit *u);
static inline __attribute__((always_inline)) int
weft_unit_create_fast(weft_xstream *xs, weft_pool *p, void (*fn)(void *), void *arg, uint16_t flags,
                      ABT_thread *handle)
{
    weft_unit *u = weft_desc_cache_take(&xs->cache);
    if (handle) { /* named: one test for the flag and the handle, one store of the flags */
        weft_unit_init(u, p, fn, arg, (uint16_t)(flags | WEFT_U_NAMED));
        *handle = weft_unit_handle(u);
    } else {
        weft_unit_init(u, p, fn, arg, flags);
    }
    if (WEFT_UNLIKELY(weft_tool_wants(ABT_TOOL_EVENT_THREAD_CREATE)))
        return weft_unit_push_told(p, u);
    return weft_pool_fifo_push_ret(p, u);
}

/* Scheduler side: run a popped unit to its next switch-back. */
WEFT_INTERNAL void weft_sched_run_unit(weft_xstream *xs, weft_sched *s, weft_unit *u);

/* The calling ULT gives up the CPU (yield and park: core/wait.h). */
/* Yield to a specific ready unit (ABT_thread_yield_to). */
WEFT_INTERNAL int weft_ult_yield_to(weft_xstream *xs, weft_unit *self, weft_unit *to);
/* Terminate a unit the caller owns (taken from its pool) without running it further. */
WEFT_INTERNAL void weft_unit_cancel_now(weft_xstream *xs, weft_unit *u);

/* Suspension handshake (ABT_self_suspend / ABT_thread_resume), lock-free on
 * unit->request.  The suspending ULT counts itself blocked, sets SUSPENDING and parks;
 * the post action, once it is off its stack, turns SUSPENDING into SUSPENDED, unless a
 * resume arrived meanwhile (RESUME_PENDING), in which case it makes it ready at once.
 * A resumer clears SUSPENDED and makes the unit ready, or marks RESUME_PENDING while it
 * is still SUSPENDING.  So a unit seen BLOCKED after ABT_self_suspend can always be
 * resumed, and is never pushed while it runs on its stack. */
WEFT_INTERNAL void weft_unit_suspend_self(weft_xstream *xs, weft_unit *self);
WEFT_INTERNAL void weft_post_suspend(weft_xstream *xs, void *arg);
/* Resume a suspended unit: ABT_SUCCESS, or ABT_ERR_THREAD if it is not suspended.
 * claim: the caller takes the unit (to switch to it) instead of pushing it; it then waits
 * out a SUSPENDING unit until it is off its stack. */
WEFT_INTERNAL int weft_unit_resume(weft_unit *u, bool claim);
/* Give the CPU to ULT `to` directly; `self` yields (pushed back), suspends (resumable with
 * ABT_thread_resume) or exits.  resume: `to` must be suspended (it is resumed), else it
 * must be ready in its pool (it is taken out).  CREATE and REVIVE: `to` is a ULT just
 * made or revived that was never pushed (ABT_thread_create_to, ABT_thread_revive_to);
 * `self` is pushed back as in YIELD.  The context of self's push names the operation:
 * ABT_POOL_CONTEXT_OP_THREAD_YIELD_TO, _RESUME_YIELD_TO, _CREATE_TO or _REVIVE_TO. */
enum { WEFT_TO_YIELD, WEFT_TO_SUSPEND, WEFT_TO_EXIT, WEFT_TO_CREATE, WEFT_TO_REVIVE };
WEFT_INTERNAL int weft_ult_switch_to(weft_xstream *xs, weft_unit *self, weft_unit *to,
                                     int self_mode, bool resume);
/* ABT_thread_create_to into a pool that observes push contexts (not an inline FIFO): a
 * new ULT in `p` (attribute `a` or NULL) that is not pushed; `self` is pushed with
 * ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO and the new ULT runs at once (Argobots 1.2). */
WEFT_INTERNAL WEFT_WUR int weft_unit_create_to(weft_xstream *xs, weft_unit *self, weft_pool *p,
                                               void (*fn)(void *), void *arg,
                                               const struct weft_thread_attr *a,
                                               ABT_thread *handle);
/* ABT_self_schedule / ABT_xstream_run_unit from a ULT that is not a scheduler: `u`
 * (taken out of its pool) runs as the caller's child; the caller continues when u
 * finishes, yields or blocks.  A tasklet runs inline. */
WEFT_INTERNAL void weft_ult_run_as_parent(weft_xstream *xs, weft_unit *self, weft_unit *u);
WEFT_INTERNAL __attribute__((noreturn)) void weft_ult_exit(weft_xstream *xs, weft_unit *self);

/* Join and free.  weft_unit_join_wait: the target has not finished yet; the caller runs
 * as `self` on `xs` (either may be NULL for an external thread) and self != t.  A tasklet
 * or a RoC-L ULT (the default technique, weft_unit_picks_roc_l) may take the usual join
 * of a fresh unit (join.c, "the usual join of a fresh unit").  So may an SS-L ULT, which
 * a joiner runs as RoC-L: the pick leaves out the SS bit (the SS technique, eager, has
 * KEEP). */
#define WEFT_U_FORK_PICK  (WEFT_U_ULT | WEFT_U_SPECIAL | WEFT_U_F_KEEP | WEFT_U_F_ROC | WEFT_U_F_SC)
#define WEFT_U_PICK_ROC_L (WEFT_U_ULT | WEFT_U_F_ROC)               /* RoC-L, SS-L */
#define WEFT_U_PICK_SC    (WEFT_U_ULT | WEFT_U_F_ROC | WEFT_U_F_SC) /* (fork.c) */
/* What a join or a free picks its path by: the unit's kind and technique. */
static inline uint16_t weft_unit_fork_pick(const weft_unit *t)
{
    return t->flags & WEFT_U_FORK_PICK;
}
/* Does t pick RoC-L's paths: a ULT (not a special unit) of a lazy return-on-completion
 * technique other than SC (RoC-L, SS-L)?  Its flags only: whether t is fresh is the
 * caller's to know. */
static inline bool weft_unit_picks_roc_l(const weft_unit *t)
{
    return weft_unit_fork_pick(t) == WEFT_U_PICK_ROC_L;
}
/* The lowest address of the part of its joiner's stack that a unit LENT or BORROWED it
 * (WEFT_STACK_LENT, _BORROWED) may use: its stack size below its lend record, which lies in
 * the joiner's frame (user_stack) and which the room test found free (lend.c).  From the
 * record's address alone: nothing in the joiner's frame is read, so another stream may
 * ask. */
static inline uintptr_t weft_unit_lent_lo(const weft_unit *u)
{
    return ((uintptr_t)u->user_stack - u->stack_size) & ~(uintptr_t)15;
}

/* For the SIGSEGV handler (overflow.c): the stack under a unit that runs on its joiner's
 * (LENT, BORROWED), the one of the first lender down the chain that is not lent itself:
 * its descriptor (*st) when weft allocated it, else its bounds [*lo, *top) (the primary
 * ULT's OS stack, a user's stack).  False when they are unknown.  Reads only the lend
 * records, which lie in the frames beneath the running unit's. */
WEFT_INTERNAL bool weft_unit_lent_stack(const weft_unit *u, weft_stack **st, uintptr_t *lo,
                                        uintptr_t *top);

/* Does t pick SC's paths: an SC ULT (not a special unit), in a build that lends stacks
 * (never TSan's)?  Its flags only; a fresh one may take the usual join, on its joiner's
 * stack (lend.c, "scheduler creation in the joiner"). */
static inline bool weft_unit_picks_sc(const weft_unit *t)
{
    /* only a ULT's technique sets the bit, never a special unit's (types.h, fork.c) */
    WEFT_ASSERT(!(t->flags & WEFT_U_F_SC) ||
                (t->flags & (WEFT_U_ULT | WEFT_U_SPECIAL)) == WEFT_U_ULT);
    return !WEFT_TSAN && (t->flags & WEFT_U_F_SC);
}
WEFT_INTERNAL void weft_unit_join_wait(weft_xstream *xs, weft_unit *self, weft_unit *t);
/* join_many: the remaining handles of the list.  Passed to weft_unit_join_wait_chain,
 * it lets a bypass-joined child that finishes start the next fresh child of the list
 * itself (N + 1 switches for N children, exit.c); on return list[first .. next) are
 * joined, `next` > the joined target's index. */
typedef struct weft_join_chain {
    const ABT_thread *list;
    int next, n;
} weft_join_chain;
WEFT_INTERNAL void weft_unit_join_wait_chain(weft_xstream *xs, weft_unit *self, weft_unit *t,
                                             weft_join_chain *chain);

static inline bool weft_unit_done(weft_unit *t)
{
    _Static_assert(sizeof(t->joiner) == 8, "the joiner is one 64-bit word");
    return weft_atomic_eq64_acquire(&t->joiner, (uint64_t)(uintptr_t)WEFT_JOIN_DONE);
}

/* Wait until t finished, without the JOIN event; `chain` (join_many) or NULL. */
static inline int weft_unit_join_quiet(weft_unit *t, weft_join_chain *chain)
{
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    if (WEFT_UNLIKELY(t == self || (t->flags & WEFT_U_SPECIAL)))
        return ABT_ERR_INV_THREAD;
    if (!weft_unit_done(t)) {
        if (chain)
            weft_unit_join_wait_chain(xs, self, t, chain);
        else
            weft_unit_join_wait(xs, self, t);
    }
    return ABT_SUCCESS;
}

/* ABT_thread_join and ABT_task_join: weft_unit_join_wait followed by the JOIN event, its
 * ways out ending with the event (join.c), so that the entry point's join is a tail call
 * and keeps no register across it; ABT_SUCCESS. */
WEFT_INTERNAL int weft_unit_join_told(weft_xstream *xs, weft_unit *self, weft_unit *t);
/* The join of ABT_thread_join and ABT_task_join with its JOIN event; `bad`
 * (ABT_ERR_INV_THREAD, ABT_ERR_INV_TASK) for the caller itself or a special unit. */
static inline int weft_unit_join(weft_unit *t, int bad)
{
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    if (WEFT_UNLIKELY(t == self || (t->flags & WEFT_U_SPECIAL)))
        return bad;
    if (!weft_unit_done(t))
        return weft_unit_join_told(xs, self, t);
    weft_tool_event(t, ABT_TOOL_EVENT_THREAD_JOIN);
    return ABT_SUCCESS;
}

/* The free fast path of ABT_thread_free and ABT_task_free, the twin of the creation's
 * (weft_unit_create_fast): for `u`, whose handle the caller checked and which it saw
 * terminated (weft_unit_done: joined, or needing no join) and without extras
 * (weft_unit_has_extras), that the calling stream may free, with no tool listening and
 * room in the stream's descriptor cache.  Then weft_unit_free_fast releases it without a
 * call, and the entry point has no frame. */
static inline bool weft_unit_free_fits(weft_xstream *xs, weft_unit *u)
{
    return xs != NULL && u != xs->cur && !(u->flags & WEFT_U_SPECIAL) &&
           weft_desc_cache_has_room(&xs->cache) &&
           !weft_tool_wants(ABT_TOOL_EVENT_THREAD_JOIN | ABT_TOOL_EVENT_THREAD_FREE);
}
static inline void weft_unit_free_fast(weft_xstream *xs, weft_unit *u, ABT_thread h)
{
    WEFT_ASSERT(weft_atomic_load_relaxed(&u->handle) == (uintptr_t)h); /* checked */
    (void)h;
    /* the put first: the cache's count read by weft_unit_free_fits is still in a register
     * (the fields' stores may alias it); nobody else sees the cache */
    weft_desc_cache_put(&xs->cache, u);
    weft_unit_release_fields(u);
}
/* The same for a unit whose only extra is the default-size stack it kept since its
 * creation (eager techniques, WEFT_U_F_KEEP): the stack goes back to the cache too. */
static inline bool weft_unit_free_kept_fits(weft_xstream *xs, weft_unit *u)
{
    return !WEFT_ASAN && weft_atomic_load_relaxed(&u->keys) == NULL &&
           !weft_atomic_load_relaxed(&u->cold) && u->stack_kind == WEFT_STACK_CACHED &&
           weft_unit_free_fits(xs, u) && weft_stack_cache_has_room(&xs->cache);
}
static inline void weft_unit_free_kept_fast(weft_xstream *xs, weft_unit *u, ABT_thread h)
{
    weft_stack_cache_put(&xs->cache, u->stack);
    u->stack = NULL;
    weft_unit_free_fast(xs, u, h);
}

/* The events of a free (ABT_thread_free joins first), behind one test of the tool mask. */
#define WEFT_FREE_EVENTS (ABT_TOOL_EVENT_THREAD_JOIN | ABT_TOOL_EVENT_THREAD_FREE)
static inline void weft_unit_free_told(weft_unit *t)
{
    if (weft_tool_wants(WEFT_FREE_EVENTS)) {
        weft_tool_dispatch(t, ABT_TOOL_EVENT_THREAD_JOIN);
        weft_tool_dispatch(t, ABT_TOOL_EVENT_THREAD_FREE);
    }
}

/* Join and free a named unit; `h` is its handle, which the caller checked
 * (t == weft_unit_from(h)). */
static inline int weft_unit_free(weft_unit *t, ABT_thread h)
{
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    if (WEFT_UNLIKELY(t == self || (t->flags & WEFT_U_SPECIAL)))
        return ABT_ERR_INV_THREAD;
    if (!weft_unit_done(t)) {
        weft_unit_join_wait(xs, self, t);
        /* a ULT may come back on another stream; its unit says which */
        xs = self ? self->xs : xs;
    }
    weft_unit_free_told(t);
    weft_unit_release(xs, t);
    return ABT_SUCCESS;
}
/* ... of a unit the caller saw not terminated yet (weft_unit_done false), in one call
 * (join.c): no second look before the join (a unit that terminates meanwhile makes the
 * join return at once), and a unit the join ran to completion here is released without
 * publishing its end first.  On success *thread (*task) is ABT_THREAD_NULL
 * (ABT_TASK_NULL); a bad target gives ABT_ERR_INV_THREAD (ABT_ERR_INV_TASK). */
WEFT_INTERNAL int weft_thread_free_join(weft_unit *t, ABT_thread *thread);
WEFT_INTERNAL int weft_task_free_join(weft_unit *t, ABT_task *task);
/* ABT_thread_free sends a RoC-L ULT (weft_unit_fork_pick: WEFT_U_PICK_ROC_L) to
 * weft_thread_free_join, which has the usual free's frame, an SC ULT (WEFT_U_PICK_SC, not
 * in TSan builds) to weft_thread_free_join_sc, and anything else to
 * weft_thread_free_join_other. */
WEFT_INTERNAL int weft_thread_free_join_sc(weft_unit *t, ABT_thread *thread);
WEFT_INTERNAL int weft_thread_free_join_other(weft_unit *t, ABT_thread *thread);

#endif
