/* src/core/pool/user.c - user-defined pools: the 1.0/1.1 `struct ABT_pool_def` and the
 * 1.2 ABT_pool_user_def object, both run behind one weft_pool_ops table, so schedulers,
 * yield, wake-up and every ABT_pool_* routine treat them like any other pool.
 *
 * Telling the two definitions apart.  ABT_pool_create takes an ABT_pool_user_def, which is
 * a `struct ABT_pool_def *`.  A 1.2 definition made here is a struct whose first member is
 * a `struct ABT_pool_def` with `access` = DEF_MAGIC and every callback NULL; an old-style
 * definition must have u_create_from_thread (it is required).  So: u_create_from_thread
 * set -> old style; NULL and access == DEF_MAGIC -> ours; anything else is rejected with
 * ABT_ERR_INV_POOL_USER_DEF.  Both fields exist in either layout, so the test reads
 * nothing out of bounds.
 *
 * Units.  The user's pool stores its own ABT_unit values, which we neither allocate nor
 * can look inside.  As in Argobots, a unit gets one per association: the first time it is
 * bound to a user pool (weft_pool_bind, before the push that needs it), create_unit /
 * u_create_from_thread makes it, and it keeps it across pops and re-pushes (yield,
 * wake-up, ABT_pool_pop + ABT_pool_push) until it is bound to another user pool, its
 * descriptor is released (weft_unit_release), or that pool is freed; then free_unit /
 * u_free gets it back.  Moving to a built-in pool keeps the unit until one of those.
 * Both directions of the mapping are needed:
 *   thread -> unit: weft_unit.uunit (and .upool, the pool that made it).
 *   unit -> thread: old-style p_pop returns a unit; ABT_unit_get_thread, ABT_pool_push,
 *                   ABT_pool_remove and ABT_xstream_run_unit receive one.  A global table
 *                   (64 shards, each a spinlock and an array of bucket chains) holds every
 *                   bound unit; an ABT_unit not in it is a weft_unit pointer (built-in
 *                   pools, ABT_thread_get_unit).
 * The table is intrusive: a unit's entry is its own uunit/upool/unext fields, so binding
 * never allocates.  Each shard starts with MAP_INLINE buckets inside it; when chains grow
 * long, a bigger bucket array is allocated (outside the lock) if memory allows, else the
 * chains just get longer.
 *
 * Protocol.  An entry (uunit != NULL) is linked, unlinked and its three fields written
 * only under the lock of the shard of its key.  Binding is done by whoever owns the unit
 * (it is in no pool and runs nowhere else: the creator, the pusher of a popped unit, the
 * unit itself): the fast check "already bound to p" reads uunit/upool without the lock,
 * which is safe because only the owner changes them, except pool destruction (map_sweep),
 * which unbinds units of a pool nobody may push to any more.  Unbinding (rebind,
 * release, sweep) re-checks uunit under the lock, so exactly one of two racing unbinders
 * gives the unit back.  The user's callbacks are never called with a shard lock held.
 *
 * Failure.  create_unit may return ABT_UNIT_NULL.  Where the API can report it, bind
 * fails with ABT_ERR_OTHER (what Argobots returns) and nothing changes: ABT_thread_create
 * and friends, revive, ABT_pool_push(_thread(s)), ABT_thread_set_associated_pool when the
 * unit can be bound at once, ABT_self_set_associated_pool, ABT_self_schedule,
 * ABT_xstream_run_unit, an immediate migration.  A unit bound to its pool is re-pushed
 * without any callback or allocation, so yield and wake-up cannot fail.  A push that
 * still needs a unit (its pool was changed while it ran or waited in another pool) has no
 * one to report to: the policy is to call create_unit again until it succeeds, yielding
 * the OS thread in between, with one message on stderr; a pending migration whose target
 * cannot make a unit is abandoned with a message (core/unit/yield.c).
 *
 * Which callback answers what (Argobots 1.2, audited routine by routine):
 *   emptiness (ABT_pool_is_empty, every scheduler's stop check): a 1.2 pool's is_empty,
 *     an old pool's p_get_size() == 0; get_size / p_get_size only for ABT_pool_get_size,
 *     _get_total_size and ABT_sched_get_size / _get_total_size (ABT_ERR_POOL without it);
 *   pop_wait (ABT_pool_pop_wait_thread, ABT_pool_pop_wait): 1.2 only, else ABT_ERR_POOL;
 *   pop_many / push_many (ABT_pool_pop_threads / push_threads): the 1.2 callbacks, else
 *     ABT_ERR_POOL; an old pool loops over p_pop / p_push;
 *   p_pop_timedwait (ABT_pool_pop_timedwait) and p_remove (ABT_pool_remove): old pools
 *     only, else ABT_ERR_POOL; ABT_pool_remove returns what p_remove returns;
 *   print_all / p_print_all: ABT_pool_print_all(_threads), else ABT_ERR_POOL;
 *   init at ABT_pool_create (its error is returned, free is then not called), free at
 *     ABT_pool_free.
 * The thread routines without _ex pass ABT_POOL_CONTEXT_OP_POOL_OTHER to the callbacks.
 *
 * Not called from the runtime's internal paths: p_remove.  Its contract says the caller
 * guarantees the unit is in the pool, which join bypass, cancellation, yield_to and
 * migration cannot guarantee against a concurrent pop; so the ops table has no remove and
 * those paths fall back to their slow variants.  ABT_pool_remove (the user's own call)
 * does use p_remove. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool/pool.h"
#include "core/handle.h"

#define DEF_MAGIC 0x77656674u /* "weft" */

