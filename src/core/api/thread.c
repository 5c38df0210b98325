/* src/core/api/thread.c - the ABT_thread_* entry points: argument checks and handle
 * conversion around the operations of core/unit/.  Tasklets share the descriptor, so most of
 * these accept either kind of unit, as Argobots 1.2 does. */
#include <stdlib.h>
#include <string.h>

#include "core/sched/poll_hook.h"
#include "core/api/thread_attr.h"
#include "core/unit/unit.h"
#include "core/unit/switch.h" /* ABT_thread_yield inlines the yield's bypass */
#include "core/stream/xstream.h"

static inline int need_init(void)
{
    return WEFT_LIKELY(weft_initialized()) ? ABT_SUCCESS : ABT_ERR_UNINITIALIZED;
}

/* The pool a unit created "on a stream" goes to: the first pool of its main scheduler. */
static weft_pool *xstream_first_pool(weft_xstream *xs)
{
    return weft_atomic_load_acquire(&xs->main_sched)->pools[0];
}

static __attribute__((noinline)) int thread_create(ABT_pool pool, void (*thread_func)(void *),
                                                   void *arg, ABT_thread_attr attr,
                                                   ABT_thread *newthread)
{
    if (WEFT_UNLIKELY(need_init() != ABT_SUCCESS))
        return ABT_ERR_UNINITIALIZED;
    weft_pool *p = weft_pool_from(pool);
    if (WEFT_UNLIKELY(!p || !thread_func)) {
        if (newthread)
            *newthread = ABT_THREAD_NULL;
        return p ? ABT_ERR_INV_ARG : ABT_ERR_INV_POOL;
    }
    uint16_t flags = (uint16_t)(WEFT_U_ULT | (newthread ? WEFT_U_NAMED : 0) | WEFT_U_DEFAULT_FLAGS);
    const struct weft_thread_attr *a = weft_thread_attr_from(attr);
    if (WEFT_LIKELY(!a)) /* the common case: a spawn specialised for no attribute */
        return weft_unit_spawn(p, thread_func, arg, NULL, flags, newthread);
    return weft_unit_spawn(p, thread_func, arg, a, flags, newthread);
}

/* The common case without a call (weft_unit_create_fast, unit.h), else thread_create. */
WEFT_API WEFT_HOT_ALIGN int ABT_thread_create(ABT_pool pool, void (*thread_func)(void *), void *arg,
                                              ABT_thread_attr attr, ABT_thread *newthread)
{
    weft_xstream *xs = weft_xs_self();
    weft_pool *p = (weft_pool *)pool;
    uint16_t fork = weft_g.cfg.fork_flags; /* the runtime's technique */
    /* "attr is NULL or ABT_THREAD_ATTR_NULL (9)" as one mask test: the other values it
     * lets through (1, 8) are no object's address */
    if (WEFT_UNLIKELY(((uintptr_t)attr & ~(uintptr_t)ABT_THREAD_ATTR_NULL) != 0)) {
        const struct weft_thread_attr *a = (const struct weft_thread_attr *)attr;
        if (a->fork_flags) /* the technique it names */
            fork = a->fork_flags;
        /* a stack, a callback, not migratable */
        if (!weft_thread_attr_plain(a))
            return thread_create(pool, thread_func, arg, attr, newthread);
    }
    if (weft_unit_create_fits(xs, p, thread_func, 0)) {
        if (WEFT_LIKELY(!(fork & (WEFT_U_F_CF | WEFT_U_F_KEEP))))
            return weft_unit_create_fast(xs, p, thread_func, arg,
                                         (uint16_t)(WEFT_U_ULT | WEFT_U_DEFAULT_FLAGS | fork),
                                         newthread);
        /* a technique that acts at creation (child-first, a stack taken at once),
         * otherwise as the fast path: one call, without the general path's checks and
         * attribute.  (Its flags from an opaque copy of the technique: GCC otherwise
         * computes the unnamed unit's flags ahead of the test, for both paths, and a
         * named unit pays them.) */
        uint16_t f = fork;
        WEFT_OPAQUE(f);
        return weft_unit_create_fork(xs, p, thread_func, arg,
                                     (uint16_t)(WEFT_U_ULT | WEFT_U_DEFAULT_FLAGS | f), newthread);
    }
    return thread_create(pool, thread_func, arg, attr, newthread);
}

