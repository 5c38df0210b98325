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
 * can look inside.  A unit gets one when it is pushed (create_unit / u_create_from_thread)
 * and loses it when it is popped (free_unit / u_free): per push, not per association as
 * in Argobots, because the runtime has no hook when a ULT terminates or is freed, and a
 * unit that is not in the pool needs none.  (The documentation leaves the timing of these
 * callbacks to the runtime.)  Both directions of the mapping are needed:
 *   unit -> thread: old-style p_pop returns a unit; ABT_unit_get_thread, ABT_pool_push,
 *                   ABT_pool_remove and ABT_xstream_run_unit receive one.  A global table
 *                   (64 shards, each a spinlock and an open-addressing array) maps every
 *                   live user-made unit to its weft_unit and pool.  An ABT_unit not in the
 *                   table is a weft_unit pointer (built-in pools, ABT_thread_get_unit).
 *   thread -> unit: a 1.2 pop returns the thread, whose unit must be freed.  While the
 *                   thread is in the user pool, the pool owns its links (types.h), so
 *                   `prev` holds the unit: written before the user's push publishes the
 *                   thread, read after the user's pop took it out; the user's own queue
 *                   synchronisation orders the two, no lock of ours is needed.
 * ABT_pool_pop (the unit-level pop) must hand out the user's unit and keep it valid: the
 * thread leaves the pool but keeps its unit and mapping ("detached") until the caller
 * passes the unit to ABT_xstream_run_unit or ABT_pool_push (weft_unit_claim_abt_unit
 * frees it then).  A detached unit that is never claimed (its thread pushed by handle
 * instead) stays mapped until its pool is freed, which frees every unit still mapped to
 * it before calling the user's p_free.
 *
 * Not called from the runtime's internal paths: p_remove.  Its contract says the caller
 * guarantees the unit is in the pool, which join bypass, cancellation, yield_to and
 * migration cannot guarantee against a concurrent pop; so the ops table has no remove and
 * those paths fall back to their slow variants.  ABT_pool_remove (the user's own call)
 * does use p_remove.
 *
 * Failure: push cannot report an error (it runs inside yield and wake-up), so a
 * create_unit that returns ABT_UNIT_NULL, or no memory for the table, aborts with a
 * message. */
#include <stdlib.h>
#include <string.h>

#include "core/pool/pool.h"
#include "core/unit.h"

#define DEF_MAGIC 0x77656674u      /* "weft" */

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
    struct ABT_pool_def head;      /* access = DEF_MAGIC, callbacks NULL: see above */
    struct new_cbs cb;
};

/* weft_pool.impl of a user pool; immutable after ABT_pool_create. */
struct user_pool {
    weft_pool_ops ops;             /* NULL entries where the definition has no callback */
    bool old;                      /* old-style definition: `o`, else `n` */
    struct ABT_pool_def o;
    struct new_cbs n;
};

static inline struct user_pool *upool(weft_pool *p) { return p->impl; }
static inline ABT_pool handle(weft_pool *p) { return (ABT_pool)p; }
static inline bool unit_is_null(ABT_unit u) { return u == NULL || u == ABT_UNIT_NULL; }

/* ---------------------------------------------------------------- unit -> thread table */

#define MAP_SHARDS 64

struct map_entry {
    ABT_unit key;                  /* NULL: free slot */
    weft_unit *thread;
    weft_pool *pool;               /* the pool whose free_unit releases `key` */
};

/* Linear probing, load <= 1/2, deletion by backward shift (no tombstones).  All fields
 * are protected by `lock`; the callbacks of the user are never called with it held. */
struct map_shard {
    weft_spinlock lock;
    uint32_t n, mask;              /* mask = capacity - 1; capacity 0 when e == NULL */
    struct map_entry *e;
} __attribute__((aligned(WEFT_CACHE_LINE)));

static struct map_shard map[MAP_SHARDS];
static _Atomic size_t map_live;    /* entries in all shards: 0 lets lookups skip the table */

static inline uint64_t map_hash(ABT_unit k)
{
    uint64_t x = (uint64_t)(uintptr_t)k >> 2;
    x *= 0x9e3779b97f4a7c15ull;
    return x ^ (x >> 31);
}

