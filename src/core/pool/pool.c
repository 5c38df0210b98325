/* src/core/pool/pool.c - built-in pools (FIFO, FIFO_WAIT) and the ABT_pool_* entry points.
 * The push/pop fast paths are inline in pool.h; this file has creation, removal,
 * waiting, and everything the public API needs. */
#include <stdlib.h>
#include <string.h>

#include "core/pool/pool.h"
#include "core/pool/prio.h"
#include "core/unit.h"

void weft_pool_signal(weft_pool *p)
{
    weft_atomic_fetch_add_seq_cst(&p->seq, 1);
    if (weft_atomic_load_seq_cst(&p->nsleepers))
        weft_futex_wake(&p->seq, 1);
}

void weft_pool_wake_all(weft_pool *p)
{
    if (p->builtin_fifo) {
        if (p->waitable) {
            weft_atomic_fetch_add_seq_cst(&p->seq, 1);
            weft_futex_wake(&p->seq, 1 << 30);
        }
    } else if (p->ops->wake) {
        p->ops->wake(p);
    }
}

static inline void lock(weft_pool *p)
{
    if (p->locked)
        weft_spin_lock(&p->lock);
}

static inline void unlock(weft_pool *p)
{
    if (p->locked)
        weft_spin_unlock(&p->lock);
}

bool weft_pool_take_fresh_slow(weft_pool *p, weft_unit *u)
{
    if (p->ops == &weft_pool_randws_ops)   /* (helper) reads u->ctx under the pool lock */
        return weft_pool_randws_take_fresh(p, u);
    if (weft_pool_is_prio(p))              /* (helper) the same, pool/prio.c */
        return weft_pool_prio_take_fresh(p, u);
    return p->ops->remove && u->ctx == NULL && p->ops->remove(p, u) == ABT_SUCCESS;
}

bool weft_pool_remove_ready(weft_pool *p, weft_unit *u)
{
    return weft_pool_remove(p, u) == ABT_SUCCESS;
}

int weft_pool_remove(weft_pool *p, weft_unit *u)
{
    if (!p->builtin_fifo)
        return p->ops->remove ? p->ops->remove(p, u) : ABT_ERR_POOL;
    int r = ABT_ERR_POOL;
    lock(p);
    if (u->in_pool && u->pool == p) {
        fifo_unlink(p, u);
        r = ABT_SUCCESS;
    }
    unlock(p);
    return r;
}

weft_unit *weft_pool_pop_wait(weft_pool *p, uint64_t timeout_ns, ABT_pool_context ctx)
{
    if (!p->builtin_fifo) {
        if (p->ops->pop_wait)
            return p->ops->pop_wait(p, timeout_ns, ctx);
    } else if (p->waitable) {
        uint64_t deadline = weft_clock_ns() + timeout_ns;
        for (;;) {
            uint32_t seq = weft_atomic_load_seq_cst(&p->seq);
            weft_unit *u = weft_pool_pop_ctx(p, ctx);
            if (u)
                return u;
            uint64_t now = weft_clock_ns();
            if (now >= deadline)
                return NULL;
            weft_atomic_fetch_add_seq_cst(&p->nsleepers, 1);
            int r = weft_futex_wait(&p->seq, seq, deadline - now);
            weft_atomic_fetch_sub_seq_cst(&p->nsleepers, 1);
            if (r == 0) /* woken: by a push, or by a stop request that wants an answer */
                return weft_pool_pop_ctx(p, ctx);
        }
    }
    /* a pool that cannot sleep: poll until the deadline */
    uint64_t deadline = weft_clock_ns() + timeout_ns;
    for (;;) {
        weft_unit *u = weft_pool_pop_ctx(p, ctx);
        if (u || weft_clock_ns() >= deadline)
            return u;
        weft_cpu_relax();
    }
}

