/* src/core/pool/pool.c - what every pool kind shares: creation and registration, the
 * generic answers where a kind lacks an operation, and the ABT_pool_* entry points, all
 * through the ops table and the capability bits (pool.h); no code here asks which kind a
 * pool is, except creation, which maps a built-in kind to its table. */
#include <stdlib.h>
#include <string.h>

#include "core/pool/pool.h"
#include "core/unit/unit.h"

/* Take the first sleeper off p's list (lock held); NULL when none. */
static weft_idle_node *idler_pop_locked(weft_pool *p)
{
    weft_idle_node *n = p->idlers;
    if (!n)
        return NULL;
    p->idlers = n->next;
    if (n->next)
        n->next->prev = NULL;
    n->linked = 0;
    if (!p->idlers)
        p->notify &= (uint8_t)~WEFT_POOL_IDLERS;
    return n;
}

/* A push saw WEFT_POOL_IDLERS: wake one scheduler that sleeps on p.  A node whose stream
 * is no longer asleep (woken by another event, on its way to unregister: it will look at
 * p again) does not count; the next one is tried. */
static void wake_one(weft_pool *p)
{
    for (;;) {
        weft_spin_lock(&p->lock);
        weft_idle_node *n = idler_pop_locked(p);
        _Atomic uint32_t *word = n ? n->word : NULL;
        weft_spin_unlock(&p->lock);
        if (!word || weft_idle_wake_sleeper(word))
            return;
    }
}

_Atomic uint32_t weft_pool_holds;

void weft_pool_await_holds(void)
{
    while (weft_atomic_load_acquire(&weft_pool_holds) != 0)
        weft_cpu_relax();
}

/* weft_pool_fifo_push_ret's rare ends (pool.h), out of line so that its callers make no
 * call of their own. */
int weft_pool_fifo_push_contended(weft_pool *p, weft_unit *u)
{
    weft_pool_fifo_push(p, u);
    return ABT_SUCCESS;
}

int weft_pool_notify_done(weft_pool *p)
{
    weft_pool_notify_held(p);
    return ABT_SUCCESS;
}

/* The IDLERS bit the push saw may be gone (the sleeper woke for something else and left
 * the list): wake_one then finds no node, and that sleeper looks at the pool anyway. */
void weft_pool_notify(weft_pool *p)
{
    if (p->caps & WEFT_POOL_CAP_SIGNAL)
        weft_pool_signal(p);
    if (p->caps & WEFT_POOL_CAP_IDLE_WAKE)
        wake_one(p);
}

void weft_pool_idle_add(weft_pool *p, weft_idle_node *n)
{
    WEFT_ASSERT(p->caps & WEFT_POOL_CAP_IDLE_WAKE);
    weft_spin_lock(&p->lock);
    n->prev = NULL;
    n->next = p->idlers;
    if (p->idlers)
        p->idlers->prev = n;
    p->idlers = n;
    n->linked = 1;
    p->notify |= WEFT_POOL_IDLERS;
    weft_spin_unlock(&p->lock);
}

void weft_pool_idle_del(weft_pool *p, weft_idle_node *n)
{
    weft_spin_lock(&p->lock);
    if (n->linked) {
        if (n->prev)
            n->prev->next = n->next;
        else
            p->idlers = n->next;
        if (n->next)
            n->next->prev = n->prev;
        n->linked = 0;
        if (!p->idlers)
            p->notify &= (uint8_t)~WEFT_POOL_IDLERS;
    }
    weft_spin_unlock(&p->lock);
}

void weft_pool_wake_all(weft_pool *p)
{
    if (p->ops->wake)
        p->ops->wake(p);
    if (!(p->caps & WEFT_POOL_CAP_IDLE_WAKE))
        return;
    for (;;) {
        weft_spin_lock(&p->lock);
        weft_idle_node *n = idler_pop_locked(p);
        _Atomic uint32_t *word = n ? n->word : NULL;
        weft_spin_unlock(&p->lock);
        if (!word)
            return;
        weft_idle_notify(word);
    }
}

bool weft_pool_take_fresh_slow(weft_pool *p, weft_unit *u)
{
    if (p->ops->take_fresh)
        return p->ops->take_fresh(p, u);
    /* a kind that cannot look at a unit under its own lock: remove it if it never ran
     * (u->ctx is only written by the stream that runs u, which it cannot be while
     * queued) */
    return p->ops->remove && u->ctx == NULL && p->ops->remove(p, u) == ABT_SUCCESS;
}

int weft_pool_remove(weft_pool *p, weft_unit *u)
{
    return p->ops->remove ? p->ops->remove(p, u) : ABT_ERR_POOL;
}

weft_unit *weft_pool_pop_wait(weft_pool *p, uint64_t timeout_ns, ABT_pool_context ctx)
{
    if (p->ops->pop_wait)
        return p->ops->pop_wait(p, timeout_ns, ctx);
    /* a pool that cannot sleep: poll until the deadline */
    uint64_t deadline = weft_clock_ns() + timeout_ns;
    for (;;) {
        weft_unit *u = weft_pool_pop_ctx(p, ctx);
        if (u || weft_clock_ns() >= deadline)
            return u;
        weft_cpu_relax();
    }
}