static inline struct map_shard *shard_of(uint64_t h) { return &map[h >> 58]; }

static struct map_entry *slot_find(struct map_shard *s, ABT_unit k, uint64_t h)
{
    if (!s->e)
        return NULL;
    for (uint32_t i = (uint32_t)h & s->mask;; i = (i + 1) & s->mask) {
        if (s->e[i].key == k)
            return &s->e[i];
        if (s->e[i].key == NULL)
            return NULL;
    }
}

static void slot_put(struct map_entry *e, uint32_t mask, const struct map_entry *x)
{
    uint32_t i = (uint32_t)map_hash(x->key) & mask;
    while (e[i].key)
        i = (i + 1) & mask;
    e[i] = *x;
}

/* Shard lock held. */
static bool shard_grow(struct map_shard *s)
{
    uint32_t cap = s->e ? (s->mask + 1) * 2 : 16;
    struct map_entry *ne = calloc(cap, sizeof(*ne));
    if (!ne)
        return false;
    if (s->e) {
        for (uint32_t i = 0; i <= s->mask; i++)
            if (s->e[i].key)
                slot_put(ne, cap - 1, &s->e[i]);
        free(s->e);
    }
    s->e = ne;
    s->mask = cap - 1;
    return true;
}

/* Shard lock held; `e` points into s->e. */
static void slot_delete(struct map_shard *s, struct map_entry *e)
{
    uint32_t i = (uint32_t)(e - s->e), j = i;
    for (;;) {
        s->e[i].key = NULL;
        for (;;) {
            j = (j + 1) & s->mask;
            if (s->e[j].key == NULL)
                goto done;
            uint32_t home = (uint32_t)map_hash(s->e[j].key) & s->mask;
            /* s->e[j] may move to i unless its home lies cyclically in (i, j] */
            bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
            if (!stays) {
                s->e[i] = s->e[j];
                i = j;
                break;
            }
        }
    }
done:
    s->n--;
    weft_atomic_fetch_sub_relaxed(&map_live, 1);
}

static void map_insert(ABT_unit k, weft_unit *t, weft_pool *p)
{
    uint64_t h = map_hash(k);
    struct map_shard *s = shard_of(h);
    weft_spin_lock(&s->lock);
    struct map_entry *e = slot_find(s, k, h);
    if (!e) {
        if ((s->n + 1) * 2 > (s->e ? s->mask + 1 : 0) && !shard_grow(s)) {
            weft_spin_unlock(&s->lock);
            weft_fatal("out of memory in the unit table of user-defined pools");
        }
        struct map_entry x = { k, t, p };
        slot_put(s->e, s->mask, &x);
        s->n++;
        weft_atomic_fetch_add_relaxed(&map_live, 1);
    } else {
        /* A unit value reused by the user before we freed the old one cannot happen
         * (units are unique while alive); an entry left by a detached unit of the same
         * value is simply replaced. */
        e->thread = t;
        e->pool = p;
    }
    weft_spin_unlock(&s->lock);
}

/* Look `k` up; with `remove`, also take the entry out.  False if absent. */
static bool map_get(ABT_unit k, bool remove, struct map_entry *out)
{
    if (weft_atomic_load_relaxed(&map_live) == 0)
        return false;
    uint64_t h = map_hash(k);
    struct map_shard *s = shard_of(h);
    weft_spin_lock(&s->lock);
    struct map_entry *e = slot_find(s, k, h);
    if (e) {
        *out = *e;
        if (remove)
            slot_delete(s, e);
    }
    weft_spin_unlock(&s->lock);
    return e != NULL;
}

static void unit_release(weft_pool *p, ABT_unit u);

/* Free every unit still mapped to `p` (its pool is being destroyed; nobody pushes to it
 * any more).  Victims are collected under the shard lock and released without it. */