int weft_pool_create_builtin(ABT_pool_kind kind, ABT_pool_access access, bool automatic,
                             weft_pool **out)
{
    if (kind != ABT_POOL_FIFO && kind != ABT_POOL_FIFO_WAIT && kind != ABT_POOL_RANDWS)
        return ABT_ERR_INV_POOL_KIND;
    if ((unsigned)access > ABT_POOL_ACCESS_MPMC)
        return ABT_ERR_INV_POOL_ACCESS;
    weft_pool *p = calloc(1, sizeof(*p));
    if (!p)
        return ABT_ERR_MEM;
    p->builtin_fifo = kind != ABT_POOL_RANDWS;
    p->waitable = kind == ABT_POOL_FIFO_WAIT;
    if (kind == ABT_POOL_RANDWS)   /* same list, used as a deque (pool/randws.c) */
        p->ops = &weft_pool_randws_ops;
    p->locked = access != ABT_POOL_ACCESS_PRIV;
    p->automatic = automatic;
    p->kind = kind;
    p->access = access;
    p->id = weft_atomic_fetch_add_relaxed(&weft_g.next_pool_id, 1);
    pthread_mutex_lock(&weft_g.lock);
    weft_registry_add_pool(p);
    pthread_mutex_unlock(&weft_g.lock);
    *out = p;
    return ABT_SUCCESS;
}

void weft_pool_destroy(weft_pool *p)
{
    pthread_mutex_lock(&weft_g.lock);
    weft_registry_del_pool(p);
    pthread_mutex_unlock(&weft_g.lock);
    if (!p->builtin_fifo && p->ops->destroy)
        p->ops->destroy(p);
    free(p);
}

void weft_pool_release(weft_pool *p)
{
    if (weft_atomic_fetch_sub_acq_rel(&p->num_scheds, 1) == 1 && p->automatic)
        weft_pool_destroy(p);
}

/* ---------------------------------------------------------------- public API */

WEFT_API int ABT_pool_create_basic(ABT_pool_kind kind, ABT_pool_access access,
                                   ABT_bool automatic, ABT_pool *newpool)
{
    if (!newpool)
        return ABT_ERR_INV_ARG;
    *newpool = ABT_POOL_NULL;
    weft_pool *p;
    int r = weft_pool_create_builtin(kind, access, automatic != ABT_FALSE, &p);
    if (r == ABT_SUCCESS)
        *newpool = WEFT_POOL_HANDLE(p);
    return r;
}

WEFT_API int ABT_pool_free(ABT_pool *pool)
{
    if (!pool)
        return ABT_ERR_INV_ARG;
    weft_pool *p = weft_pool_from(*pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (weft_atomic_load_seq_cst(&p->num_scheds) > 0)
        return ABT_ERR_POOL;
    weft_pool_destroy(p);
    *pool = ABT_POOL_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_get_access(ABT_pool pool, ABT_pool_access *access)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!access)
        return ABT_ERR_INV_ARG;
    *access = p->access;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_is_empty(ABT_pool pool, ABT_bool *is_empty)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!is_empty)
        return ABT_ERR_INV_ARG;
    if (!p->builtin_fifo && p->ops->size == NULL)
        return ABT_ERR_POOL;
    *is_empty = weft_pool_size(p) == 0 ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_get_size(ABT_pool pool, size_t *size)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!size)
        return ABT_ERR_INV_ARG;
    if (!weft_pool_user_can(p, WEFT_POOL_CAN_GET_SIZE))   /* a user pool without get_size */
        return ABT_ERR_POOL;
    *size = weft_pool_size(p);
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_get_total_size(ABT_pool pool, size_t *size)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!size)
        return ABT_ERR_INV_ARG;
    if (!weft_pool_user_can(p, WEFT_POOL_CAN_GET_SIZE))   /* a user pool without get_size */
        return ABT_ERR_POOL;
    *size = weft_pool_total_size(p);
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_pop_thread_ex(ABT_pool pool, ABT_thread *thread, ABT_pool_context ctx)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!thread)
        return ABT_ERR_INV_ARG;
    weft_unit *u = weft_pool_pop_ctx(p, ctx);
    *thread = u ? (ABT_thread)u : ABT_THREAD_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_pop_thread(ABT_pool pool, ABT_thread *thread)
{
    return ABT_pool_pop_thread_ex(pool, thread, ABT_POOL_CONTEXT_OWNER_PRIMARY);
}