struct new_cbs {
    ABT_pool_user_create_unit_fn create_unit;
    ABT_pool_user_free_unit_fn free_unit;
    ABT_pool_user_is_empty_fn is_empty;
    ABT_pool_user_pop_fn pop;
    ABT_pool_user_push_fn push;
    ABT_pool_user_init_fn init;
    ABT_pool_user_free_fn free;
    ABT_pool_user_get_size_fn get_size;
    ABT_pool_user_pop_wait_fn pop_wait;
    ABT_pool_user_pop_many_fn pop_many;
    ABT_pool_user_push_many_fn push_many;
    ABT_pool_user_print_all_fn print_all;
};

/* What an ABT_pool_user_def handle points to.  `head` must stay first. */
struct user_def {
    struct ABT_pool_def head; /* access = DEF_MAGIC, callbacks NULL: see above */
    struct new_cbs cb;
};

/* weft_pool.impl of a user pool; immutable after ABT_pool_create. */
struct user_pool {
    weft_pool_ops ops; /* NULL entries where the definition has no callback */
    bool old;          /* old-style definition: `o`, else `n` */
    struct ABT_pool_def o;
    struct new_cbs n;
};

static inline struct user_pool *upool(weft_pool *p) { return p->impl; }
static inline ABT_pool handle(weft_pool *p) { return (ABT_pool)p; }
static inline bool unit_is_null(ABT_unit u) { return u == NULL || u == ABT_UNIT_NULL; }

/* ---------------------------------------------------------------- unit -> thread table */

#define MAP_SHARDS 64
#define MAP_INLINE 16 /* buckets a shard starts with, inside it */

/* `b` NULL: the inline buckets.  All fields and the chains (weft_unit.unext) are
 * protected by `lock`. */
struct map_shard {
    weft_spinlock lock;
    uint32_t n;    /* entries */
    uint32_t mask; /* buckets - 1, when b != NULL */
    weft_unit **b; /* a heap array, or NULL */
    weft_unit *inline_b[MAP_INLINE];
} __attribute__((aligned(WEFT_CACHE_LINE)));

static struct map_shard map[MAP_SHARDS];
static _Atomic size_t map_live; /* entries in all shards: 0 lets lookups skip the table */

static inline uint64_t map_hash(ABT_unit k)
{
    uint64_t x = (uint64_t)(uintptr_t)k >> 2;
    x *= 0x9e3779b97f4a7c15ull;
    return x ^ (x >> 31);
}

