/* src/core/pool/prio.c - a priority FIFO pool (Argobots issue #355 asks for a predefined
 * priority-aware pool): weft_pool_create_prio, weft_thread_create_prio,
 * weft_thread_set_prio / get_prio (include/weft.h).
 *
 * num_levels FIFO queues in one pool, level 0 first.  pop takes the head of the lowest
 * non-empty level, found with one count-trailing-zeros on a bitmap of non-empty levels,
 * so a pop costs the same as in a FIFO pool whatever the number of levels.  Queues are
 * the intrusive next/prev links of the units (the pool owns them while a unit is queued)
 * and one spinlock guards the whole pool (none with ABT_POOL_ACCESS_PRIV).  While a unit
 * is queued, its in_pool byte holds its level + 1 (still "true" for the rest of the
 * runtime), so remove and take_fresh know which queue to unlink it from.
 *
 * Where a push goes, by precedence:
 *   1. the push context's priority hint: ABT_POOL_CONTEXT_PRIO_HIGH_PRIO -> level 0,
 *      ABT_POOL_CONTEXT_PRIO_LOW_PRIO -> the last level (that push only);
 *   2. the unit's own priority (weft_thread_create_prio / weft_thread_set_prio; kept
 *      across yields and wake-ups; clamped to the pool's levels);
 *   3. the default level, num_levels / 2: units without a priority sit in the middle,
 *      so there is room both above and below them.
 * Within a level the order is FIFO: a yielding ULT goes to the tail of its level.
 * weft_thread_create_prio gives the priority to the push that creates the ULT through a
 * thread-local value, so the ULT is queued at its level from the start (it may run on
 * another stream before ABT_thread_create even returns).
 *
 * The pool is waitable like FIFO_WAIT (an event count `seq` as futex word, `nsleepers`):
 * a BASIC_WAIT scheduler or ABT_pool_pop_wait_thread sleeps until a push. */
#include <stdlib.h>

#include "core/pool/prio.h"
#include "core/unit/unit.h"
#include "weft.h"

struct level {
    weft_unit *head, *tail;
};

struct prio_pool {
    weft_pool base; /* first: weft_pool_destroy frees the whole block */
    int nlevels;
    int dflt;          /* level of units without a priority */
    uint64_t nonempty; /* bit l: level l has units (under base.lock) */
    struct level lv[];
};

static inline struct prio_pool *pp(weft_pool *p) { return (struct prio_pool *)p; }

/* Priority handed from weft_thread_create_prio to the push of the ULT it creates. */
static __thread int create_prio; /* level + 1, 0 = none */

static inline int unit_prio(weft_unit *u) { return weft_atomic_load_relaxed_plain(&u->prio); }

static int level_for(struct prio_pool *q, weft_unit *u, ABT_pool_context ctx)
{
    if (ctx & ABT_POOL_CONTEXT_PRIO_HIGH_PRIO)
        return 0;
    if (ctx & ABT_POOL_CONTEXT_PRIO_LOW_PRIO)
        return q->nlevels - 1;
    int pr = unit_prio(u);
    if (pr == 0 && create_prio &&
        (ctx & (ABT_POOL_CONTEXT_OP_THREAD_CREATE | ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO))) {
        pr = create_prio;
        create_prio = 0;
        weft_atomic_store_relaxed_plain(&u->prio, (uint8_t)pr);
    }
    if (pr == 0)
        return q->dflt;
    return pr - 1 < q->nlevels ? pr - 1 : q->nlevels - 1;
}

static void link_tail(struct prio_pool *q, weft_unit *u, int l)
{
    struct level *v = &q->lv[l];
    u->next = NULL;
    u->prev = v->tail;
    if (v->tail)
        v->tail->next = u;
    else
        v->head = u;
    v->tail = u;
    u->in_pool = (uint8_t)(l + 1);
    q->nonempty |= (uint64_t)1 << l;
    weft_pool *p = &q->base;
    weft_atomic_add_sole_relaxed(&p->size, 1);
}

static void unlink_unit(struct prio_pool *q, weft_unit *u)
{
    int l = u->in_pool - 1;
    struct level *v = &q->lv[l];
    if (u->prev)
        u->prev->next = u->next;
    else
        v->head = u->next;
    if (u->next)
        u->next->prev = u->prev;
    else
        v->tail = u->prev;
    if (!v->head)
        q->nonempty &= ~((uint64_t)1 << l);
    u->in_pool = 0;
    weft_pool *p = &q->base;
    weft_atomic_add_sole_relaxed(&p->size, (size_t)-1);
}

static void prio_push(weft_pool *p, weft_unit *u, ABT_pool_context ctx)
{
    struct prio_pool *q = pp(p);
    int l = level_for(q, u, ctx);
    weft_pool_lock(p);
    link_tail(q, u, l);
    unsigned f = p->notify; /* IDLERS: read under the lock */
    weft_pool_hold();       /* the pool is touched after the unlock (pool.h) */
    weft_pool_unlock(p);
    weft_pool_signal(p); /* prio_pop_wait's event count */
    if (WEFT_UNLIKELY(f & WEFT_POOL_IDLERS))
        weft_pool_notify(p); /* a scheduler sleeps on it */
    weft_pool_unhold();
}

