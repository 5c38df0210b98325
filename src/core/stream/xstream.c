/* src/core/stream/xstream.c - execution streams and the ABT_xstream_* entry points.
 *
 * A secondary stream is a pthread that runs its main scheduler's loop on its own stack;
 * when the loop returns (finish/exit requested and honoured) the thread gives its caches
 * back, marks itself TERMINATED and wakes the unit waiting in ABT_xstream_join, which
 * then reaps the thread with pthread_join.  The joiner parks (a ULT) or sleeps on a futex
 * (anything else): waiting for a stream burns no CPU. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "core/stream/affinity.h"
#include "core/tool/sanitizer.h"
#include "core/tool/stack_dump.h"
#include "core/unit/unit.h"
#include "core/stream/xstream.h"
#include "core/stream/handoff.h"
#include "core/sched/poll_hook.h"
#include "core/sched/timer_hook.h"
#include "core/tool/overflow.h"

void weft_xstream_note_os_stack(weft_xstream *xs)
{
    /* AddressSanitizer needs the bounds of every stream's OS stack; other builds only the
     * primary stream's, where the primary ULT may lend its stack to an SC unit it joins
     * (core/unit/lend.c, "scheduler creation in the joiner").  pthread_getattr_np allocates (and in
     * glibc 2.36 crashes when that allocation fails), so no other stream pays for it. */
    if (!WEFT_ASAN && !xs->primary)
        return;
    pthread_attr_t attr;
    void *addr;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
            xs->os_stack_lo = addr;
            xs->os_stack_size = size;
        }
        pthread_attr_destroy(&attr);
    }
}

/* (helper) CPU binding.  A stream's explicit binding (ABT_xstream_set_cpubind/_affinity)
 * is kept in xs->affinity so that a stream that is not running (or is revived) gets it
 * when its thread starts; otherwise ABT_SET_AFFINITY decides by rank (affinity.c).
 * xs->affinity, num_affinity and cpubind change under weft_g.lock, and a binding is read
 * and applied under it, so a thread that starts while its stream is being bound ends up
 * with the newer binding either way. */
static int set_from_ids(const int *cpus, int n, cpu_set_t *set)
{
    CPU_ZERO(set);
    for (int i = 0; i < n; i++) {
        if (cpus[i] < 0 || cpus[i] >= CPU_SETSIZE)
            return ABT_ERR_CPUID;
        CPU_SET(cpus[i], set);
    }
    return ABT_SUCCESS;
}

static int apply_set(pthread_t th, const cpu_set_t *set)
{
    int e = pthread_setaffinity_np(th, sizeof(*set), set);
    return e == 0 ? ABT_SUCCESS : e == EINVAL ? ABT_ERR_CPUID : ABT_ERR_SYS;
}

static int first_cpu(const cpu_set_t *set)
{
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, set))
            return i;
    return -1;
}

void weft_xstream_apply_affinity(weft_xstream *xs)
{
    cpu_set_t set;
    if (weft_affinity_rank_set(xs->rank, &set) && apply_set(pthread_self(), &set) == ABT_SUCCESS)
        xs->cpubind = first_cpu(&set);
}

/* The calling thread starts running xs: its explicit binding, else the rank's. */
static void bind_at_start(weft_xstream *xs)
{
    cpu_set_t set;
    pthread_mutex_lock(&weft_g.lock);
    if (xs->num_affinity > 0 && set_from_ids(xs->affinity, xs->num_affinity, &set) == ABT_SUCCESS)
        apply_set(pthread_self(), &set);
    else if (weft_g.cfg.set_affinity)
        weft_xstream_apply_affinity(xs);
    pthread_mutex_unlock(&weft_g.lock);
}