int weft_pool_alloc(const weft_pool_ops *ops, unsigned caps, ABT_pool_kind kind,
                    ABT_pool_access access, bool automatic, size_t size, weft_pool **out)
{
    WEFT_ASSERT(size >= sizeof(weft_pool) && ops->push && ops->pop && ops->size);
    weft_pool *p = calloc(1, size);
    if (!p)
        return ABT_ERR_MEM;
    p->ops = ops;
    if (access == ABT_POOL_ACCESS_PRIV)
        caps &= ~(unsigned)WEFT_POOL_CAP_IDLE_WAKE; /* nobody else may push: no lock */
    p->caps = (uint8_t)caps;
    p->locked = access != ABT_POOL_ACCESS_PRIV;
    p->notify = caps & WEFT_POOL_CAP_SIGNAL ? WEFT_POOL_SIGNAL : 0;
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

int weft_pool_create_builtin(ABT_pool_kind kind, ABT_pool_access access, bool automatic,
                             weft_pool **out)
{
    const weft_pool_ops *ops;
    unsigned caps = WEFT_POOL_CAP_SIZE | WEFT_POOL_CAP_LIST | WEFT_POOL_CAP_IDLE_WAKE;
    switch (kind) {
    case ABT_POOL_FIFO:
        ops = &weft_pool_fifo_ops;
        caps |= WEFT_POOL_CAP_INLINE_FIFO | WEFT_POOL_CAP_POP_WAIT;
        break;
    case ABT_POOL_FIFO_WAIT:
        ops = &weft_pool_fifo_wait_ops;
        caps |= WEFT_POOL_CAP_INLINE_FIFO | WEFT_POOL_CAP_SIGNAL | WEFT_POOL_CAP_POP_WAIT;
        break;
    case ABT_POOL_RANDWS:
        ops = &weft_pool_randws_ops;
        caps |= WEFT_POOL_CAP_POP_WAIT;
        break;
    default: return ABT_ERR_INV_POOL_KIND;
    }
    if ((unsigned)access > ABT_POOL_ACCESS_MPMC)
        return ABT_ERR_INV_POOL_ACCESS;
    return weft_pool_alloc(ops, caps, kind, access, automatic, sizeof(weft_pool), out);
}

void weft_pool_destroy(weft_pool *p)
{
    pthread_mutex_lock(&weft_g.lock);
    weft_registry_del_pool(p);
    pthread_mutex_unlock(&weft_g.lock);
    if (p->ops->destroy)
        p->ops->destroy(p);
    free(p);
}

void weft_pool_release(weft_pool *p)
{
    if (weft_atomic_fetch_sub_acq_rel(&p->num_scheds, 1) == 1 && p->automatic)
        weft_pool_destroy(p);
}

/* ---------------------------------------------------------------- public API */

WEFT_API int ABT_pool_create_basic(ABT_pool_kind kind, ABT_pool_access access, ABT_bool automatic,
                                   ABT_pool *newpool)
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
    /* a 1.2 user pool answers through its is_empty callback, others by size (Argobots) */
    *is_empty = weft_pool_is_empty(p) ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_get_size(ABT_pool pool, size_t *size)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!size)
        return ABT_ERR_INV_ARG;
    if (!weft_pool_can(p, WEFT_POOL_CAP_SIZE)) /* a user pool without get_size */
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
    if (!weft_pool_can(p, WEFT_POOL_CAP_SIZE)) /* a user pool without get_size */
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
    *thread = u ? weft_unit_handle(u) : ABT_THREAD_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_pop_thread(ABT_pool pool, ABT_thread *thread)
{
    return ABT_pool_pop_thread_ex(pool, thread, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

WEFT_API int ABT_pool_pop_threads_ex(ABT_pool pool, ABT_thread *threads, size_t len, size_t *num,
                                     ABT_pool_context ctx)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!num || (len && !threads))
        return ABT_ERR_INV_ARG;
    if (p->ops->pop_many) /* the user's pop_many (pool/user.c) */
        return p->ops->pop_many(p, threads, len, num, ctx);
    size_t n = 0;
    while (n < len) {
        weft_unit *u = weft_pool_pop_ctx(p, ctx);
        if (!u)
            break;
        threads[n++] = weft_unit_handle(u);
    }
    *num = n;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_pop_threads(ABT_pool pool, ABT_thread *threads, size_t len, size_t *num)
{
    return ABT_pool_pop_threads_ex(pool, threads, len, num, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

/* Pushing ABT_THREAD_NULL is a no-op (Argobots). */
static int push_one(weft_pool *p, ABT_thread thread, ABT_pool_context ctx)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_SUCCESS;
    int r = weft_pool_bind(p, u); /* a user pool's unit (pool/user.c): may fail */
    if (r != ABT_SUCCESS)
        return r;
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
    return ABT_pool_push_thread_ex(pool, thread, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

WEFT_API int ABT_pool_push_threads_ex(ABT_pool pool, const ABT_thread *threads, size_t num,
                                      ABT_pool_context ctx)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (num && !threads)
        return ABT_ERR_INV_ARG;
    if (p->ops->push_many) /* the user's push_many (pool/user.c) */
        return p->ops->push_many(p, threads, num, ctx);
    for (size_t i = 0; i < num; i++) {
        int r = push_one(p, threads[i], ctx);
        if (r != ABT_SUCCESS)
            return r;
    }
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_push_threads(ABT_pool pool, const ABT_thread *threads, size_t num)
{
    return ABT_pool_push_threads_ex(pool, threads, num, ABT_POOL_CONTEXT_OP_POOL_OTHER);
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
    if (!weft_pool_can(p, WEFT_POOL_CAP_POP_WAIT)) /* a user pool without pop_wait */
        return ABT_ERR_POOL;
    weft_unit *u = p->ops->pop_wait_secs ? p->ops->pop_wait_secs(p, time_secs, ctx)
                                         : weft_pool_pop_wait(p, secs_to_ns(time_secs), ctx);
    *thread = u ? weft_unit_handle(u) : ABT_THREAD_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_pop_wait_thread(ABT_pool pool, ABT_thread *thread, double time_secs)
{
    return ABT_pool_pop_wait_thread_ex(pool, thread, time_secs, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

/* For built-in pools an ABT_unit is the unit itself. */
WEFT_API int ABT_pool_pop(ABT_pool pool, ABT_unit *unit)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!unit)
        return ABT_ERR_INV_ARG;
    if (p->ops->pop_unit) /* hands out the user's own unit (pool/user.c) */
        return p->ops->pop_unit(p, unit, WEFT_POP_NOW, 0);
    weft_unit *u = weft_pool_pop(p);
    *unit = u ? (ABT_unit)weft_unit_handle(u) : ABT_UNIT_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_pop_wait(ABT_pool pool, ABT_unit *unit, double time_secs)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!unit)
        return ABT_ERR_INV_ARG;
    if (p->ops->pop_unit) /* pool/user.c */
        return p->ops->pop_unit(p, unit, WEFT_POP_WAIT, time_secs);
    weft_unit *u = weft_pool_pop_wait(p, secs_to_ns(time_secs), ABT_POOL_CONTEXT_OP_POOL_OTHER);
    *unit = u ? (ABT_unit)weft_unit_handle(u) : ABT_UNIT_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_pop_timedwait(ABT_pool pool, ABT_unit *unit, double abstime_secs)
{
    weft_pool *p = weft_pool_from(pool);
    if (p && unit && p->ops->pop_unit) /* the old p_pop_timedwait (pool/user.c) */
        return p->ops->pop_unit(p, unit, WEFT_POP_TIMEDWAIT, abstime_secs);
    double rel = abstime_secs - weft_wtime();
    return ABT_pool_pop_wait(pool, unit, rel > 0 ? rel : 0);
}

WEFT_API int ABT_pool_remove(ABT_pool pool, ABT_unit unit)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    /* the old p_remove (pool/user.c); a missing callback is reported first, as in
     * Argobots, even for ABT_UNIT_NULL */
    if (p->ops->remove_unit)
        return p->ops->remove_unit(p, unit);
    if (unit == NULL || unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    weft_unit *u = weft_unit_from_abt_unit(unit);
    if (!u)
        return ABT_ERR_INV_UNIT; /* a stale handle */
    return weft_pool_remove(p, u);
}

WEFT_API int ABT_pool_push(ABT_pool pool, ABT_unit unit)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (unit == NULL || unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    /* a unit popped from a user pool may be the user's: translate it */
    weft_unit *u = weft_unit_from_abt_unit(unit);
    if (!u)
        return ABT_ERR_INV_UNIT; /* a stale handle */
    return push_one(p, weft_unit_handle(u), ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

WEFT_API int ABT_pool_print_all_threads(ABT_pool pool, void *arg,
                                        void (*print_fn)(void *, ABT_thread))
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!print_fn)
        return ABT_ERR_INV_ARG;
    if (!p->ops->print_all)
        return ABT_ERR_POOL;
    p->ops->print_all(p, arg, print_fn);
    return ABT_SUCCESS;
}

struct unit_print {
    void *arg;
    void (*fn)(void *, ABT_unit);
};
static void print_as_unit(void *arg, ABT_thread t)
{
    struct unit_print *up = arg;
    up->fn(up->arg, (ABT_unit)t);
}

WEFT_API int ABT_pool_print_all(ABT_pool pool, void *arg, void (*print_fn)(void *, ABT_unit))
{
    if (!print_fn)
        return weft_pool_from(pool) ? ABT_ERR_INV_ARG : ABT_ERR_INV_POOL;
    weft_pool *p = weft_pool_from(pool);
    if (p && p->ops->print_units) /* the user's own units (pool/user.c) */
        return p->ops->print_units(p, arg, print_fn);
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
    weft_unit *u = weft_unit_from_abt_unit(unit); /* user-made units: pool/user.c */
    if (!u)
        return ABT_ERR_INV_UNIT; /* a stale handle */
    *thread = weft_unit_handle(u);
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