WEFT_API int ABT_pool_pop_threads_ex(ABT_pool pool, ABT_thread *threads, size_t len,
                                     size_t *num, ABT_pool_context ctx)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!num || (len && !threads))
        return ABT_ERR_INV_ARG;
    if (weft_pool_is_user(p))      /* the user's pop_many (pool/user.c) */
        return weft_pool_user_pop_threads(p, threads, len, num, ctx);
    size_t n = 0;
    while (n < len) {
        weft_unit *u = weft_pool_pop_ctx(p, ctx);
        if (!u)
            break;
        threads[n++] = (ABT_thread)u;
    }
    *num = n;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_pop_threads(ABT_pool pool, ABT_thread *threads, size_t len, size_t *num)
{
    return ABT_pool_pop_threads_ex(pool, threads, len, num, ABT_POOL_CONTEXT_OWNER_PRIMARY);
}

/* Pushing ABT_THREAD_NULL is a no-op (Argobots). */
static int push_one(weft_pool *p, ABT_thread thread, ABT_pool_context ctx)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_SUCCESS;
    u->pool = p;
    weft_atomic_store_relaxed(&u->state, WEFT_READY);
    weft_pool_push_ctx(p, u, ctx);
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_push_thread_ex(ABT_pool pool, ABT_thread thread, ABT_pool_context ctx)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    return push_one(p, thread, ctx);
}

WEFT_API int ABT_pool_push_thread(ABT_pool pool, ABT_thread thread)
{
    return ABT_pool_push_thread_ex(pool, thread, ABT_POOL_CONTEXT_OWNER_PRIMARY);
}

WEFT_API int ABT_pool_push_threads_ex(ABT_pool pool, const ABT_thread *threads, size_t num,
                                      ABT_pool_context ctx)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (num && !threads)
        return ABT_ERR_INV_ARG;
    if (weft_pool_is_user(p))      /* the user's push_many (pool/user.c) */
        return weft_pool_user_push_threads(p, threads, num, ctx);
    for (size_t i = 0; i < num; i++)
        push_one(p, threads[i], ctx);
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_push_threads(ABT_pool pool, const ABT_thread *threads, size_t num)
{
    return ABT_pool_push_threads_ex(pool, threads, num, ABT_POOL_CONTEXT_OWNER_PRIMARY);
}

static uint64_t secs_to_ns(double s)
{
    if (!(s > 0))
        return 1;
    if (s > 1.0e9)
        s = 1.0e9;
    return (uint64_t)(s * 1.0e9) + 1;
}

WEFT_API int ABT_pool_pop_wait_thread_ex(ABT_pool pool, ABT_thread *thread, double time_secs,
                                         ABT_pool_context ctx)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!thread)
        return ABT_ERR_INV_ARG;
    if (!weft_pool_user_can(p, WEFT_POOL_CAN_POP_WAIT))   /* a user pool without pop_wait */
        return ABT_ERR_POOL;
    weft_unit *u = weft_pool_pop_wait(p, secs_to_ns(time_secs), ctx);
    *thread = u ? (ABT_thread)u : ABT_THREAD_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_pop_wait_thread(ABT_pool pool, ABT_thread *thread, double time_secs)
{
    return ABT_pool_pop_wait_thread_ex(pool, thread, time_secs, ABT_POOL_CONTEXT_OWNER_PRIMARY);
}

/* For built-in pools an ABT_unit is the unit itself. */
WEFT_API int ABT_pool_pop(ABT_pool pool, ABT_unit *unit)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!unit)
        return ABT_ERR_INV_ARG;
    if (weft_pool_is_user(p))      /* hands out the user's own unit (pool/user.c) */
        return weft_pool_user_pop_unit(p, unit, WEFT_POP_NOW, 0);
    weft_unit *u = weft_pool_pop(p);
    *unit = u ? (ABT_unit)u : ABT_UNIT_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_pop_wait(ABT_pool pool, ABT_unit *unit, double time_secs)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!unit)
        return ABT_ERR_INV_ARG;
    if (weft_pool_is_user(p))      /* pool/user.c */
        return weft_pool_user_pop_unit(p, unit, WEFT_POP_WAIT, time_secs);
    weft_unit *u = weft_pool_pop_wait(p, secs_to_ns(time_secs), ABT_POOL_CONTEXT_OWNER_PRIMARY);
    *unit = u ? (ABT_unit)u : ABT_UNIT_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_pop_timedwait(ABT_pool pool, ABT_unit *unit, double abstime_secs)
{
    weft_pool *p = weft_pool_from(pool);
    if (p && unit && weft_pool_is_user(p))   /* the old p_pop_timedwait (pool/user.c) */
        return weft_pool_user_pop_unit(p, unit, WEFT_POP_TIMEDWAIT, abstime_secs);
    double rel = abstime_secs - weft_wtime();
    return ABT_pool_pop_wait(pool, unit, rel > 0 ? rel : 0);
}