static inline struct map_shard *shard_of(uint64_t h) { return &map[h >> 58]; }

static inline weft_unit **bucket(struct map_shard *s, uint64_t h)
{
    return s->b ? &s->b[h & s->mask] : &s->inline_b[h & (MAP_INLINE - 1)];
}

static inline uint32_t shard_cap(const struct map_shard *s)
{
    return s->b ? s->mask + 1 : MAP_INLINE;
}

/* Shard lock held. */
static weft_unit *chain_find(struct map_shard *s, ABT_unit k, uint64_t h)
{
    weft_unit *t = *bucket(s, h);
    while (t && weft_atomic_load_relaxed(&t->uunit) != k)
        t = t->unext;
    return t;
}

/* Shard lock held; t is linked here under key k. */
static void chain_unlink(struct map_shard *s, weft_unit *t, ABT_unit k)
{
    weft_unit **pp = bucket(s, map_hash(k));
    while (*pp != t)
        pp = &(*pp)->unext;
    *pp = t->unext;
    t->unext = NULL;
    weft_atomic_store_relaxed(&t->uunit, NULL);
    weft_atomic_store_relaxed(&t->upool, NULL);
    s->n--;
    weft_atomic_fetch_sub_relaxed(&map_live, 1);
}

/* More buckets for a shard whose chains average over 2, if memory allows: optional, so
 * a failed allocation only leaves the chains longer.  Called without the lock. */
static void shard_maybe_grow(struct map_shard *s)
{
    weft_spin_lock(&s->lock);
    uint32_t cap = shard_cap(s);
    bool want = s->n > 2 * cap;
    weft_spin_unlock(&s->lock);
    if (!want || cap >= (1u << 24))
        return;
    weft_unit **nb = calloc((size_t)cap * 4, sizeof(*nb));
    if (!nb)
        return;
    weft_unit **old = NULL;
    weft_spin_lock(&s->lock);
    if (shard_cap(s) == cap) { /* nobody grew it meanwhile */
        uint32_t nmask = cap * 4 - 1;
        for (uint32_t i = 0; i < cap; i++) {
            weft_unit *t = s->b ? s->b[i] : s->inline_b[i];
            while (t) {
                weft_unit *next = t->unext;
                weft_unit **nbk = &nb[map_hash(weft_atomic_load_relaxed(&t->uunit)) & nmask];
                t->unext = *nbk;
                *nbk = t;
                t = next;
            }
        }
        old = s->b;
        if (!s->b)
            memset(s->inline_b, 0, sizeof(s->inline_b));
        s->b = nb;
        s->mask = nmask;
        nb = NULL;
    }
    weft_spin_unlock(&s->lock);
    free(nb);
    free(old);
}

/* Link t under k, made by p.  t is unbound and owned by the caller. */
static void map_link(weft_unit *t, ABT_unit k, weft_pool *p)
{
    uint64_t h = map_hash(k);
    struct map_shard *s = shard_of(h);
    weft_spin_lock(&s->lock);
    weft_unit **bk = bucket(s, h);
    weft_atomic_store_relaxed(&t->uunit, k);
    weft_atomic_store_relaxed(&t->upool, p);
    weft_atomic_store_relaxed(&t->cold, 1); /* the release looks at uunit (types.h) */
    t->unext = *bk;
    *bk = t;
    uint32_t n = ++s->n;
    bool grow = n > 2 * shard_cap(s);
    weft_atomic_fetch_add_relaxed(&map_live, 1);
    weft_spin_unlock(&s->lock);
    if (WEFT_UNLIKELY(grow))
        shard_maybe_grow(s);
}

/* The unit bound to k, and the pool that made k; NULL if k is not a bound unit. */
static weft_unit *map_find(ABT_unit k, weft_pool **pool)
{
    if (weft_atomic_load_relaxed(&map_live) == 0)
        return NULL;
    uint64_t h = map_hash(k);
    struct map_shard *s = shard_of(h);
    weft_spin_lock(&s->lock);
    weft_unit *t = chain_find(s, k, h);
    if (t && pool)
        *pool = weft_atomic_load_relaxed(&t->upool);
    weft_spin_unlock(&s->lock);
    return t;
}

