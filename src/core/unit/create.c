/* src/core/unit/create.c - creation: a descriptor's first handle, a thread attribute
 * applied, the push that publishes a unit (a user pool's, a tool's), ABT_thread_create_to,
 * and the techniques that act at creation (a stack taken at once, child-first). */

#include "core/unit/switch.h"

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
                   "tagged by the allocator); see docs/design/api.md, \"Stale handles\"",
                   desc);
    uintptr_t gen = weft_atomic_fetch_add_relaxed(&handle_seed, 1) * WEFT_HANDLE_GEN_STEP;
    weft_atomic_store_relaxed(&((weft_unit *)desc)->handle, a + gen);
}

int weft_unit_apply_attr(weft_unit *u, const struct weft_thread_attr *attr)
{
    u->stack_size = attr->stacksize;
    if (attr->stackaddr) {
        u->stack_kind = WEFT_STACK_USER;
        u->user_stack = attr->stackaddr;
        /* its guard page, in the mprotect modes (core/tool/overflow.h) */
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
        weft_unit_release(weft_xs_self(), u);
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
        weft_unit_release(xs, u);
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

/* Child-first.
 *
 * A child-first unit (core/unit/fork.h, WEFT_U_F_CF) created by a ULT runs at once: its
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

/* The return itself.  Sanitizer builds resume the starter's saved context instead (the
 * same landing): their fiber switch, announced before it, must not be followed by the
 * epilogues of instrumented frames on the stack being left. */
static inline void *roc_leave(weft_xstream *xs, weft_ctx starter)
{
    if (WEFT_ASAN || WEFT_TSAN)
        weft_ctx_jump(starter, xs);
    return xs;
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
    weft_canary_check(c); /* (helper) core/tool/overflow.h */
    weft_tool_switch(c, par, ABT_TOOL_EVENT_THREAD_FINISH | ABT_TOOL_EVENT_THREAD_RUN);
    prep_run_quiet(xs, par);
    weft_set_post(xs, weft_post_finish, c); /* its joiner, if one came meanwhile, is woken */
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
        weft_set_post(xs, weft_post_push, self);
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
            weft_unit_release(xs, u); /* nothing was published */
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
