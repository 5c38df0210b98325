/* src/core/api/task.c - the ABT_task_* entry points.  A tasklet is a weft_unit without the
 * WEFT_U_ULT flag; ABT_task and ABT_thread are the same handle type, and the routines
 * below mirror their ABT_thread_* counterparts with the tasklet error codes. */
#include "core/unit/unit.h"
#include "core/stream/xstream.h"

/* The ABT_task_* routines that mirror an ABT_thread_* one call it and report a bad
 * handle with the tasklet code, as Argobots 1.2 does. */
static inline int as_task_err(int r) { return r == ABT_ERR_INV_THREAD ? ABT_ERR_INV_TASK : r; }

static __attribute__((noinline)) int task_create(ABT_pool pool, void (*task_func)(void *),
                                                 void *arg, ABT_task *newtask)
{
    if (WEFT_UNLIKELY(!weft_initialized()))
        return ABT_ERR_UNINITIALIZED;
    weft_pool *p = weft_pool_from(pool);
    if (WEFT_UNLIKELY(!p || !task_func)) {
        if (newtask)
            *newtask = ABT_TASK_NULL;
        return p ? ABT_ERR_INV_ARG : ABT_ERR_INV_POOL;
    }
    uint16_t flags = (uint16_t)((newtask ? WEFT_U_NAMED : 0) | WEFT_U_DEFAULT_FLAGS);
    return weft_unit_spawn(p, task_func, arg, NULL, flags, newtask);
}

/* The common case without a call (weft_unit_create_fast, unit.h), else task_create. */
WEFT_API WEFT_HOT_ALIGN int ABT_task_create(ABT_pool pool, void (*task_func)(void *), void *arg,
                                            ABT_task *newtask)
{
    weft_xstream *xs = weft_xs_self();
    weft_pool *p = (weft_pool *)pool;
    if (weft_unit_create_fits(xs, p, task_func, 0))
        return weft_unit_create_fast(xs, p, task_func, arg, WEFT_U_DEFAULT_FLAGS, newtask);
    return task_create(pool, task_func, arg, newtask);
}

WEFT_API int ABT_task_create_on_xstream(ABT_xstream xstream, void (*task_func)(void *), void *arg,
                                        ABT_task *newtask)
{
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs) {
        if (newtask)
            *newtask = ABT_TASK_NULL;
        return ABT_ERR_INV_XSTREAM;
    }
    return ABT_task_create(WEFT_POOL_HANDLE(weft_atomic_load_acquire(&xs->main_sched)->pools[0]),
                           task_func, arg, newtask);
}

/* ABT_task_free of a valid handle that needs more than the fast path (thread.c's twin). */
static __attribute__((noinline)) int task_free_unit(weft_unit *u, ABT_task *task)
{
    int r = weft_unit_free(u, *task);
    if (r == ABT_SUCCESS)
        *task = ABT_TASK_NULL;
    return r == ABT_ERR_INV_THREAD ? ABT_ERR_INV_TASK : r;
}

/* ... with extras: a kept stack and nothing else goes without a call too (eager
 * techniques, weft_unit_free_kept_fast), anything else takes the general path. */
static __attribute__((noinline)) int task_free_kept(weft_xstream *xs, weft_unit *u, ABT_task *task)
{
    if (!weft_unit_free_kept_fits(xs, u))
        return task_free_unit(u, task);
    weft_unit_free_kept_fast(xs, u, *task);
    *task = ABT_TASK_NULL;
    return ABT_SUCCESS;
}