WEFT_API int ABT_thread_create_on_xstream(ABT_xstream xstream, void (*thread_func)(void *),
                                          void *arg, ABT_thread_attr attr, ABT_thread *newthread)
{
    if (need_init() != ABT_SUCCESS)
        return ABT_ERR_UNINITIALIZED;
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs) {
        if (newthread)
            *newthread = ABT_THREAD_NULL;
        return ABT_ERR_INV_XSTREAM;
    }
    return ABT_thread_create(WEFT_POOL_HANDLE(xstream_first_pool(xs)), thread_func, arg, attr,
                             newthread);
}

WEFT_API int ABT_thread_create_to(ABT_pool pool, void (*thread_func)(void *), void *arg,
                                  ABT_thread_attr attr, ABT_thread *newthread)
{
    if (need_init() != ABT_SUCCESS)
        return ABT_ERR_UNINITIALIZED;
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    if (!self || !weft_unit_is_ult(self)) {
        if (newthread)
            *newthread = ABT_THREAD_NULL;
        return ABT_ERR_INV_XSTREAM;
    }
    weft_pool *p = weft_pool_from(pool);
    if (p && thread_func && !(self->flags & (WEFT_U_SCHED | WEFT_U_MAIN_SCHED)) &&
        !(p->caps & self->pool->caps & WEFT_POOL_CAP_INLINE_FIFO)) {
        /* a pool that sees contexts: as Argobots 1.2, the new ULT is not pushed, the
         * caller is (ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO), and the new one runs */
        return weft_unit_create_to(xs, self, p, thread_func, arg, weft_thread_attr_from(attr),
                                   newthread);
    }
    /* two inline FIFOs see no contexts: the creation's fast path, then a direct switch */
    ABT_thread t;
    int r = ABT_thread_create(pool, thread_func, arg, attr, &t);
    if (r != ABT_SUCCESS) {
        if (newthread)
            *newthread = ABT_THREAD_NULL;
        return r;
    }
    weft_unit *u = weft_unit_from(t);
    if (!newthread)
        u->flags &= (uint16_t)~WEFT_U_NAMED; /* unnamed: freed when it finishes */
    else
        *newthread = t;
    /* switch to the new thread right away; if that is not possible it simply waits in
     * its pool like any other */
    weft_ult_yield_to(xs, self, u);
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_create_many(int num_threads, ABT_pool *pool_list,
                                    void (**thread_func_list)(void *), void **arg_list,
                                    ABT_thread_attr attr, ABT_thread *newthread_list)
{
    if (need_init() != ABT_SUCCESS)
        return ABT_ERR_UNINITIALIZED;
    if (num_threads < 0 || (num_threads > 0 && (!pool_list || !thread_func_list)))
        return ABT_ERR_INV_ARG;
    const struct weft_thread_attr *a = weft_thread_attr_from(attr);
    if (a && a->stackaddr && num_threads > 1)
        return ABT_ERR_INV_THREAD_ATTR; /* one user stack cannot serve several ULTs */
    for (int i = 0; i < num_threads; i++) {
        int r = ABT_thread_create(pool_list[i], thread_func_list[i], arg_list ? arg_list[i] : NULL,
                                  attr, newthread_list ? &newthread_list[i] : NULL);
        if (r != ABT_SUCCESS)
            return r;
    }
    return ABT_SUCCESS;
}

static int revive(ABT_pool pool, void (*fn)(void *), void *arg, ABT_thread *thread, bool ult,
                  bool to)
{
    if (need_init() != ABT_SUCCESS)
        return ABT_ERR_UNINITIALIZED;
    if (!thread)
        return ABT_ERR_INV_ARG;
    weft_unit *u = weft_unit_from(*thread);
    if (!u)
        return ult ? ABT_ERR_INV_THREAD : ABT_ERR_INV_TASK;
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!fn)
        return ABT_ERR_INV_ARG;
    if (weft_atomic_load_acquire(&u->joiner) != WEFT_JOIN_DONE) {
        /* not done; unless it is TERMINATED already: the finishing stream stores that
         * just before JOIN_DONE (core/unit/exit.c), a few instructions away, and a program
         * that saw the state (ABT_thread_get_state) may revive at once */
        if (weft_atomic_load_acquire(&u->state) != WEFT_TERMINATED)
            return ult ? ABT_ERR_INV_THREAD : ABT_ERR_INV_TASK;
        while (weft_atomic_load_acquire(&u->joiner) != WEFT_JOIN_DONE)
            weft_cpu_relax();
    }
    if (!ult && weft_unit_is_ult(u))
        return ABT_ERR_INV_TASK; /* ABT_thread_revive accepts both kinds */
    ult = weft_unit_is_ult(u);
    if (to && !ult)
        return ABT_ERR_INV_THREAD; /* revive_to needs a ULT to switch to */
    int r = weft_pool_bind(p, u);  /* a user pool's unit: may fail, nothing changed */
    if (r != ABT_SUCCESS)
        return r;
    u->fn = fn;
    u->arg = arg;
    u->pool = p;
    u->ctx = NULL;
    weft_atomic_store_relaxed(&u->joiner, NULL);
    weft_atomic_store_relaxed(&u->state, WEFT_READY);
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    weft_tool_event(u, ABT_TOOL_EVENT_THREAD_REVIVE);
    if (to && self && weft_unit_is_ult(self) &&
        !(self->flags & (WEFT_U_SCHED | WEFT_U_MAIN_SCHED)) &&
        !(p->caps & self->pool->caps & WEFT_POOL_CAP_INLINE_FIFO)) {
        /* a pool that sees contexts: the revived ULT is not pushed, the caller is
         * (ABT_POOL_CONTEXT_OP_THREAD_REVIVE_TO), as Argobots 1.2 does */
        (void)weft_ult_switch_to(xs, self, u, WEFT_TO_REVIVE, false);
        return ABT_SUCCESS;
    }
    if (to && self && weft_unit_is_ult(self)) {
        weft_pool_push_ctx(p, u, ABT_POOL_CONTEXT_OP_THREAD_REVIVE_TO);
        weft_ult_yield_to(xs, self, u);
        return ABT_SUCCESS;
    }
    weft_pool_push_ctx(p, u, ABT_POOL_CONTEXT_OP_THREAD_REVIVE);
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_revive(ABT_pool pool, void (*thread_func)(void *), void *arg,
                               ABT_thread *thread)
{
    return revive(pool, thread_func, arg, thread, true, false);
}

WEFT_API int ABT_thread_revive_to(ABT_pool pool, void (*thread_func)(void *), void *arg,
                                  ABT_thread *thread)
{
    return revive(pool, thread_func, arg, thread, true, true);
}

WEFT_API int ABT_task_revive(ABT_pool pool, void (*task_func)(void *), void *arg, ABT_task *task)
{
    return revive(pool, task_func, arg, task, false, false);
}

WEFT_API WEFT_HOT_ALIGN int ABT_thread_join(ABT_thread thread)
{
    weft_unit *u = weft_unit_from(thread);
    if (WEFT_UNLIKELY(!u))
        return ABT_ERR_INV_THREAD;
    return weft_unit_join(u, ABT_ERR_INV_THREAD);
}

/* ABT_thread_free of a valid handle that needs more than the fast path: a join, a tool,
 * extras to release, a full cache, an error (the unit itself, a special unit). */
static __attribute__((noinline)) int thread_free_unit(weft_unit *u, ABT_thread *thread)
{
    int r = weft_unit_free(u, *thread);
    if (r == ABT_SUCCESS)
        *thread = ABT_THREAD_NULL;
    return r;
}

/* ... with extras: a kept stack and nothing else goes without a call too (eager
 * techniques, weft_unit_free_kept_fast), anything else takes the general path. */
static __attribute__((noinline)) int thread_free_kept(weft_xstream *xs, weft_unit *u,
                                                      ABT_thread *thread)
{
    if (!weft_unit_free_kept_fits(xs, u))
        return thread_free_unit(u, thread);
    weft_unit_free_kept_fast(xs, u, *thread);
    *thread = ABT_THREAD_NULL;
    return ABT_SUCCESS;
}

/* A terminated unit without a call (weft_unit_free_fast, unit.h), else thread_free_unit. */
WEFT_API WEFT_HOT_ALIGN int ABT_thread_free(ABT_thread *thread)
{
    if (WEFT_UNLIKELY(!thread))
        return ABT_ERR_INV_ARG;
    weft_unit *u = weft_unit_from(*thread);
    if (WEFT_UNLIKELY(!u))
        return ABT_ERR_INV_THREAD;
    if (!weft_unit_done(u)) { /* the join comes first, in one call */
        uint16_t pick = weft_unit_fork_pick(u);
        if (pick == WEFT_U_PICK_ROC_L)
            return weft_thread_free_join(u, thread);
        if (!WEFT_TSAN && pick == WEFT_U_PICK_SC)
            return weft_thread_free_join_sc(u, thread);
        return weft_thread_free_join_other(u, thread);
    }
    weft_xstream *xs = weft_xs_self();
    if (WEFT_UNLIKELY(weft_unit_has_extras(u)))
        return thread_free_kept(xs, u, thread);
    if (!weft_unit_free_fits(xs, u))
        return thread_free_unit(u, thread);
    weft_unit_free_fast(xs, u, *thread);
    *thread = ABT_THREAD_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_free_many(int num_threads, ABT_thread *thread_list)
{
    if (num_threads < 0 || (num_threads > 0 && !thread_list))
        return ABT_ERR_INV_ARG;
    for (int i = 0; i < num_threads; i++) {
        int r = ABT_thread_free(&thread_list[i]);
        if (r != ABT_SUCCESS)
            return r;
    }
    return ABT_SUCCESS;
}

/* Joins in list order, as a loop of ABT_thread_join would (same errors, same events);
 * a ULT joiner chains fresh children: each one that finishes starts the next itself
 * (weft_unit_join_wait_chain), N + 1 switches instead of 2 N. */
WEFT_API int ABT_thread_join_many(int num_threads, ABT_thread *thread_list)
{
    if (num_threads < 0 || (num_threads > 0 && !thread_list))
        return ABT_ERR_INV_ARG;
    for (int i = 0; i < num_threads;) {
        weft_unit *t = weft_unit_from(thread_list[i]);
        if (WEFT_UNLIKELY(!t))
            return ABT_ERR_INV_THREAD;
        weft_join_chain c = { thread_list, i + 1, num_threads };
        int r = weft_unit_join_quiet(t, &c);
        if (r != ABT_SUCCESS)
            return r;
        for (; i < c.next; i++) /* what the chain joined, the target included */
            weft_tool_event(weft_unit_from(thread_list[i]), ABT_TOOL_EVENT_THREAD_JOIN);
    }
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_exit(void)
{
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    weft_xstream *xs = weft_xs_self();
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    weft_unit *self = xs->cur;
    if (!self)
        return ABT_ERR_INV_XSTREAM;
    if (!weft_unit_is_ult(self) || (self->flags & WEFT_U_MAIN))
        return ABT_ERR_INV_THREAD;
    weft_ult_exit(xs, self);
}

WEFT_API int ABT_thread_cancel(ABT_thread thread)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (u->flags & WEFT_U_SPECIAL)
        return ABT_ERR_INV_THREAD;
    if (weft_unit_done(u))
        return ABT_SUCCESS;
    /* A unit that has not started is taken out of its pool and finishes at once.  Any
     * other gets a request: a ULT terminates the next time a scheduler would run it
     * (after its next yield or wake-up), without unwinding its stack, as in Argobots; a
     * running tasklet runs to completion. */
    if (u->pool && weft_pool_take_fresh(u->pool, u)) {
        weft_unit_cancel_now(weft_xs_self(), u);
        return ABT_SUCCESS;
    }
    weft_atomic_fetch_or_release(&u->request, WEFT_REQ_CANCEL);
    /* A ULT parked in a face's operation (I/O) is woken by that face once the kernel
     * has let go of it (core/sched/poll_hook.h, `cancel`). */
    weft_poll_hooks_cancel(u);
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_self(ABT_thread *thread)
{
    if (!thread)
        return ABT_ERR_INV_ARG;
    if (!weft_initialized()) {
        *thread = ABT_THREAD_NULL;
        return ABT_ERR_UNINITIALIZED;
    }
    weft_unit *u = weft_self_seen(weft_xs_self()); /* a main scheduler: its handle */
    if (!u || !weft_unit_is_ult(u)) {
        *thread = ABT_THREAD_NULL;
        return u ? ABT_ERR_INV_THREAD : ABT_ERR_INV_XSTREAM;
    }
    *thread = weft_unit_handle(u);
    return ABT_SUCCESS;
}

static uint64_t unit_id(weft_unit *u)
{
    uint64_t id = weft_atomic_load_relaxed(&u->id);
    if (id == 0) {
        uint64_t fresh = weft_new_unit_id();
        if (weft_atomic_cas_strong_seq_cst(&u->id, &id, fresh))
            id = fresh;
    }
    return id - 1; /* ids are handed out from 0 */
}

WEFT_INTERNAL uint64_t weft_unit_id(weft_unit *u) { return unit_id(u); }

WEFT_API int ABT_thread_self_id(ABT_unit_id *id)
{
    if (!id)
        return ABT_ERR_INV_ARG;
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    weft_unit *u = weft_self_seen(weft_xs_self()); /* a main scheduler: its handle */
    if (!u)
        return ABT_ERR_INV_XSTREAM;
    if (!weft_unit_is_ult(u))
        return ABT_ERR_INV_THREAD;
    *id = unit_id(u);
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_get_last_xstream(ABT_thread thread, ABT_xstream *xstream)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!xstream)
        return ABT_ERR_INV_ARG;
    weft_xstream *xs = (u->flags & WEFT_U_MAIN_SCHED) ? u->sched->xs : u->xs;
    *xstream = xs ? (ABT_xstream)xs : ABT_XSTREAM_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_get_state(ABT_thread thread, ABT_thread_state *state)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!state)
        return ABT_ERR_INV_ARG;
    *state = (ABT_thread_state)weft_atomic_load_acquire(&u->state);
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_get_last_pool(ABT_thread thread, ABT_pool *pool)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!pool)
        return ABT_ERR_INV_ARG;
    *pool = u->pool ? WEFT_POOL_HANDLE(u->pool) : ABT_POOL_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_get_last_pool_id(ABT_thread thread, int *id)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!id)
        return ABT_ERR_INV_ARG;
    if (!u->pool)
        return ABT_ERR_INV_POOL;
    *id = u->pool->id;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_set_associated_pool(ABT_thread thread, ABT_pool pool)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    /* A unit waiting in a pool moves to the new one now (its links belong to the old
     * pool); any other unit goes there the next time it is pushed. */
    weft_pool *old = u->pool;
    weft_xstream *xs = weft_xs_self();
    if (old != p && xs && xs->cur == u) { /* the caller itself: it owns its unit */
        int r = weft_pool_bind(p, u);
        if (r != ABT_SUCCESS)
            return r;
        weft_atomic_store_relaxed_plain(&u->pool, p); /* joiners read it */
        return ABT_SUCCESS;
    }
    if (old != p && old && weft_pool_remove(old, u) == ABT_SUCCESS) {
        int r = weft_pool_bind(p, u); /* a user pool's unit: may fail */
        if (r != ABT_SUCCESS) {
            weft_pool_push(old, u); /* back where it was, unchanged */
            return r;
        }
        weft_atomic_store_relaxed_plain(&u->pool, p); /* joiners read it */
        weft_pool_push(p, u);
        return ABT_SUCCESS;
    }
    /* running, blocked, or in a pool it cannot be taken out of: the unit of a user pool is
     * made at its next push (pool/user.c, "Failure") */
    weft_atomic_store_relaxed_plain(&u->pool, p); /* joiners read it */
    return ABT_SUCCESS;
}