WEFT_API int ABT_pool_remove(ABT_pool pool, ABT_unit unit)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (unit == NULL || unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    if (weft_pool_is_user(p))      /* the old p_remove (pool/user.c) */
        return weft_pool_user_remove_unit(p, unit);
    return weft_pool_remove(p, weft_unit_from_abt_unit(unit));
}

WEFT_API int ABT_pool_push(ABT_pool pool, ABT_unit unit)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (unit == NULL || unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    /* a unit popped from a user pool may be the user's: translate and release it */
    return push_one(p, (ABT_thread)weft_unit_claim_abt_unit(unit), ABT_POOL_CONTEXT_OWNER_PRIMARY);
}

WEFT_API int ABT_pool_print_all_threads(ABT_pool pool, void *arg,
                                        void (*print_fn)(void *, ABT_thread))
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!print_fn)
        return ABT_ERR_INV_ARG;
    if (!p->builtin_fifo) {
        if (!p->ops->print_all)
            return ABT_ERR_POOL;
        p->ops->print_all(p, arg, print_fn);
        return ABT_SUCCESS;
    }
    lock(p);
    for (weft_unit *u = p->head; u; u = u->next)
        print_fn(arg, (ABT_thread)u);
    unlock(p);
    return ABT_SUCCESS;
}

struct unit_print { void *arg; void (*fn)(void *, ABT_unit); };
static void print_as_unit(void *arg, ABT_thread t)
{
    struct unit_print *up = arg;
    up->fn(up->arg, (ABT_unit)t);
}

WEFT_API int ABT_pool_print_all(ABT_pool pool, void *arg, void (*print_fn)(void *, ABT_unit))
{
    if (!print_fn)
        return weft_pool_from(pool) ? ABT_ERR_INV_ARG : ABT_ERR_INV_POOL;
    if (weft_pool_from(pool) && weft_pool_is_user(weft_pool_from(pool)))  /* the user's units */
        return weft_pool_user_print_units(weft_pool_from(pool), arg, print_fn);
    struct unit_print up = { arg, print_fn };
    return ABT_pool_print_all_threads(pool, &up, print_as_unit);
}

WEFT_API int ABT_pool_set_data(ABT_pool pool, void *data)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    p->data = data;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_get_data(ABT_pool pool, void **data)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!data)
        return ABT_ERR_INV_ARG;
    *data = p->data;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_get_id(ABT_pool pool, int *id)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!id)
        return ABT_ERR_INV_ARG;
    *id = p->id;
    return ABT_SUCCESS;
}

WEFT_API int ABT_unit_get_thread(ABT_unit unit, ABT_thread *thread)
{
    if (unit == NULL || unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    if (!thread)
        return ABT_ERR_INV_ARG;
    *thread = (ABT_thread)weft_unit_from_abt_unit(unit);   /* user-made units: pool/user.c */
    return ABT_SUCCESS;
}

WEFT_API int ABT_unit_set_associated_pool(ABT_unit unit, ABT_pool pool)
{
    if (unit == NULL || unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    /* Argobots 1.2 documents this as a no-op kept for compatibility. */
    if (!weft_pool_from(pool))
        return ABT_ERR_INV_POOL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_get_unit(ABT_thread thread, ABT_unit *unit)
{
    if (!weft_unit_from(thread))
        return ABT_ERR_INV_THREAD;
    if (!unit)
        return ABT_ERR_INV_ARG;
    *unit = (ABT_unit)thread;
    return ABT_SUCCESS;
}