static void unit_release(weft_pool *p, ABT_unit u);

/* Unbind t if it is bound (re-checked under the lock) and give its unit back. */
static void unit_unbind(weft_unit *t)
{
    ABT_unit k = weft_atomic_load_relaxed(&t->uunit);
    if (!k)
        return;
    struct map_shard *s = shard_of(map_hash(k));
    weft_pool *p = NULL;
    weft_spin_lock(&s->lock);
    if (weft_atomic_load_relaxed(&t->uunit) == k) {
        p = weft_atomic_load_relaxed(&t->upool);
        chain_unlink(s, t, k);
    }
    weft_spin_unlock(&s->lock);
    if (p)
        unit_release(p, k);
}

/* Unbind every unit bound to `p` (its pool is being destroyed; nobody pushes to it any
 * more).  Victims are collected under the shard lock and released without it. */
static void map_sweep(weft_pool *p)
{
    ABT_unit victims[64];
    for (int i = 0; i < MAP_SHARDS; i++) {
        struct map_shard *s = &map[i];
        size_t n;
        do {
            n = 0;
            weft_spin_lock(&s->lock);
            uint32_t cap = shard_cap(s);
            for (uint32_t j = 0; j < cap && n < 64; j++) {
                weft_unit *t = s->b ? s->b[j] : s->inline_b[j];
                while (t && n < 64) {
                    weft_unit *next = t->unext;
                    if (weft_atomic_load_relaxed(&t->upool) == p) {
                        ABT_unit k = weft_atomic_load_relaxed(&t->uunit);
                        victims[n++] = k;
                        chain_unlink(s, t, k);
                    }
                    t = next;
                }
            }
            weft_unit **old = NULL;
            if (s->n == 0 && s->b) { /* give an empty shard's array back */
                old = s->b;
                s->b = NULL;
                s->mask = 0;
            }
            weft_spin_unlock(&s->lock);
            free(old);
            for (size_t k = 0; k < n; k++)
                unit_release(p, victims[k]);
        } while (n == 64);
    }
}

/* ---------------------------------------------------------------- units of a pool */

static inline ABT_unit unit_of(weft_unit *t) { return weft_atomic_load_relaxed(&t->uunit); }

/* Give a unit (already unbound) back to the pool that made it. */
static void unit_release(weft_pool *p, ABT_unit u)
{
    struct user_pool *q = upool(p);
    if (q->old)
        q->o.u_free(&u);
    else
        q->n.free_unit(handle(p), u);
}

/* ops->bind: t (owned by the caller) gets a unit of p, unless it has one.  The new unit
 * is made before the old one is given back, so a failure changes nothing. */
static int op_bind(weft_pool *p, weft_unit *t)
{
    if (weft_atomic_load_relaxed(&t->upool) == p && unit_of(t))
        return ABT_SUCCESS;
    struct user_pool *q = upool(p);
    ABT_unit u = q->old ? q->o.u_create_from_thread(weft_unit_handle(t))
                        : q->n.create_unit(handle(p), weft_unit_handle(t));
    if (unit_is_null(u))
        return ABT_ERR_OTHER;
    unit_unbind(t);
    map_link(t, u, p);
    return ABT_SUCCESS;
}

/* The unit t is pushed with.  A push cannot report: see "Failure" at the top. */
static ABT_unit unit_for_push(weft_pool *p, weft_unit *t)
{
    if (WEFT_LIKELY(weft_atomic_load_relaxed(&t->upool) == p)) {
        ABT_unit u = unit_of(t);
        if (WEFT_LIKELY(u != NULL))
            return u;
    }
    static _Atomic bool told;
    while (op_bind(p, t) != ABT_SUCCESS) {
        if (!weft_atomic_exchange_relaxed(&told, true))
            weft_warn("user-defined pool %d: create_unit returned ABT_UNIT_NULL for a push "
                      "that cannot report it (a yield or wake-up after the unit's pool "
                      "was changed); retrying until it succeeds. Reported once.",
                      p->id);
        sched_yield();
    }
    return unit_of(t);
}