/* A terminated unit without a call (weft_unit_free_fast, unit.h), else task_free_unit. */
WEFT_API WEFT_HOT_ALIGN int ABT_task_free(ABT_task *task)
{
    if (!task)
        return ABT_ERR_INV_ARG;
    weft_unit *u = weft_unit_from(*task);
    if (!u)
        return ABT_ERR_INV_TASK;
    if (!weft_unit_done(u)) /* the join comes first, in one call */
        return weft_task_free_join(u, task);
    weft_xstream *xs = weft_xs_self();
    if (WEFT_UNLIKELY(weft_unit_has_extras(u)))
        return task_free_kept(xs, u, task);
    if (!weft_unit_free_fits(xs, u))
        return task_free_unit(u, task);
    weft_unit_free_fast(xs, u, *task);
    *task = ABT_TASK_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_task_join(ABT_task task)
{
    weft_unit *u = weft_unit_from(task);
    if (!u)
        return ABT_ERR_INV_TASK;
    return weft_unit_join(u, ABT_ERR_INV_TASK);
}

WEFT_API int ABT_task_cancel(ABT_task task)
{
    weft_unit *u = weft_unit_from(task);
    if (!u)
        return ABT_ERR_INV_TASK;
    int r = ABT_thread_cancel(task);
    return r == ABT_ERR_INV_THREAD ? ABT_ERR_INV_TASK : r;
}

WEFT_API int ABT_task_self(ABT_task *task)
{
    if (!task)
        return ABT_ERR_INV_ARG;
    if (!weft_initialized()) {
        *task = ABT_TASK_NULL;
        return ABT_ERR_UNINITIALIZED;
    }
    weft_unit *u = weft_self_seen(weft_xs_self()); /* a main scheduler: its handle */
    if (!u || weft_unit_is_ult(u)) {
        *task = ABT_TASK_NULL;
        return u ? ABT_ERR_INV_TASK : ABT_ERR_INV_XSTREAM;
    }
    *task = weft_unit_handle(u);
    return ABT_SUCCESS;
}

WEFT_API int ABT_task_self_id(uint64_t *id)
{
    if (!id)
        return ABT_ERR_INV_ARG;
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    weft_unit *u = weft_self_seen(weft_xs_self()); /* a main scheduler: its handle */
    if (!u)
        return ABT_ERR_INV_XSTREAM;
    if (weft_unit_is_ult(u))
        return ABT_ERR_INV_TASK;
    *id = weft_unit_id(u);
    return ABT_SUCCESS;
}

WEFT_API int ABT_task_get_xstream(ABT_task task, ABT_xstream *xstream)
{
    return as_task_err(ABT_thread_get_last_xstream(task, xstream));
}

WEFT_API int ABT_task_get_state(ABT_task task, ABT_task_state *state)
{
    weft_unit *u = weft_unit_from(task);
    if (!u)
        return ABT_ERR_INV_TASK;
    if (!state)
        return ABT_ERR_INV_ARG;
    switch (weft_atomic_load_acquire(&u->state)) {
    case WEFT_READY: *state = ABT_TASK_STATE_READY; break;
    case WEFT_TERMINATED: *state = ABT_TASK_STATE_TERMINATED; break;
    default: *state = ABT_TASK_STATE_RUNNING; break;
    }
    return ABT_SUCCESS;
}

WEFT_API int ABT_task_get_last_pool(ABT_task task, ABT_pool *pool)
{
    return as_task_err(ABT_thread_get_last_pool(task, pool));
}

WEFT_API int ABT_task_get_last_pool_id(ABT_task task, int *id)
{
    return as_task_err(ABT_thread_get_last_pool_id(task, id));
}

WEFT_API int ABT_task_set_migratable(ABT_task task, ABT_bool flag)
{
    return as_task_err(ABT_thread_set_migratable(task, flag));
}

WEFT_API int ABT_task_is_migratable(ABT_task task, ABT_bool *flag)
{
    return as_task_err(ABT_thread_is_migratable(task, flag));
}

WEFT_API int ABT_task_equal(ABT_task task1, ABT_task task2, ABT_bool *result)
{
    return ABT_thread_equal(task1, task2, result);
}

WEFT_API int ABT_task_get_id(ABT_task task, uint64_t *task_id)
{
    return as_task_err(ABT_thread_get_id(task, task_id));
}

WEFT_API int ABT_task_get_arg(ABT_task task, void **arg)
{
    return as_task_err(ABT_thread_get_arg(task, arg));
}
