/* src/core/api/self.c - ABT_self_*: questions and actions about the calling work unit.
 * "Self" is the stream's running unit (xs->cur), or inside a main scheduler the handle
 * of that scheduler's ULT (weft_self_seen, unit.h), as Argobots runs every scheduler as a
 * ULT; an external thread has none and gets ABT_ERR_INV_XSTREAM, as in Argobots.  A main
 * scheduler cannot suspend, exit or switch to a ULT by itself (ABT_ERR_INV_THREAD); its
 * ABT_self_yield returns at once. */
#include "core/unit/unit.h"
#include "core/stream/xstream.h"

/* The calling unit, or an error code through *err. */
static inline weft_unit *self_or(int *err)
{
    if (WEFT_UNLIKELY(!weft_initialized())) {
        *err = ABT_ERR_UNINITIALIZED;
        return NULL;
    }
    weft_unit *u = weft_self_seen(weft_xs_self());
    if (WEFT_UNLIKELY(!u))
        *err = ABT_ERR_INV_XSTREAM;
    return u;
}

WEFT_API int ABT_self_get_xstream(ABT_xstream *xstream) { return ABT_xstream_self(xstream); }

WEFT_API int ABT_self_get_xstream_rank(int *rank) { return ABT_xstream_self_rank(rank); }

WEFT_API int ABT_self_get_thread(ABT_thread *thread)
{
    if (!thread)
        return ABT_ERR_INV_ARG;
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    *thread = u ? weft_unit_handle(u) : ABT_THREAD_NULL;
    return err;
}

WEFT_API int ABT_self_get_thread_id(ABT_unit_id *id)
{
    if (!id)
        return ABT_ERR_INV_ARG;
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    *id = weft_unit_id(u);
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_set_specific(ABT_key key, void *value)
{
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    return weft_key_set(u, key, value);
}

WEFT_API int ABT_self_get_specific(ABT_key key, void **value)
{
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    return weft_key_get(u, key, value);
}

WEFT_API int ABT_key_set(ABT_key key, void *value)
{
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    return weft_key_set(u, key, value);
}

WEFT_API int ABT_key_get(ABT_key key, void **value)
{
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    return weft_key_get(u, key, value);
}

WEFT_API int ABT_thread_set_specific(ABT_thread thread, ABT_key key, void *value)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    return weft_key_set(u, key, value);
}

WEFT_API int ABT_thread_get_specific(ABT_thread thread, ABT_key key, void **value)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    return weft_key_get(u, key, value);
}