/* Old style popped `u`: its thread. */
static weft_unit *thread_of_popped(weft_pool *p, ABT_unit u)
{
    weft_unit *t = map_find(u, NULL);
    if (!t)
        weft_fatal("user-defined pool %d popped a unit it was never given", p->id);
    return t;
}

/* ---------------------------------------------------------------- the ops table */

static void op_push(weft_pool *p, weft_unit *t, ABT_pool_context ctx)
{
    struct user_pool *q = upool(p);
    ABT_unit u = unit_for_push(p, t);
    if (q->old)
        q->o.p_push(handle(p), u);
    else
        q->n.push(handle(p), u, ctx);
}

static weft_unit *op_pop(weft_pool *p, ABT_pool_context ctx)
{
    struct user_pool *q = upool(p);
    if (q->old) {
        ABT_unit u = q->o.p_pop(handle(p));
        return unit_is_null(u) ? NULL : thread_of_popped(p, u);
    }
    return weft_unit_from(q->n.pop(handle(p), ctx));
}

static weft_unit *op_pop_wait(weft_pool *p, uint64_t timeout_ns, ABT_pool_context ctx)
{
    struct user_pool *q = upool(p);
    double secs = (double)timeout_ns * 1e-9;
    if (q->old) {
        ABT_unit u = q->o.p_pop_timedwait(handle(p), weft_wtime() + secs);
        return unit_is_null(u) ? NULL : thread_of_popped(p, u);
    }
    return weft_unit_from(q->n.pop_wait(handle(p), secs, ctx));
}

/* ABT_pool_pop_wait_thread(_ex): the caller's seconds go to the 1.2 pop_wait unchanged,
 * as Argobots passes them (no round trip through nanoseconds). */
static weft_unit *op_pop_wait_secs(weft_pool *p, double secs, ABT_pool_context ctx)
{
    return weft_unit_from(upool(p)->n.pop_wait(handle(p), secs, ctx));
}

/* 1.2 definitions: emptiness is the user's is_empty (old ones: p_get_size() == 0). */
static bool op_is_empty(weft_pool *p) { return upool(p)->n.is_empty(handle(p)) != ABT_FALSE; }

static size_t op_size(weft_pool *p)
{
    struct user_pool *q = upool(p);
    if (q->old)
        return q->o.p_get_size(handle(p));
    if (q->n.get_size)
        return q->n.get_size(handle(p));
    return q->n.is_empty(handle(p)) ? 0 : 1;
}

struct print_arg {
    void *arg;
    union {
        void (*thread_fn)(void *, ABT_thread);
        void (*unit_fn)(void *, ABT_unit);
    };
};

static void print_unit_as_thread(void *arg, ABT_unit u)
{
    struct print_arg *a = arg;
    weft_unit *t = map_find(u, NULL);
    a->thread_fn(a->arg, t ? weft_unit_handle(t) : (ABT_thread)u);
}

static void print_thread_as_unit(void *arg, ABT_thread th)
{
    struct print_arg *a = arg;
    weft_unit *t = weft_unit_from(th);
    a->unit_fn(a->arg, t ? unit_of(t) : ABT_UNIT_NULL);
}

static void op_print_all(weft_pool *p, void *arg, void (*fn)(void *, ABT_thread))
{
    struct user_pool *q = upool(p);
    if (q->old) {
        struct print_arg a = { .arg = arg, .thread_fn = fn };
        q->o.p_print_all(handle(p), &a, print_unit_as_thread);
    } else {
        q->n.print_all(handle(p), arg, fn);
    }
}

static void op_destroy(weft_pool *p)
{
    struct user_pool *q = upool(p);
    map_sweep(p);
    if (q->old) {
        if (q->o.p_free)
            q->o.p_free(handle(p));
    } else if (q->n.free) {
        q->n.free(handle(p));
    }
    p->impl = NULL;
    free(q);
}