static void map_sweep(weft_pool *p)
{
    ABT_unit victims[64];
    for (int i = 0; i < MAP_SHARDS; i++) {
        struct map_shard *s = &map[i];
        size_t n;
        do {
            n = 0;
            weft_spin_lock(&s->lock);
            for (uint32_t j = 0; s->e && j <= s->mask && n < 64; j++) {
                /* a deletion may shift another entry into slot j: look at it again */
                while (s->e[j].key && s->e[j].pool == p && n < 64) {
                    victims[n++] = s->e[j].key;
                    slot_delete(s, &s->e[j]);
                }
            }
            if (s->n == 0 && s->e) {           /* give an empty shard's array back */
                free(s->e);
                s->e = NULL;
                s->mask = 0;
            }
            weft_spin_unlock(&s->lock);
            for (size_t k = 0; k < n; k++)
                unit_release(p, victims[k]);
        } while (n == 64);
    }
}

/* ---------------------------------------------------------------- units of a pool */

static ABT_unit unit_make(weft_pool *p, weft_unit *t)
{
    struct user_pool *q = upool(p);
    ABT_unit u = q->old ? q->o.u_create_from_thread((ABT_thread)t)
                        : q->n.create_unit(handle(p), (ABT_thread)t);
    if (unit_is_null(u))
        weft_fatal("user-defined pool %d: create_unit returned ABT_UNIT_NULL", p->id);
    map_insert(u, t, p);
    t->prev = (weft_unit *)(void *)u;
    return u;
}

/* Give a unit (already unmapped) back to the pool that made it. */
static void unit_release(weft_pool *p, ABT_unit u)
{
    struct user_pool *q = upool(p);
    if (q->old)
        q->o.u_free(&u);
    else
        q->n.free_unit(handle(p), u);
}

/* Old style popped `u`: its thread.  The unit stays mapped unless `drop`. */
static weft_unit *thread_of_popped(weft_pool *p, ABT_unit u, bool drop)
{
    struct map_entry e;
    if (!map_get(u, drop, &e))
        weft_fatal("user-defined pool %d popped a unit it was never given", p->id);
    if (drop)
        unit_release(p, u);
    return e.thread;
}

/* 1.2 style popped `t`: drop its unit. */
static weft_unit *drop_unit_of(weft_pool *p, weft_unit *t)
{
    ABT_unit u = (ABT_unit)(void *)t->prev;
    struct map_entry e;
    map_get(u, true, &e);
    unit_release(p, u);
    return t;
}

/* ---------------------------------------------------------------- the ops table */

static void op_push(weft_pool *p, weft_unit *t, ABT_pool_context ctx)
{
    struct user_pool *q = upool(p);
    ABT_unit u = unit_make(p, t);
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
        return unit_is_null(u) ? NULL : thread_of_popped(p, u, true);
    }
    weft_unit *t = weft_unit_from(q->n.pop(handle(p), ctx));
    return t ? drop_unit_of(p, t) : NULL;
}

static weft_unit *op_pop_wait(weft_pool *p, uint64_t timeout_ns, ABT_pool_context ctx)
{
    struct user_pool *q = upool(p);
    double secs = (double)timeout_ns * 1e-9;
    if (q->old) {
        ABT_unit u = q->o.p_pop_timedwait(handle(p), weft_wtime() + secs);
        return unit_is_null(u) ? NULL : thread_of_popped(p, u, true);
    }
    weft_unit *t = weft_unit_from(q->n.pop_wait(handle(p), secs, ctx));
    return t ? drop_unit_of(p, t) : NULL;
}

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
    struct map_entry e;
    a->thread_fn(a->arg, map_get(u, false, &e) ? (ABT_thread)e.thread : (ABT_thread)u);
}

static void print_thread_as_unit(void *arg, ABT_thread th)
{
    struct print_arg *a = arg;
    weft_unit *t = weft_unit_from(th);
    a->unit_fn(a->arg, t ? (ABT_unit)(void *)t->prev : ABT_UNIT_NULL);
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
    struct map_entry e;
    return map_get(unit, false, &e) ? e.thread : (weft_unit *)unit;
}

weft_unit *weft_unit_claim_abt_unit(ABT_unit unit)
{
    struct map_entry e;
    if (!map_get(unit, true, &e))
        return (weft_unit *)unit;
    unit_release(e.pool, unit);
    return e.thread;
}

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
            thread_of_popped(p, u, false);      /* checks it is ours; stays mapped */
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
        *unit = (ABT_unit)(void *)t->prev;      /* detached: stays mapped */
    return ABT_SUCCESS;
}