WEFT_API int ABT_self_get_type(ABT_unit_type *type)
{
    if (!type)
        return ABT_ERR_INV_ARG;
    if (!weft_initialized()) {
        *type = ABT_UNIT_TYPE_EXT;
        return ABT_ERR_UNINITIALIZED;
    }
    weft_unit *u = weft_self_seen(weft_xs_self());
    if (!u) {
        *type = ABT_UNIT_TYPE_EXT;
        return ABT_ERR_INV_XSTREAM;
    }
    *type = weft_unit_is_ult(u) ? ABT_UNIT_TYPE_THREAD : ABT_UNIT_TYPE_TASK;
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_is_primary(ABT_bool *is_primary)
{
    if (!is_primary)
        return ABT_ERR_INV_ARG;
    *is_primary = ABT_FALSE;
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    if (!weft_unit_is_ult(u))
        return ABT_ERR_INV_THREAD;
    *is_primary = (u->flags & WEFT_U_MAIN) ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_on_primary_xstream(ABT_bool *on_primary)
{
    if (!on_primary)
        return ABT_ERR_INV_ARG;
    *on_primary = ABT_FALSE;
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    (void)u;
    *on_primary = weft_xs_self()->primary ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_is_unnamed(ABT_bool *is_unnamed)
{
    if (!is_unnamed)
        return ABT_ERR_INV_ARG;
    *is_unnamed = ABT_FALSE;
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    *is_unnamed = (u->flags & WEFT_U_NAMED) && !(u->flags & WEFT_U_MAIN) ? ABT_FALSE : ABT_TRUE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_get_last_pool(ABT_pool *pool)
{
    if (!pool)
        return ABT_ERR_INV_ARG;
    *pool = ABT_POOL_NULL;
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    *pool = u->pool ? WEFT_POOL_HANDLE(u->pool) : ABT_POOL_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_get_last_pool_id(int *pool_id)
{
    if (!pool_id)
        return ABT_ERR_INV_ARG;
    *pool_id = -1;
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    *pool_id = u->pool ? u->pool->id : -1;
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_set_associated_pool(ABT_pool pool)
{
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    int r = weft_pool_bind(p, u); /* the caller owns itself; a user pool's unit may fail */
    if (r != ABT_SUCCESS)
        return r;
    weft_atomic_store_relaxed_plain(&u->pool, p); /* a joiner may read it (core/unit/join.c) */
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_get_unit(ABT_unit *unit)
{
    if (!unit)
        return ABT_ERR_INV_ARG;
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    *unit = (ABT_unit)weft_unit_handle(u);
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_yield(void)
{
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    if (!weft_unit_is_ult(u))
        return ABT_ERR_INV_THREAD;
    if (u->flags & WEFT_U_MAIN_SCHED)
        return ABT_SUCCESS; /* a main scheduler: it runs again at once anyway */
    weft_ult_yield(weft_xs_self(), u);
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_exit(void)
{
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    if (!weft_unit_is_ult(u) || (u->flags & WEFT_U_SPECIAL))
        return ABT_ERR_INV_THREAD;
    weft_ult_exit(weft_xs_self(), u);
}

WEFT_API int ABT_self_suspend(void)
{
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    if (!weft_unit_is_ult(u) || (u->flags & WEFT_U_MAIN_SCHED))
        return ABT_ERR_INV_THREAD;
    weft_unit_suspend_self(weft_xs_self(), u);
    return ABT_SUCCESS;
}

/* The *_to family: the caller gives the CPU straight to `thread` (no scheduler) and
 * yields, suspends or terminates itself; the resume_* variants first resume a suspended
 * target, the others take a ready target out of its pool. */
static int to_common(ABT_thread thread, int self_mode, bool resume)
{
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    if (!weft_unit_is_ult(u) || (u->flags & WEFT_U_MAIN_SCHED))
        return ABT_ERR_INV_THREAD;
    weft_unit *to = weft_unit_from(thread);
    if (!to || to == u || !weft_unit_is_ult(to) || (to->flags & WEFT_U_MAIN_SCHED))
        return ABT_ERR_INV_THREAD;
    if (self_mode == WEFT_TO_EXIT && ((u->flags & WEFT_U_MAIN) || (to->flags & WEFT_U_MAIN)))
        return ABT_ERR_INV_THREAD;
    return weft_ult_switch_to(weft_xs_self(), u, to, self_mode, resume);
}

WEFT_API int ABT_self_yield_to(ABT_thread thread)
{
    return to_common(thread, WEFT_TO_YIELD, false);
}

WEFT_API int ABT_self_resume_yield_to(ABT_thread thread)
{
    return to_common(thread, WEFT_TO_YIELD, true);
}

WEFT_API int ABT_self_suspend_to(ABT_thread thread)
{
    return to_common(thread, WEFT_TO_SUSPEND, false);
}

WEFT_API int ABT_self_resume_suspend_to(ABT_thread thread)
{
    return to_common(thread, WEFT_TO_SUSPEND, true);
}

WEFT_API int ABT_self_exit_to(ABT_thread thread) { return to_common(thread, WEFT_TO_EXIT, false); }

WEFT_API int ABT_self_resume_exit_to(ABT_thread thread)
{
    return to_common(thread, WEFT_TO_EXIT, true);
}

/* Run `thread` now as a child of the caller, associated with `pool` first unless it is
 * ABT_POOL_NULL; the caller continues when the child finishes, yields or blocks
 * (Argobots; the same as ABT_xstream_run_unit).  In a scheduler - a main one, whose self
 * is its handle while xs->cur is NULL, or a stacked one, whose ULT is xs->cur - the
 * scheduler runs it; in any other ULT a parent record stands in (core/unit/run.c). */
WEFT_API int ABT_self_schedule(ABT_thread thread, ABT_pool pool)
{
    weft_unit *t = weft_unit_from(thread);
    if (!t)
        return ABT_ERR_INV_THREAD;
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    if (t == u || !weft_unit_is_ult(u) || (t->flags & WEFT_U_MAIN_SCHED))
        return ABT_ERR_INV_THREAD;
    /* validated: now take the target out of its current pool, then re-associate it */
    bool removed = t->in_pool;
    if (removed && weft_pool_remove(t->pool, t) != ABT_SUCCESS)
        return ABT_ERR_INV_THREAD;
    weft_pool *p = weft_pool_from(pool);
    if (p && p != t->pool) {
        int r = weft_pool_bind(p, t); /* a user pool's unit: may fail */
        if (r != ABT_SUCCESS) {
            if (removed)
                weft_pool_push(t->pool, t); /* back to its pool, unchanged */
            return r;
        }
        weft_atomic_store_relaxed_plain(&t->pool, p); /* a joiner may read it (core/unit/join.c) */
    }
    weft_xstream *xs = weft_xs_self();
    if (xs->cur == xs->sched->unit) {
        weft_sched_run_unit(xs, xs->sched, t);
        return ABT_SUCCESS;
    }
    weft_ult_run_as_parent(xs, u, t);
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_set_arg(void *arg)
{
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    u->arg = arg;
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_get_arg(void **arg)
{
    if (!arg)
        return ABT_ERR_INV_ARG;
    *arg = NULL;
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    *arg = u->arg;
    return ABT_SUCCESS;
}

WEFT_API int ABT_self_get_thread_func(void (**thread_func)(void *))
{
    if (!thread_func)
        return ABT_ERR_INV_ARG;
    *thread_func = NULL;
    int err = ABT_SUCCESS;
    weft_unit *u = self_or(&err);
    if (!u)
        return err;
    *thread_func = u->fn;
    return ABT_SUCCESS;
}