/* ---------------------------------------------------------------- for pool.c and others */

weft_unit *weft_unit_from_abt_unit(ABT_unit unit)
{
    weft_unit *t = map_find(unit, NULL);
    return t ? t : weft_unit_from((ABT_thread)unit);
}

void weft_user_unit_drop(weft_unit *u) { unit_unbind(u); }

static int op_pop_unit(weft_pool *p, ABT_unit *unit, int how, double secs)
{
    struct user_pool *q = upool(p);
    *unit = ABT_UNIT_NULL;
    ABT_pool h = handle(p);
    const ABT_pool_context ctx = ABT_POOL_CONTEXT_OP_POOL_OTHER;
    if (q->old) {
        ABT_unit u;
        if (how == WEFT_POP_NOW)
            u = q->o.p_pop(h);
        else if (how == WEFT_POP_TIMEDWAIT && q->o.p_pop_timedwait)
            u = q->o.p_pop_timedwait(h, secs);
        else
            return ABT_ERR_POOL;
        if (!unit_is_null(u)) {
            thread_of_popped(p, u); /* checks it is ours */
            *unit = u;
        }
        return ABT_SUCCESS;
    }
    ABT_thread th;
    if (how == WEFT_POP_NOW)
        th = q->n.pop(h, ctx);
    else if (how == WEFT_POP_WAIT && q->n.pop_wait)
        th = q->n.pop_wait(h, secs, ctx);
    else
        return ABT_ERR_POOL;
    weft_unit *t = weft_unit_from(th);
    if (t)
        *unit = unit_of(t); /* stays bound */
    return ABT_SUCCESS;
}

static int op_remove_unit(weft_pool *p, ABT_unit unit)
{
    struct user_pool *q = upool(p);
    if (!q->old || !q->o.p_remove)
        return ABT_ERR_POOL;
    if (unit_is_null(unit))
        return ABT_ERR_INV_UNIT;
    /* the user's own unit, or a thread handle (ABT_thread_get_unit) of a queued thread */
    weft_pool *owner = NULL;
    weft_unit *t = map_find(unit, &owner);
    if (!t) {
        t = weft_unit_from((ABT_thread)unit);
        if (!t)
            return ABT_ERR_INV_UNIT; /* a stale handle */
        if (t->pool != p)
            return ABT_ERR_POOL;
        unit = unit_of(t);
        if (!unit || map_find(unit, &owner) != t)
            return ABT_ERR_POOL;
    }
    if (owner != p)
        return ABT_ERR_POOL;
    /* p_remove's answer is ours (Argobots); refused, the unit stays the pool's.  Removed,
     * it stays bound to its thread, which the caller now holds. */
    return q->o.p_remove(handle(p), unit);
}

static int op_print_units(weft_pool *p, void *arg, void (*fn)(void *, ABT_unit))
{
    struct user_pool *q = upool(p);
    if (q->old) {
        if (!q->o.p_print_all)
            return ABT_ERR_POOL;
        q->o.p_print_all(handle(p), arg, fn);
        return ABT_SUCCESS;
    }
    if (!q->n.print_all)
        return ABT_ERR_POOL;
    struct print_arg a = { .arg = arg, .unit_fn = fn };
    q->n.print_all(handle(p), &a, print_thread_as_unit);
    return ABT_SUCCESS;
}

static int op_pop_many(weft_pool *p, ABT_thread *threads, size_t len, size_t *num,
                       ABT_pool_context ctx)
{
    struct user_pool *q = upool(p);
    size_t n = 0;
    if (q->old) { /* old definitions: one p_pop at a time */
        weft_unit *t;
        while (n < len && (t = op_pop(p, ctx)))
            threads[n++] = weft_unit_handle(t);
    } else {
        if (!q->n.pop_many)
            return ABT_ERR_POOL;
        if (len > 0)
            q->n.pop_many(handle(p), threads, len, &n, ctx);
    }
    *num = n;
    return ABT_SUCCESS;
}