static void *xstream_thread(void *arg)
{
    weft_xstream *xs = arg;
    weft_tls_xs = xs;
    weft_xstream_note_os_stack(xs);
    weft_overflow_thread_init(); /* (helper) mem/overflow.c: this thread's signal stack */
    bind_at_start(xs);
    void *fiber = weft_tsan_fiber_current();
    for (;;) {
        weft_sched *s = xs->main_sched;
        s->tsan_fiber = fiber;
        xs->sched = s;
        xs->cur = NULL;
        s->def.run((ABT_sched)s);
        if (xs->main_sched == s) {
            if (weft_xstream_should_stop(xs, s))
                break;
            continue;
        }
        /* ABT_xstream_set_main_sched replaced it: release the old one, run the new */
        weft_sched_retire(s);
        weft_xstream_retire_pending(xs);
    }
    weft_mem_flush(&xs->cache);
    /* Under join_lock: a joining ULT holds it until it is off its stack, so the wake below
     * never sees a joiner that still runs (the post-action rule of core/unit/unit.h). */
    weft_spin_lock(&xs->join_lock);
    weft_atomic_store_release(&xs->state, WEFT_XS_TERMINATED);
    weft_waiter *w = xs->joiner;
    xs->joiner = NULL;
    weft_spin_unlock(&xs->join_lock);
    if (w)
        weft_waiter_wake(w);
    weft_overflow_thread_fini();
    return NULL;
}

weft_xstream *weft_xstream_alloc(void)
{
    size_t size = (sizeof(weft_xstream) + WEFT_CACHE_LINE - 1) & ~(size_t)(WEFT_CACHE_LINE - 1);
    weft_xstream *xs = aligned_alloc(WEFT_CACHE_LINE, size);
    if (xs)
        memset(xs, 0, size);
    return xs;
}

/* Create a stream around a scheduler that nobody uses yet.  rank < 0: lowest free. */
static int xstream_create(weft_sched *s, int rank, weft_xstream **out)
{
    weft_xstream *xs = weft_xstream_alloc();
    if (!xs)
        return ABT_ERR_MEM;
    xs->cpubind = -1;
    pthread_mutex_lock(&weft_g.lock);
    if (rank < 0) {
        for (int i = 0; rank < 0; i++)
            if (i >= weft_g.rank_cap || !weft_g.by_rank[i])
                rank = i;
    }
    if (!weft_rank_reserve(rank)) {
        pthread_mutex_unlock(&weft_g.lock);
        free(xs);
        return ABT_ERR_MEM;
    }
    if (weft_g.by_rank[rank]) {
        pthread_mutex_unlock(&weft_g.lock);
        free(xs);
        return ABT_ERR_INV_XSTREAM_RANK;
    }
    xs->rank = rank;
    weft_atomic_store_release(&xs->main_sched, s);
    xs->sched = s;
    s->use = WEFT_SCHED_MAIN;
    s->xs = xs;
    weft_atomic_store_seq_cst(&s->request, WEFT_SCHED_REQ_NONE);
    weft_g.by_rank[rank] = xs;
    weft_g.num_xstreams++;
    weft_atomic_store_seq_cst(&xs->state, WEFT_XS_RUNNING);
    int e = pthread_create(&xs->thread, NULL, xstream_thread, xs);
    if (e) {
        weft_g.by_rank[rank] = NULL;
        weft_g.num_xstreams--;
        s->use = WEFT_SCHED_UNUSED;
        s->xs = NULL;
        pthread_mutex_unlock(&weft_g.lock);
        free(xs);
        return ABT_ERR_SYS; /* as Argobots: any refusal of pthread_create */
    }
    xs->thread_started = true;
    pthread_mutex_unlock(&weft_g.lock);
    *out = xs;
    return ABT_SUCCESS;
}

int weft_xstream_join(weft_xstream *xs)
{
    if (xs->joined)
        return ABT_SUCCESS;
    weft_sched_request(xs->main_sched, WEFT_SCHED_REQ_FINISH);
    weft_waiter w;
    weft_waiter_init(&w);
    weft_spin_lock(&xs->join_lock);
    if (weft_atomic_load_acquire(&xs->state) != WEFT_XS_TERMINATED) {
        xs->joiner = &w;
        weft_wait_block_uncounted(&w, &xs->join_lock); /* releases join_lock */
    } else {
        weft_spin_unlock(&xs->join_lock);
    }
    if (!xs->joined) /* (helper) a fork() child marks lost streams joined */
        pthread_join(xs->thread, NULL);
    xs->joined = true;
    return ABT_SUCCESS;
}