/* ABT_thread_yield is at the end of this file, ABT_thread_yield_to in core/unit/yield.c,
 * next to the path it inlines. */

WEFT_API int ABT_thread_resume(ABT_thread thread)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!weft_unit_is_ult(u))
        return ABT_ERR_INV_THREAD;
    /* Only a unit parked by ABT_self_suspend can be resumed (handshake in unit.h). */
    return weft_unit_resume(u, false);
}

WEFT_API int ABT_thread_set_migratable(ABT_thread thread, ABT_bool migratable)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (u->flags & WEFT_U_SPECIAL)
        return ABT_SUCCESS; /* the primary ULT and a main scheduler never migrate */
    if (migratable)
        u->flags |= WEFT_U_MIGRATABLE;
    else
        u->flags &= (uint16_t)~WEFT_U_MIGRATABLE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_is_migratable(ABT_thread thread, ABT_bool *is_migratable)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!is_migratable)
        return ABT_ERR_INV_ARG;
    *is_migratable = (u->flags & WEFT_U_MIGRATABLE) && !(u->flags & WEFT_U_SPECIAL);
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_set_callback(ABT_thread thread, void (*cb_func)(ABT_thread, void *),
                                     void *cb_arg)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    u->migr_cb = cb_func;
    u->migr_cb_arg = cb_arg;
    weft_atomic_store_relaxed(&u->cold, 1); /* the release resets them (types.h) */
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_is_primary(ABT_thread thread, ABT_bool *is_primary)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!is_primary)
        return ABT_ERR_INV_ARG;
    *is_primary = (u->flags & WEFT_U_MAIN) ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_is_unnamed(ABT_thread thread, ABT_bool *is_unnamed)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!is_unnamed)
        return ABT_ERR_INV_ARG;
    /* Argobots 1.2 reports the primary ULT as unnamed: nobody can free it */
    *is_unnamed = (u->flags & WEFT_U_NAMED) && !(u->flags & WEFT_U_MAIN) ? ABT_FALSE : ABT_TRUE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_equal(ABT_thread thread1, ABT_thread thread2, ABT_bool *result)
{
    if (!result)
        return ABT_ERR_INV_ARG;
    /* a pure comparison of values: a stale handle equals itself only */
    *result = weft_handle_equal(thread1, thread2) ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_get_stacksize(ABT_thread thread, size_t *stacksize)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!stacksize)
        return ABT_ERR_INV_ARG;
    /* only fields fixed at creation: the unit may be starting on another stream (which
     * sets stack_kind).  The primary ULT's stack is not the runtime's (Argobots: 0). */
    *stacksize = weft_unit_is_ult(u) && !(u->flags & WEFT_U_MAIN) ? u->stack_size : 0;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_get_stack(ABT_thread thread, void **stackaddr, size_t *stacksize)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    size_t dummy_size;
    void *dummy_addr;
    if (!stacksize)
        stacksize = &dummy_size;
    if (!stackaddr)
        stackaddr = &dummy_addr;
    /* Lazy stacks: a ULT has a runtime stack from its first run until it terminates.
     * Before and after, the address is NULL and the size the one it has or will have.
     * Each field is read once: another stream may be starting or ending the unit. */
    uint8_t kind = u->stack_kind;
    weft_stack *st = u->stack;
    if ((kind == WEFT_STACK_CACHED || kind == WEFT_STACK_OWNED) && !st)
        kind = WEFT_STACK_NONE; /* released meanwhile */
    switch (kind) {
    case WEFT_STACK_USER:
        *stackaddr = u->user_stack;
        *stacksize = u->stack_size;
        break;
    case WEFT_STACK_OS: /* the primary ULT: the OS thread's stack, not ours (Argobots) */
        *stackaddr = NULL;
        *stacksize = 0;
        break;
    case WEFT_STACK_CACHED:
    case WEFT_STACK_OWNED:
        *stackaddr = weft_stack_lo(st);
        *stacksize = u->stack_size;
        break;
    case WEFT_STACK_SC: { /* an SC unit running on its scheduler's loop stack (fork.h) */
        weft_xstream *xs = u->xs;
        weft_stack *ls = xs && xs->sched ? xs->sched->body_stack : NULL;
        *stackaddr = ls ? weft_stack_lo(ls) : NULL;
        *stacksize = ls ? ls->usable : u->stack_size;
        break;
    }
    case WEFT_STACK_LENT:
    case WEFT_STACK_BORROWED: /* the part of its joiner's stack it runs on */
        *stackaddr = (void *)weft_unit_lent_lo(u);
        *stacksize = u->stack_size;
        break;
    default: /* a tasklet, or a ULT whose stack is not allocated yet (lazy) */
        *stackaddr = NULL;
        *stacksize = weft_unit_is_ult(u) ? u->stack_size : 0;
        break;
    }
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_get_id(ABT_thread thread, ABT_unit_id *thread_id)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!thread_id)
        return ABT_ERR_INV_ARG;
    *thread_id = unit_id(u);
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_set_arg(ABT_thread thread, void *arg)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    u->arg = arg;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_get_arg(ABT_thread thread, void **arg)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!arg)
        return ABT_ERR_INV_ARG;
    *arg = u->arg;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_get_thread_func(ABT_thread thread, void (**thread_func)(void *))
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!thread_func)
        return ABT_ERR_INV_ARG;
    *thread_func = u->fn;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_get_attr(ABT_thread thread, ABT_thread_attr *attr)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!attr)
        return ABT_ERR_INV_ARG;
    if (!weft_unit_is_ult(u))
        return ABT_ERR_INV_THREAD;
    struct weft_thread_attr *a;
    int r = weft_thread_attr_new(&a);
    if (r != ABT_SUCCESS) {
        *attr = ABT_THREAD_ATTR_NULL;
        return r;
    }
    size_t sz = 0;
    void *addr = NULL;
    ABT_thread_get_stack(thread, &addr, &sz);
    /* the stack it runs on, as Argobots reports it (runtime stacks too); NULL while a
     * lazy stack is not there (before the first run, after termination) */
    a->stacksize = sz;
    a->stackaddr = addr;
    a->migratable = (u->flags & WEFT_U_MIGRATABLE) != 0;
    a->cb = u->migr_cb;
    a->cb_arg = u->migr_cb_arg;
    weft_thread_attr_reshape(a);
    *attr = (ABT_thread_attr)a;
    return ABT_SUCCESS;
}

/* The yield path is one function: the bypass (ult_yield_checked, core/unit/switch.h) is
 * inlined here. */
WEFT_API int ABT_thread_yield(void)
{
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs ? xs->cur : NULL;
    /* An external thread or a tasklet cannot yield: Argobots makes it a no-op. */
    if (WEFT_UNLIKELY(!self || !weft_unit_is_ult(self)))
        return ABT_SUCCESS;
    /* leave_check, its rare call out of line */
    if (WEFT_LIKELY(self->stack)) {
        weft_canary_check(self);                    /* core/tool/overflow.h */
    } else if (self->stack_kind >= WEFT_STACK_SC) { /* SC or LENT (types.h) */
        weft_ult_yield(xs, self);
        return ABT_SUCCESS;
    }
    return ult_yield_checked(xs, self);
}