/* ABT_pool_push_threads: every thread is bound first, so a create_unit failure pushes
 * none of them (those already bound keep their unit for a later push). */
static int op_push_many(weft_pool *p, const ABT_thread *threads, size_t num, ABT_pool_context ctx)
{
    struct user_pool *q = upool(p);
    if (!q->old && !q->n.push_many)
        return ABT_ERR_POOL;
    ABT_unit buf[64], *units = buf;
    if (!q->old && num > sizeof(buf) / sizeof(*buf) && !(units = malloc(num * sizeof(*units))))
        return ABT_ERR_MEM;
    for (size_t i = 0; i < num; i++) {
        weft_unit *t = weft_unit_from(threads[i]);
        int r;
        if (t && (r = op_bind(p, t)) != ABT_SUCCESS) {
            if (units != buf)
                free(units);
            return r;
        }
    }
    size_t n = 0;
    for (size_t i = 0; i < num; i++) {
        weft_unit *t = weft_unit_from(threads[i]);
        if (!t)
            continue; /* ABT_THREAD_NULL: skipped, as in pool.c */
        t->pool = p;
        weft_atomic_store_relaxed(&t->state, WEFT_READY);
        if (q->old)
            op_push(p, t, ctx);
        else
            units[n++] = unit_of(t);
    }
    if (n > 0)
        q->n.push_many(handle(p), units, n, ctx);
    if (units != buf)
        free(units);
    return ABT_SUCCESS;
}

/* ---------------------------------------------------------------- ABT_pool_create */

static struct user_def *def_from(ABT_pool_user_def h)
{
    if (h == NULL || h == ABT_POOL_USER_DEF_NULL)
        return NULL;
    if (h->u_create_from_thread != NULL || (uint32_t)h->access != DEF_MAGIC)
        return NULL;
    return (struct user_def *)h;
}

WEFT_API int ABT_pool_create(ABT_pool_user_def def, ABT_pool_config config, ABT_pool *newpool)
{
    if (!newpool)
        return ABT_ERR_INV_ARG;
    *newpool = ABT_POOL_NULL;
    if (def == NULL || def == ABT_POOL_USER_DEF_NULL)
        return ABT_ERR_INV_POOL_USER_DEF;
    struct user_pool *q = calloc(1, sizeof(*q));
    weft_pool *p = calloc(1, sizeof(*p));
    if (!q || !p) {
        free(q);
        free(p);
        return ABT_ERR_MEM;
    }
    int r = ABT_ERR_INV_POOL_USER_DEF;
    struct user_def *nd = def_from(def);
    if (nd) {
        q->old = false;
        q->n = nd->cb;
        p->access = ABT_POOL_ACCESS_MPMC;
    } else if (def->u_create_from_thread) {
        if (!def->u_free || !def->p_get_size || !def->p_push || !def->p_pop)
            goto fail;
        if ((unsigned)def->access > ABT_POOL_ACCESS_MPMC) {
            r = ABT_ERR_INV_POOL_ACCESS;
            goto fail;
        }
        q->old = true;
        q->o = *def;
        p->access = def->access;
    } else {
        goto fail;
    }
    q->ops.name = "USER";
    q->ops.push = op_push;
    q->ops.bind = op_bind;
    q->ops.pop = op_pop;
    q->ops.size = op_size;
    if (!q->old)
        q->ops.is_empty = op_is_empty;
    q->ops.destroy = op_destroy;
    if (q->old ? q->o.p_pop_timedwait != NULL : q->n.pop_wait != NULL)
        q->ops.pop_wait = op_pop_wait;
    if (q->old ? q->o.p_print_all != NULL : q->n.print_all != NULL)
        q->ops.print_all = op_print_all;
    /* remove, take_fresh, wake: none (see the top of this file) */
    q->ops.pop_unit = op_pop_unit;
    q->ops.remove_unit = op_remove_unit;
    q->ops.print_units = op_print_units;
    q->ops.pop_many = op_pop_many;
    q->ops.push_many = op_push_many;
    p->caps = WEFT_POOL_CAP_BIND;
    if (q->old || q->n.get_size)
        p->caps |= WEFT_POOL_CAP_SIZE;
    if (!q->old && q->n.pop_wait) { /* an old definition has no relative pop_wait */
        p->caps |= WEFT_POOL_CAP_POP_WAIT;
        q->ops.pop_wait_secs = op_pop_wait_secs;
    }
    p->ops = &q->ops;
    p->impl = q;
    p->kind = (ABT_pool_kind)-1; /* not a built-in kind */
    int automatic = 0;
    weft_pool_config_automatic(config, &automatic);
    p->automatic = automatic != 0;
    p->id = weft_atomic_fetch_add_relaxed(&weft_g.next_pool_id, 1);
    ABT_pool_user_init_fn init = q->old ? q->o.p_init : q->n.init;
    if (init && (r = init(handle(p), config)) != ABT_SUCCESS)
        goto fail; /* p_free is not called for a pool whose init failed */
    pthread_mutex_lock(&weft_g.lock);
    weft_registry_add_pool(p);
    pthread_mutex_unlock(&weft_g.lock);
    *newpool = handle(p);
    return ABT_SUCCESS;

fail:
    free(q);
    free(p);
    return r;
}