static weft_unit *prio_pop(weft_pool *p, ABT_pool_context ctx)
{
    (void)ctx;
    if (weft_atomic_load_relaxed(&p->size) == 0)
        return NULL;
    struct prio_pool *q = pp(p);
    weft_unit *u = NULL;
    weft_pool_lock(p);
    if (q->nonempty) {
        u = q->lv[__builtin_ctzll(q->nonempty)].head;
        unlink_unit(q, u);
    }
    weft_pool_unlock(p);
    return u;
}

/* Sleep on the event count like FIFO_WAIT (pool.c): announce, re-check, futex-wait. */
static weft_unit *prio_pop_wait(weft_pool *p, uint64_t timeout_ns, ABT_pool_context ctx)
{
    return weft_pool_seq_pop_wait(p, timeout_ns, ctx, prio_pop);
}

static int prio_remove(weft_pool *p, weft_unit *u)
{
    int r = ABT_ERR_POOL;
    weft_pool_lock(p);
    if (u->in_pool && u->pool == p) {
        unlink_unit(pp(p), u);
        r = ABT_SUCCESS;
    }
    weft_pool_unlock(p);
    return r;
}

static bool prio_take_fresh(weft_pool *p, weft_unit *u)
{
    bool ok = false;
    weft_pool_lock(p);
    if (u->in_pool && u->pool == p && u->ctx == NULL) {
        unlink_unit(pp(p), u);
        ok = true;
    }
    weft_pool_unlock(p);
    return ok;
}

static void prio_print_all(weft_pool *p, void *arg, void (*fn)(void *, ABT_thread))
{
    struct prio_pool *q = pp(p);
    weft_pool_lock(p);
    for (int l = 0; l < q->nlevels; l++)
        for (weft_unit *u = q->lv[l].head; u; u = u->next)
            fn(arg, weft_unit_handle(u));
    weft_pool_unlock(p);
}

const weft_pool_ops weft_pool_prio_ops = {
    .name = "PRIO_FIFO (weft)",
    .push = prio_push,
    .pop = prio_pop,
    .pop_wait = prio_pop_wait,
    .remove = prio_remove,
    .take_fresh = prio_take_fresh,
    .size = weft_fifo_size, /* p->size counts every level */
    .wake = weft_pool_seq_wake_all,
    .print_all = prio_print_all,
    .destroy = NULL,
};

/* ---------------------------------------------------------------- public API */

WEFT_API int weft_pool_create_prio(ABT_pool_access access, int num_levels, ABT_bool automatic,
                                   ABT_pool *newpool)
{
    if (!newpool)
        return ABT_ERR_INV_ARG;
    *newpool = ABT_POOL_NULL;
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    if (num_levels < 1 || num_levels > WEFT_PRIO_MAX_LEVELS)
        return ABT_ERR_INV_ARG;
    if ((unsigned)access > ABT_POOL_ACCESS_MPMC)
        return ABT_ERR_INV_POOL_ACCESS;
    weft_pool *p;
    int r =
        weft_pool_alloc(&weft_pool_prio_ops,
                        WEFT_POOL_CAP_SIZE | WEFT_POOL_CAP_POP_WAIT |
                            WEFT_POOL_CAP_IDLE_WAKE, /* signals in prio_push */
                        (ABT_pool_kind)-2 /* not an Argobots kind */, access,
                        automatic != ABT_FALSE,
                        sizeof(struct prio_pool) + (size_t)num_levels * sizeof(struct level), &p);
    if (r != ABT_SUCCESS)
        return r;
    struct prio_pool *q = pp(p);
    q->nlevels = num_levels;
    q->dflt = num_levels / 2;
    *newpool = WEFT_POOL_HANDLE(p);
    return ABT_SUCCESS;
}

WEFT_API int weft_pool_get_num_levels(ABT_pool pool, int *num_levels)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p || !weft_pool_is_prio(p))
        return ABT_ERR_INV_POOL;
    if (!num_levels)
        return ABT_ERR_INV_ARG;
    *num_levels = pp(p)->nlevels;
    return ABT_SUCCESS;
}

WEFT_API int weft_thread_create_prio(ABT_pool pool, void (*thread_func)(void *), void *arg,
                                     ABT_thread_attr attr, int prio, ABT_thread *newthread)
{
    weft_pool *p = weft_pool_from(pool);
    if (newthread)
        *newthread = ABT_THREAD_NULL;
    if (!p || !weft_pool_is_prio(p))
        return ABT_ERR_INV_POOL;
    if (prio < 0 || prio >= pp(p)->nlevels)
        return ABT_ERR_INV_ARG;
    create_prio = prio + 1;
    int r = ABT_thread_create(pool, thread_func, arg, attr, newthread);
    create_prio = 0;
    return r;
}

WEFT_API int weft_thread_set_prio(ABT_thread thread, int prio)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (prio < -1 || prio >= WEFT_PRIO_MAX_LEVELS)
        return ABT_ERR_INV_ARG;
    weft_atomic_store_relaxed_plain(&u->prio, (uint8_t)(prio + 1));
    return ABT_SUCCESS;
}

WEFT_API int weft_thread_get_prio(ABT_thread thread, int *prio)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!prio)
        return ABT_ERR_INV_ARG;
    *prio = unit_prio(u) - 1;
    return ABT_SUCCESS;
}