static int op_remove_unit(weft_pool *p, ABT_unit unit)
{
    struct user_pool *q = upool(p);
    if (!q->old || !q->o.p_remove)
        return ABT_ERR_POOL;
    /* the user's own unit, or a thread handle (ABT_thread_get_unit) of a queued thread */
    struct map_entry e;
    if (!map_get(unit, false, &e)) {
        weft_unit *t = (weft_unit *)unit;
        if (t->pool != p)
            return ABT_ERR_POOL;
        unit = (ABT_unit)(void *)t->prev;
        if (!map_get(unit, false, &e) || e.thread != t)
            return ABT_ERR_POOL;
    }
    if (e.pool != p)
        return ABT_ERR_POOL;
    q->o.p_remove(handle(p), unit);             /* return value ignored, as documented */
    map_get(unit, true, &e);
    unit_release(p, unit);
    return ABT_SUCCESS;
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
    if (q->old) {                               /* old definitions: one p_pop at a time */
        weft_unit *t;
        while (n < len && (t = op_pop(p, ctx)))
            threads[n++] = (ABT_thread)t;
    } else {
        if (!q->n.pop_many)
            return ABT_ERR_POOL;
        if (len > 0)
            q->n.pop_many(handle(p), threads, len, &n, ctx);
        for (size_t i = 0; i < n; i++)
            drop_unit_of(p, (weft_unit *)threads[i]);
    }
    *num = n;
    return ABT_SUCCESS;
}

static int op_push_many(weft_pool *p, const ABT_thread *threads, size_t num,
                                ABT_pool_context ctx)
{
    struct user_pool *q = upool(p);
    if (!q->old && !q->n.push_many)
        return ABT_ERR_POOL;
    ABT_unit buf[64], *units = buf;
    if (!q->old && num > sizeof(buf) / sizeof(*buf) && !(units = malloc(num * sizeof(*units))))
        return ABT_ERR_MEM;
    size_t n = 0;
    for (size_t i = 0; i < num; i++) {
        weft_unit *t = weft_unit_from(threads[i]);
        if (!t)
            continue;                           /* ABT_THREAD_NULL: skipped, as in pool.c */
        t->pool = p;
        weft_atomic_store_relaxed(&t->state, WEFT_READY);
        if (q->old)
            op_push(p, t, ctx);
        else
            units[n++] = unit_make(p, t);
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
    q->ops.pop = op_pop;
    q->ops.size = op_size;
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
    p->caps = 0;
    if (q->old || q->n.get_size)
        p->caps |= WEFT_POOL_CAP_SIZE;
    if (!q->old && q->n.pop_wait)      /* an old definition has no relative pop_wait */
        p->caps |= WEFT_POOL_CAP_POP_WAIT;
    p->ops = &q->ops;
    p->impl = q;
    p->kind = (ABT_pool_kind)-1;   /* not a built-in kind */
    int automatic = 0;
    weft_pool_config_automatic(config, &automatic);
    p->automatic = automatic != 0;
    p->id = weft_atomic_fetch_add_relaxed(&weft_g.next_pool_id, 1);
    ABT_pool_user_init_fn init = q->old ? q->o.p_init : q->n.init;
    if (init && (r = init(handle(p), config)) != ABT_SUCCESS)
        goto fail;                 /* p_free is not called for a pool whose init failed */
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

WEFT_API int ABT_pool_user_def_set_get_size(ABT_pool_user_def def, ABT_pool_user_get_size_fn p_get_size)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.get_size = p_get_size;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_user_def_set_pop_wait(ABT_pool_user_def def, ABT_pool_user_pop_wait_fn p_pop_wait)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.pop_wait = p_pop_wait;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_user_def_set_pop_many(ABT_pool_user_def def, ABT_pool_user_pop_many_fn p_pop_many)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.pop_many = p_pop_many;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_user_def_set_push_many(ABT_pool_user_def def, ABT_pool_user_push_many_fn p_push_many)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.push_many = p_push_many;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_user_def_set_print_all(ABT_pool_user_def def, ABT_pool_user_print_all_fn p_print_all)
{
    struct user_def *d = def_from(def);
    if (!d)
        return ABT_ERR_INV_POOL_USER_DEF;
    d->cb.print_all = p_print_all;
    return ABT_SUCCESS;
}