void weft_xstream_destroy(weft_xstream *xs)
{
    weft_blocking_forget(xs); /* a spare may still be finishing a unit for it */
    pthread_mutex_lock(&weft_g.lock);
    if (weft_g.by_rank[xs->rank] == xs)
        weft_g.by_rank[xs->rank] = NULL;
    weft_g.num_xstreams--;
    pthread_mutex_unlock(&weft_g.lock);
    weft_sched *s = xs->main_sched;
    s->use = WEFT_SCHED_UNUSED;
    s->xs = NULL;
    if (s->automatic)
        weft_sched_destroy(s);
    weft_mem_flush(&xs->cache);
    free(xs->affinity);
    /* a push that woke this stream's scheduler may still be reading its idle word and
     * idle_cpu (weft_idle_woken, core/sched/idle.h): such a push holds (pool.h) */
    weft_pool_await_holds();
    free(xs);
}

/* Is `old` the running scheduler of xs or one it runs under (stacked schedulers and
 * ABT_self_schedule parent records link to the scheduler they return to)? */
static bool sched_in_chain(weft_xstream *xs, weft_sched *old)
{
    for (weft_sched *c = xs->sched; c; c = c->parent)
        if (c == old)
            return true;
    return false;
}

static bool sched_has_pool(weft_sched *s, weft_pool *p)
{
    for (int i = 0; i < s->num_pools; i++)
        if (s->pools[i] == p)
            return true;
    return false;
}

/* The scheduler at the root of the running chain of xs (the main scheduler that runs,
 * with the stacked schedulers and ABT_self_schedule parents above it). */
static weft_sched *sched_chain_root(weft_xstream *xs)
{
    weft_sched *c = xs->sched;
    while (c && c->parent)
        c = c->parent;
    return c;
}

/* Replace the main scheduler of a stream.  A stream that is not running takes the new
 * scheduler at once.  A running stream can only be changed from a ULT running on it,
 * directly under the main scheduler or under schedulers or ABT_self_schedule parents
 * stacked on it: the old scheduler is told to exit, the caller moves to the new
 * scheduler's first pool if it was associated with one of the old scheduler's pools (as
 * in Argobots) and yields to the running scheduler (not its bypass, which could resume
 * the caller before the scheduler saw the request), and the stream's loop (xstream_thread,
 * or sched_entry on the primary) starts the new scheduler in the old one's place once the
 * old one returns.  Until then the new scheduler is pending: the stream's main scheduler,
 * not running yet.  A user-defined scheduler may run the caller again before it looks at
 * its requests (ABT_xstream_check_events); a change asked then replaces the pending
 * scheduler, which never ran, and the one that runs still exits as asked. */