/* ---------------------------------------------------------------- ABT_pool_user_def_* */

WEFT_API int ABT_pool_user_def_create(ABT_pool_user_create_unit_fn p_create_unit,
                                      ABT_pool_user_free_unit_fn p_free_unit,
                                      ABT_pool_user_is_empty_fn p_is_empty,
                                      ABT_pool_user_pop_fn p_pop, ABT_pool_user_push_fn p_push,
                                      ABT_pool_user_def *newdef)
{
    if (!newdef)
        return ABT_ERR_INV_ARG;
    /* on error *newdef stays untouched, as in Argobots 1.x */
    if (!p_create_unit || !p_free_unit || !p_is_empty || !p_pop || !p_push)
        return ABT_ERR_INV_ARG;
    struct user_def *d = calloc(1, sizeof(*d));
    if (!d)
        return ABT_ERR_MEM;
    d->head.access = (ABT_pool_access)DEF_MAGIC;
    d->cb.create_unit = p_create_unit;
    d->cb.free_unit = p_free_unit;
    d->cb.is_empty = p_is_empty;
    d->cb.pop = p_pop;
    d->cb.push = p_push;
    *newdef = &d->head;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_user_def_free(ABT_pool_user_def *def)
{
    if (!def)
        return ABT_ERR_INV_ARG;
    struct user_def *d = def_from(*def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    free(d);
    *def = ABT_POOL_USER_DEF_NULL;
    return ABT_SUCCESS;
}

/* The setters of the optional callbacks; NULL removes one. */

WEFT_API int ABT_pool_user_def_set_init(ABT_pool_user_def def, ABT_pool_user_init_fn p_init)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.init = p_init;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_user_def_set_free(ABT_pool_user_def def, ABT_pool_user_free_fn p_free)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.free = p_free;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_user_def_set_get_size(ABT_pool_user_def def,
                                            ABT_pool_user_get_size_fn p_get_size)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.get_size = p_get_size;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_user_def_set_pop_wait(ABT_pool_user_def def,
                                            ABT_pool_user_pop_wait_fn p_pop_wait)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.pop_wait = p_pop_wait;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_user_def_set_pop_many(ABT_pool_user_def def,
                                            ABT_pool_user_pop_many_fn p_pop_many)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.pop_many = p_pop_many;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_user_def_set_push_many(ABT_pool_user_def def,
                                             ABT_pool_user_push_many_fn p_push_many)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.push_many = p_push_many;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_user_def_set_print_all(ABT_pool_user_def def,
                                             ABT_pool_user_print_all_fn p_print_all)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.print_all = p_print_all;
    return ABT_SUCCESS;
}