static int set_main_sched(weft_xstream *xs, weft_sched *s)
{
    if (s->use != WEFT_SCHED_UNUSED || s->num_pools < 1)
        return ABT_ERR_INV_SCHED;
    weft_sched *old = xs->main_sched;
    if (weft_atomic_load_seq_cst(&xs->state) == WEFT_XS_TERMINATED && !xs->primary) {
        s->use = WEFT_SCHED_MAIN;
        s->xs = xs;
        weft_atomic_store_release(&xs->main_sched, s);
        xs->sched = s;
        weft_sched_retire(old);
        return ABT_SUCCESS;
    }
    weft_xstream *me = weft_xs_self();
    weft_unit *self = me ? me->cur : NULL;
    if (me != xs || !self || !weft_unit_is_ult(self))
        return ABT_ERR_XSTREAM_STATE;
    bool pending = false;
    if (!sched_in_chain(xs, old)) {
        /* old waits to start in place of the chain's root, asked to exit before */
        weft_sched *root = sched_chain_root(xs);
        if (!root || root == old || root->use != WEFT_SCHED_MAIN || root->xs != xs)
            return ABT_ERR_XSTREAM_STATE;
        pending = true;
    }
    bool move = sched_has_pool(old, self->pool);
    if (move) { /* the caller moves there (user pool: may fail) */
        int r = weft_pool_bind(s->pools[0], self);
        if (r != ABT_SUCCESS)
            return r;
    }
    s->use = WEFT_SCHED_MAIN;
    s->xs = xs;
    if (xs->primary) {
        s->stack = old->stack; /* the primary's scheduler stack passes on */
        old->stack = NULL;
        s->tsan_fiber = old->tsan_fiber;
        if (old->ctx == NULL && !pending) {
            /* the old scheduler never started: the new one simply takes its place and
             * starts on that stack the first time the primary ULT switches away */
            old->tsan_fiber = NULL;
            weft_atomic_store_release(&xs->main_sched, s);
            if (xs->sched == old)
                xs->sched = s;
            else /* the innermost scheduler returns to the new one */
                for (weft_sched *c = xs->sched; c; c = c->parent)
                    if (c->parent == old)
                        c->parent = s;
            weft_sched_retire(old);
            if (move)
                weft_atomic_store_relaxed_plain(&self->pool, s->pools[0]);
            return ABT_SUCCESS;
        }
    }
    weft_atomic_store_release(&xs->main_sched, s);
    if (move)
        weft_atomic_store_relaxed_plain(&self->pool, s->pools[0]);
    if (pending) {
        /* it never ran: nothing returns to it (the running root was asked to exit); it is
         * retired with the root, once no other stream may still read it as the main one */
        if (xs->primary)
            old->tsan_fiber = NULL;
        old->retire_next = xs->sched_retire;
        xs->sched_retire = old;
    } else {
        weft_sched_request(old, WEFT_SCHED_REQ_EXIT);
    }
    weft_ult_yield_sched(me, self);
    return ABT_SUCCESS;
}

/* ---------------------------------------------------------------- public API */

WEFT_API int ABT_xstream_set_main_sched(ABT_xstream xstream, ABT_sched sched)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    weft_sched *s = weft_sched_from(sched);
    bool made = false;
    int r;
    if (!s) {
        if ((r = weft_sched_create_predef(ABT_SCHED_DEFAULT, 0, NULL, ABT_SCHED_CONFIG_NULL, true,
                                          &s)) != ABT_SUCCESS)
            return r;
        made = true;
    }
    r = set_main_sched(xs, s);
    if (r != ABT_SUCCESS && made)
        weft_sched_destroy(s);
    return r;
}

WEFT_API int ABT_xstream_set_main_sched_basic(ABT_xstream xstream, ABT_sched_predef predef,
                                              int num_pools, ABT_pool *pools)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    weft_sched *s;
    int r = weft_sched_create_predef(predef, num_pools, pools, ABT_SCHED_CONFIG_NULL, true, &s);
    if (r != ABT_SUCCESS)
        return r;
    r = set_main_sched(xs, s);
    if (r != ABT_SUCCESS)
        weft_sched_destroy(s);
    return r;
}

static inline int need_init(void)
{
    return weft_initialized() ? ABT_SUCCESS : ABT_ERR_UNINITIALIZED;
}

WEFT_API int ABT_xstream_create_with_rank(ABT_sched sched, int rank, ABT_xstream *newxstream)
{
    if (!newxstream)
        return ABT_ERR_INV_ARG;
    *newxstream = ABT_XSTREAM_NULL;
    int r = need_init();
    if (r != ABT_SUCCESS)
        return r;
    if (rank < 0)
        return ABT_ERR_INV_XSTREAM_RANK;
    weft_sched *s = weft_sched_from(sched);
    bool made = false;
    if (!s) {
        if ((r = weft_sched_create_predef(ABT_SCHED_DEFAULT, 0, NULL, ABT_SCHED_CONFIG_NULL, true,
                                          &s)) != ABT_SUCCESS)
            return r;
        made = true;
    } else if (s->use != WEFT_SCHED_UNUSED) {
        return ABT_ERR_INV_SCHED;
    }
    weft_xstream *xs;
    r = xstream_create(s, rank, &xs);
    if (r != ABT_SUCCESS) {
        if (made)
            weft_sched_destroy(s);
        return r;
    }
    *newxstream = (ABT_xstream)xs;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_create(ABT_sched sched, ABT_xstream *newxstream)
{
    if (!newxstream)
        return ABT_ERR_INV_ARG;
    *newxstream = ABT_XSTREAM_NULL;
    int r = need_init();
    if (r != ABT_SUCCESS)
        return r;
    weft_sched *s = weft_sched_from(sched);
    bool made = false;
    if (!s) {
        if ((r = weft_sched_create_predef(ABT_SCHED_DEFAULT, 0, NULL, ABT_SCHED_CONFIG_NULL, true,
                                          &s)) != ABT_SUCCESS)
            return r;
        made = true;
    } else if (s->use != WEFT_SCHED_UNUSED) {
        return ABT_ERR_INV_SCHED;
    }
    weft_xstream *xs;
    r = xstream_create(s, -1, &xs);
    if (r != ABT_SUCCESS) {
        if (made)
            weft_sched_destroy(s);
        return r;
    }
    *newxstream = (ABT_xstream)xs;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_create_basic(ABT_sched_predef predef, int num_pools, ABT_pool *pools,
                                      ABT_sched_config config, ABT_xstream *newxstream)
{
    if (!newxstream)
        return ABT_ERR_INV_ARG;
    *newxstream = ABT_XSTREAM_NULL;
    int r = need_init();
    if (r != ABT_SUCCESS)
        return r;
    weft_sched *s;
    if ((r = weft_sched_create_predef(predef, num_pools, pools, config, true, &s)) != ABT_SUCCESS)
        return r;
    weft_xstream *xs;
    r = xstream_create(s, -1, &xs);
    if (r != ABT_SUCCESS) {
        weft_sched_destroy(s);
        return r;
    }
    *newxstream = (ABT_xstream)xs;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_join(ABT_xstream xstream)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (xs->primary || xs == weft_xs_self())
        return ABT_ERR_INV_XSTREAM;
    return weft_xstream_join(xs);
}

WEFT_API int ABT_xstream_free(ABT_xstream *xstream)
{
    if (!xstream)
        return ABT_ERR_INV_ARG;
    weft_xstream *xs = weft_xstream_from(*xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (xs->primary || xs == weft_xs_self())
        return ABT_ERR_INV_XSTREAM;
    weft_xstream_join(xs);
    weft_xstream_destroy(xs);
    *xstream = ABT_XSTREAM_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_revive(ABT_xstream xstream)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (xs->primary || !xs->joined)
        return ABT_ERR_XSTREAM;
    weft_atomic_store_seq_cst(&xs->main_sched->request, WEFT_SCHED_REQ_NONE);
    weft_atomic_store_seq_cst(&xs->cancelled, false);
    xs->joined = false;
    weft_atomic_store_seq_cst(&xs->state, WEFT_XS_RUNNING);
    int e = pthread_create(&xs->thread, NULL, xstream_thread, xs);
    if (e) {
        xs->joined = true;
        weft_atomic_store_seq_cst(&xs->state, WEFT_XS_TERMINATED);
        return ABT_ERR_SYS;
    }
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_exit(void)
{
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    weft_xstream *xs = weft_xs_self();
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    weft_unit *self = xs->cur;
    if (xs->primary || !self || !(self->flags & WEFT_U_ULT) || (self->flags & WEFT_U_MAIN))
        return ABT_ERR_INV_XSTREAM;
    weft_atomic_store_seq_cst(&xs->cancelled, true);
    weft_sched_request(xs->main_sched, WEFT_SCHED_REQ_EXIT);
    weft_ult_exit(xs, self);
}

WEFT_API int ABT_xstream_cancel(ABT_xstream xstream)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (xs->primary)
        return ABT_ERR_INV_XSTREAM;
    weft_atomic_store_seq_cst(&xs->cancelled, true);
    weft_sched_request(xs->main_sched, WEFT_SCHED_REQ_EXIT);
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_self(ABT_xstream *xstream)
{
    if (!xstream)
        return ABT_ERR_INV_ARG;
    if (!weft_initialized()) {
        *xstream = ABT_XSTREAM_NULL;
        return ABT_ERR_UNINITIALIZED;
    }
    weft_xstream *xs = weft_xs_self();
    if (!xs) {
        *xstream = ABT_XSTREAM_NULL;
        return ABT_ERR_INV_XSTREAM;
    }
    *xstream = (ABT_xstream)xs;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_self_rank(int *rank)
{
    if (!rank)
        return ABT_ERR_INV_ARG;
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    weft_xstream *xs = weft_xs_self();
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    *rank = xs->rank;
    return ABT_SUCCESS;
}

static void rebind_rank(weft_xstream *xs);

WEFT_API int ABT_xstream_set_rank(ABT_xstream xstream, int rank)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (xs->primary)
        return ABT_ERR_INV_XSTREAM; /* the primary stream keeps rank 0 */
    if (rank < 0)
        return ABT_ERR_INV_XSTREAM_RANK;
    pthread_mutex_lock(&weft_g.lock);
    if (!weft_rank_reserve(rank)) {
        pthread_mutex_unlock(&weft_g.lock);
        return ABT_ERR_MEM;
    }
    if (weft_g.by_rank[rank] && weft_g.by_rank[rank] != xs) {
        pthread_mutex_unlock(&weft_g.lock);
        return ABT_ERR_INV_XSTREAM_RANK;
    }
    if (weft_g.by_rank[xs->rank] == xs)
        weft_g.by_rank[xs->rank] = NULL;
    weft_g.by_rank[rank] = xs;
    xs->rank = rank;
    rebind_rank(xs);
    pthread_mutex_unlock(&weft_g.lock);
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_get_rank(ABT_xstream xstream, int *rank)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (!rank)
        return ABT_ERR_INV_ARG;
    *rank = xs->rank;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_get_main_sched(ABT_xstream xstream, ABT_sched *sched)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (!sched)
        return ABT_ERR_INV_ARG;
    *sched = (ABT_sched)xs->main_sched;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_get_main_pools(ABT_xstream xstream, int max_pools, ABT_pool *pools)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (max_pools < 0 || (max_pools > 0 && !pools))
        return ABT_ERR_INV_ARG;
    weft_sched *s = xs->main_sched;
    for (int i = 0; i < max_pools && i < s->num_pools; i++)
        pools[i] = WEFT_POOL_HANDLE(s->pools[i]);
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_get_state(ABT_xstream xstream, ABT_xstream_state *state)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (!state)
        return ABT_ERR_INV_ARG;
    *state = weft_atomic_load_seq_cst(&xs->state) == WEFT_XS_TERMINATED
                 ? ABT_XSTREAM_STATE_TERMINATED
                 : ABT_XSTREAM_STATE_RUNNING;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_equal(ABT_xstream xstream1, ABT_xstream xstream2, ABT_bool *result)
{
    if (!result)
        return ABT_ERR_INV_ARG;
    *result = weft_xstream_from(xstream1) == weft_xstream_from(xstream2) ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_get_num(int *num_xstreams)
{
    if (!num_xstreams)
        return ABT_ERR_INV_ARG;
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    pthread_mutex_lock(&weft_g.lock);
    *num_xstreams = weft_g.num_xstreams;
    pthread_mutex_unlock(&weft_g.lock);
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_is_primary(ABT_xstream xstream, ABT_bool *is_primary)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (!is_primary)
        return ABT_ERR_INV_ARG;
    *is_primary = xs->primary ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_run_unit(ABT_unit unit, ABT_pool pool)
{
    if (unit == NULL || unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    weft_xstream *xs = weft_xs_self();
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    weft_unit *u = weft_unit_from_abt_unit(unit); /* user-made units: pool/user.c */
    if (!u)
        return ABT_ERR_INV_UNIT; /* a stale handle */
    if (u->pool != p) {          /* no store when unchanged; a joiner may read it (unit/join.c) */
        int r = weft_pool_bind(p, u);
        if (r != ABT_SUCCESS)
            return r;
        weft_atomic_store_relaxed_plain(&u->pool, p);
    }
    weft_unit *self = xs->cur;
    if (self == xs->sched->unit) { /* called by a scheduler: the normal case */
        weft_sched_run_unit(xs, xs->sched, u);
        return ABT_SUCCESS;
    }
    if (!weft_unit_is_ult(self))
        return ABT_ERR_INV_THREAD; /* a tasklet cannot switch away (Argobots) */
    /* Called by another ULT: the unit runs as its child, as with ABT_self_schedule; the
     * caller continues when the unit finishes, yields or blocks (Argobots). */
    weft_ult_run_as_parent(xs, self, u);
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_check_events(ABT_sched sched)
{
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    weft_xstream *xs = weft_xs_self();
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (xs->sched != s || xs->cur != s->unit)
        return ABT_ERR_INV_THREAD; /* only the scheduler itself checks its events */
    /* Stop requests are read by ABT_sched_has_to_stop; the one event queued here is the
     * primary ULT handed back to the primary stream (weft_sched_run_unit). */
    weft_sched_take_main(xs, s);
    weft_dump_check();     /* (helper) stack_dump.h: stop for a stack dump */
    weft_timers_poll();    /* timed waits of this stream (core/sched/timer_hook.h) */
    weft_poll_hooks_run(); /* I/O and MPI completions (core/sched/poll_hook.h) */
    return ABT_SUCCESS;
}

/* (helper) Is the stream's OS thread there to be bound or asked?  (A stream that was
 * joined has no thread until ABT_xstream_revive; a fork() child lost its threads.) */
static bool thread_alive(weft_xstream *xs)
{
    return xs->primary ||
           (!xs->joined && weft_atomic_load_acquire(&xs->state) != WEFT_XS_TERMINATED);
}

/* Bind xs to `set` now if it runs, and remember the binding for when its thread starts. */
static int bind_stream(weft_xstream *xs, const int *cpus, int n)
{
    cpu_set_t set;
    int r = set_from_ids(cpus, n, &set);
    if (r != ABT_SUCCESS)
        return r;
    int *copy = malloc((size_t)n * sizeof(int));
    if (!copy)
        return ABT_ERR_MEM;
    memcpy(copy, cpus, (size_t)n * sizeof(int));
    pthread_mutex_lock(&weft_g.lock);
    if (thread_alive(xs) && (r = apply_set(xs->thread, &set)) != ABT_SUCCESS) {
        pthread_mutex_unlock(&weft_g.lock);
        free(copy);
        return r;
    }
    free(xs->affinity);
    xs->affinity = copy;
    xs->num_affinity = n;
    xs->cpubind = cpus[0];
    pthread_mutex_unlock(&weft_g.lock);
    return ABT_SUCCESS;
}

/* ABT_xstream_set_rank while ABT_SET_AFFINITY binds: the stream takes the CPUs of its new
 * rank, as in Argobots, in place of an explicit binding (under weft_g.lock). */
static void rebind_rank(weft_xstream *xs)
{
    cpu_set_t set;
    if (!weft_g.cfg.set_affinity || !weft_affinity_rank_set(xs->rank, &set))
        return;
    free(xs->affinity);
    xs->affinity = NULL;
    xs->num_affinity = 0;
    xs->cpubind = -1;
    if (!thread_alive(xs))
        return; /* its thread binds itself by rank when it starts (bind_at_start) */
    if (apply_set(xs->thread, &set) == ABT_SUCCESS)
        xs->cpubind = first_cpu(&set);
}

/* The CPUs xs is bound to: the OS's answer for a running stream, else what it will get. */
static int stream_set(weft_xstream *xs, cpu_set_t *set)
{
    int r = ABT_SUCCESS;
    pthread_mutex_lock(&weft_g.lock);
    if (thread_alive(xs)) {
        if (pthread_getaffinity_np(xs->thread, sizeof(*set), set) != 0)
            r = ABT_ERR_SYS;
    } else if (xs->num_affinity > 0) {
        r = set_from_ids(xs->affinity, xs->num_affinity, set);
    } else if (!weft_g.cfg.set_affinity || !weft_affinity_rank_set(xs->rank, set)) {
        weft_affinity_initial_set(set);
    }
    pthread_mutex_unlock(&weft_g.lock);
    return r;
}

/* With affinity off (the default, WEFT_ENABLE_AFFINITY: core/stream/affinity.h) the four calls
 * answer ABT_ERR_FEATURE_NA after checking their arguments, as an Argobots built without
 * --enable-affinity does. */
static inline bool affinity_off(void) { return !weft_g.cfg.affinity; }

WEFT_API int ABT_xstream_set_cpubind(ABT_xstream xstream, int cpuid)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (affinity_off())
        return ABT_ERR_FEATURE_NA;
    return bind_stream(xs, &cpuid, 1);
}

WEFT_API int ABT_xstream_get_cpubind(ABT_xstream xstream, int *cpuid)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (!cpuid)
        return ABT_ERR_INV_ARG;
    if (affinity_off())
        return ABT_ERR_FEATURE_NA;
    cpu_set_t set;
    int r = stream_set(xs, &set);
    if (r != ABT_SUCCESS)
        return r;
    int c = first_cpu(&set);
    if (c < 0)
        return ABT_ERR_CPUID; /* bound to no CPU */
    *cpuid = c;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_set_affinity(ABT_xstream xstream, int num_cpuids, int *cpuids)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (num_cpuids < 0 || (num_cpuids > 0 && !cpuids))
        return ABT_ERR_INV_ARG;
    if (affinity_off())
        return ABT_ERR_FEATURE_NA;
    if (num_cpuids > 0)
        return bind_stream(xs, cpuids, num_cpuids);
    /* an empty list resets the binding: the CPUs the process could use at ABT_init */
    cpu_set_t set;
    weft_affinity_initial_set(&set);
    pthread_mutex_lock(&weft_g.lock);
    if (thread_alive(xs)) {
        int r = apply_set(xs->thread, &set);
        if (r != ABT_SUCCESS) {
            pthread_mutex_unlock(&weft_g.lock);
            return r;
        }
    }
    free(xs->affinity);
    xs->affinity = NULL;
    xs->num_affinity = 0;
    xs->cpubind = -1;
    pthread_mutex_unlock(&weft_g.lock);
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_get_affinity(ABT_xstream xstream, int max_cpuids, int *cpuids,
                                      int *num_cpuids)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (max_cpuids < 0 || (max_cpuids > 0 && !cpuids))
        return ABT_ERR_INV_ARG;
    if (affinity_off())
        return ABT_ERR_FEATURE_NA;
    cpu_set_t set;
    int r = stream_set(xs, &set);
    if (r != ABT_SUCCESS)
        return r;
    int n = 0;
    for (int i = 0; i < CPU_SETSIZE; i++) {
        if (CPU_ISSET(i, &set)) {
            if (n < max_cpuids)
                cpuids[n] = i;
            n++;
        }
    }
    if (num_cpuids)
        *num_cpuids = n;
    return ABT_SUCCESS;
}
