/* src/omp/parallel.c - parallel regions: GOMP_parallel, GOMP_parallel_start/_end.
 *
 * Fork.  The encountering thread (the master) resolves the team size (num_threads
 * clause, nthreads-var, nesting limits, thread-limit), takes its cached team (or makes
 * one), and creates one unnamed ULT per worker into the pools round-robin from its own
 * stream: a nested region makes ULTs, never OS threads.  The master then becomes
 * thread 0 (wo_set_self) and runs its share on its own stack.
 *
 * Join.  Every thread ends with the team barrier (which also waits for the team's
 * tasks).  The master goes on right after it.  A worker goes back to its dock (done =
 * go) and waits there for the next region of the same team: the team is cached with its
 * worker ULTs ("hot team"), so the next region of the same master costs a `go` bump
 * per worker, picked up by a spinning ULT, instead of a ULT creation.  A docked worker
 * spins (GOMP_SPINCOUNT, 0 when passive; yielding whenever its pool holds other work),
 * then parks on the team, so an idle program's streams sleep.  The master writes the
 * region's fields into the team (fn, data, ICVs, parent, level) and never a worker's
 * wo_thr: each worker sets its own up when it sees `go`, so the master need not wait
 * for the last region's workers to be back in their docks (only a change of the team's
 * size, which they may still read on their way out, waits for that); wo_team_dismiss
 * makes them leave and joins them (team freed, or, when the program started weft
 * itself and may finalize it right after a region, at every region's end).  The master keeps the
 * team in its wo_thr.child for the next region of the same or smaller size.
 *
 * Help-first.  A share (member i of region `go`) is run by whoever moves the dock's
 * `claimed` from `go - 1` to that `go` (a CAS): the worker ULT when it sees `go`, or a
 * stand-in.  `claimed` only moves forward; a worker whose CAS fails docks (a stand-in
 * took that share, maybe a later one too while the worker was off its stream).  A
 * dismissing `go` (exit set) is never claimed: only the worker reads it, and leaves.
 * A team thread that waits (wo_wait) and finds a member on another stream whose share
 * nobody took for wo_help_ns claims it (the same CAS) and creates a stand-in ULT in its own pool,
 * which runs the share as member i (identity, implicit task, barrier) and stores done;
 * the waiter's wait yields to it.  The worker ULT, when its stream runs it again, finds
 * the share taken and docks.  So a member whose stream's OS thread is preempted or
 * blocked costs its team a short wait, not the OS time slice.  The stand-in brings
 * member i's values of the executable's TLS along (rt.h, wo_tls_swap). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp/rt.h"

struct dock_arg {
    struct wo_dock *d;
    unsigned seen;
};

static bool dock_ready(void *a)
{
    struct dock_arg *w = a;
    return weft_atomic_load_acquire(&w->d->go) != w->seen;
}

/* A docked worker waits for its next region: spin (yielding whenever its pool holds
 * other work), then park on the team.  Reads only the dock and the team's wait state,
 * never its wo_thr (which the master re-initializes meanwhile). */
static void dock_wait(wo_team *t, struct dock_arg *w, ABT_pool pool)
{
    for (;;) {
        for (uint64_t i = 0;; i++) {
            if (dock_ready(w))
                return;
            if (i >= g_env.spin)
                break;
            weft_cpu_relax();
            if ((i & 15) == 15) {
                size_t waiting = 0;
                if (ABT_pool_get_size(pool, &waiting) == ABT_SUCCESS && waiting > 0)
                    ABT_thread_yield();
            }
        }
        wo_team_park(t, dock_ready, w);
    }
}

/* A worker sets up its own wo_thr for the region the master just started. */
static void worker_join(wo_team *t, wo_thr *me, unsigned idx)
{
    wo_thr_init(me, t, idx, t->parent, &t->icv);
    me->itask.tg_open = t->red_grp;
    me->level = t->level;
    me->active_level = t->active_level;
    if (t->ws_first)
        me->ws = t->ws_first;
}

static void dock_done(struct wo_dock *d, unsigned g);

static void worker_main(void *arg)
{
    struct wo_dock *d = arg;
    wo_team *t = d->team;
    wo_thr *me = &t->thr[d->idx];
    ABT_pool pool = ABT_POOL_NULL;
    ABT_self_get_last_pool(&pool);
    d->ident = me;
    ABT_self_set_specific(wo_key, &d->ident);
    struct dock_arg w = { d, 0 };
    for (;;) {
        if (!dock_ready(&w))
            dock_wait(t, &w, pool);
        w.seen = weft_atomic_load_acquire(&d->go);
        if (weft_atomic_load_acquire(&d->exit))
            break;
        /* The share that follows the last claimed one, from `go - 1` to `go`: if the CAS
         * fails a stand-in took it (and it stores done), and maybe a later one too, while
         * this ULT was off its stream; `claimed` never moves back. */
        unsigned prev = w.seen - 1;
        if (!weft_atomic_cas_strong_acq_rel(&d->claimed, &prev, w.seen))
            continue;
        worker_join(t, me, d->idx);
        wo_affinity_auto();
        t->fn(t->data);
        /* The implicit task makes no more children: its dependence table can go.  Then
         * the region's barrier, and back to the dock. */
        wo_task_free_deps(&me->itask);
        wo_barrier(me);
        dock_done(d, w.seen);
    }
    ABT_self_set_specific(wo_key, NULL);
    wo_id_changed(); /* this unit ends: no cache may keep its cell */
}

/* done = g unless a later share's is already there: a stand-in of region g may finish
 * before the worker, late out of region g - 1, stores g - 1. */
static void dock_done(struct wo_dock *d, unsigned g)
{
    unsigned cur = weft_atomic_load_relaxed(&d->done);
    while ((int)(g - cur) > 0 && !weft_atomic_cas_weak_release(&d->done, &cur, g)) {
    }
}

/* A stand-in: member d->idx's share of region d->standin_go, run by another stream. */
static void standin_main(void *arg)
{
    struct wo_dock *d = arg;
    wo_team *t = d->team;
    unsigned g = d->standin_go;
    wo_thr *me = d->sthr;
    wo_thr *cell = me;
    ABT_self_set_specific(wo_key, &cell);
    /* member i's values of the executable's TLS: from its stream's block */
    struct wo_tls_swap sw = { NULL, NULL };
    if (wo_tls_size) {
        sw.home = weft_atomic_load_acquire(&wo_stream_tls[d->rank]); /* known: wo_team_help */
        sw.save = malloc(wo_tls_size);
        if (sw.home && sw.save && wo_tls_block())
            wo_tls_in(&sw);
    }
    worker_join(t, me, d->idx);
    me->standin = true;
    wo_affinity_auto();
    t->fn(t->data);
    wo_task_free_deps(&me->itask);
    /* member i's values go home before the barrier: past it, its worker may run the
     * next region's share on its own stream */
    if (wo_tls_swap_cur == &sw)
        wo_tls_out(&sw);
    wo_barrier(me);
    ABT_self_set_specific(wo_key, NULL);
    wo_id_changed(); /* this unit ends: no cache may keep its cell */
    free(sw.save);
    weft_atomic_store_release(&d->standin_busy, 0);
    dock_done(d, g); /* last: the master may free the team after it */
}

bool wo_team_unstarted(wo_team *t, int rank)
{
    for (unsigned i = 1; i < t->nthreads; i++) {
        struct wo_dock *d = &t->dock[i];
        if (d->rank != rank &&
            weft_atomic_load_relaxed(&d->claimed) != weft_atomic_load_acquire(&d->go) &&
            !weft_atomic_load_acquire(&d->exit))
            return true;
    }
    return false;
}

bool wo_team_help(wo_thr *me, int rank)
{
    wo_team *t = me->team;
    ABT_pool pool = ABT_POOL_NULL;
    if (ABT_self_get_last_pool(&pool) != ABT_SUCCESS || pool == ABT_POOL_NULL)
        return false;
    for (unsigned i = 1; i < t->nthreads; i++) {
        struct wo_dock *d = &t->dock[i];
        if (d->rank == rank)
            continue; /* on my stream: it runs when I yield */
        if (wo_tls_size && !weft_atomic_load_acquire(&wo_stream_tls[d->rank]))
            continue; /* its stream never ran: where its TLS values live is not known */
        unsigned g = weft_atomic_load_acquire(&d->go);
        /* a dismissing `go` is the worker's alone: exit is stored before it (release) */
        if (weft_atomic_load_acquire(&d->exit))
            continue;
        unsigned c = weft_atomic_load_acquire(&d->claimed);
        if (c + 1 != g || weft_atomic_load_relaxed(&d->standin_busy))
            continue;
        /* One stand-in per dock: busy first (the last stand-in may still be leaving its
         * barrier with sthr), then the share, by the same CAS as the worker's. */
        int idle = 0;
        if (!weft_atomic_cas_strong_acq_rel(&d->standin_busy, &idle, 1))
            continue;
        if (!weft_atomic_cas_strong_acq_rel(&d->claimed, &c, g)) {
            weft_atomic_store_release(&d->standin_busy, 0);
            continue;
        }
        if (!d->sthr) { /* only a claimer writes it, and claims of one dock are sequential */
            d->sthr = aligned_alloc(64, (sizeof(wo_thr) + 63) & ~(size_t)63);
            if (!d->sthr) {
                fprintf(stderr, "libweft-omp: out of memory for a stand-in\n");
                abort();
            }
            memset(d->sthr, 0, sizeof(wo_thr));
        }
        d->standin_go = g;
        if (ABT_thread_create(pool, standin_main, d, wo_thread_attr, NULL) != ABT_SUCCESS) {
            fprintf(stderr, "libweft-omp: cannot create a stand-in for thread %u\n", i);
            abort();
        }
        return true;
    }
    return false;
}

/* The workers of the last region are docked (they read nothing of the team any more). */
static void team_wait_docked(wo_team *t)
{
    for (unsigned i = 1; i < t->prev_n; i++) {
        struct wo_dock *d = &t->dock[i];
        while (weft_atomic_load_acquire(&d->done) != weft_atomic_load_relaxed(&d->go))
            if (wo_yield() != ABT_SUCCESS)
                sched_yield();
    }
}

void wo_team_dismiss(wo_team *t)
{
    team_wait_docked(t);
    bool any = false;
    for (unsigned i = 1; i < t->cap; i++) {
        struct wo_dock *d = &t->dock[i];
        if (!d->exists)
            continue;
        weft_atomic_store_release(&d->exit, true);
        weft_atomic_fetch_add_release(&d->go, 1);
        any = true;
    }
    if (any)
        wo_team_wake(t);
    for (unsigned i = 1; i < t->cap; i++) {
        struct wo_dock *d = &t->dock[i];
        if (!d->exists)
            continue;
        struct wo_tls_swap *s = wo_off_cpu();
        ABT_thread_free(&d->ult);
        wo_on_cpu(s);
        d->exists = false;
        weft_atomic_store_relaxed(&d->exit, false);
    }
    t->prev_n = 0;
}

static bool no_tasks(void *arg)
{
    wo_team *t = arg;
    return weft_atomic_load_acquire(&t->ntasks) == 0;
}

static wo_team *team_alloc(unsigned n)
{
    wo_team *t = calloc(1, sizeof(*t) + (size_t)n * sizeof(wo_thr));
    if (!t)
        return NULL;
    t->cap = n;
    t->dock = calloc(n, sizeof(*t->dock));
    if (!t->dock) {
        free(t);
        return NULL;
    }
    /* statically initialized (all-zero) mutex and cond: they live with the team */
    t->mtx = ABT_MUTEX_MEMORY_GET_HANDLE(&t->mtx_mem);
    t->cond = ABT_COND_MEMORY_GET_HANDLE(&t->cond_mem);
    return t;
}

unsigned wo_resolve_nthreads(wo_thr *me, unsigned req)
{
    const struct wo_icv *icv = &me->task->icv;
    if (me->active_level >= (unsigned)g_env.max_active_levels)
        return 1;
    unsigned n = req ? req : (unsigned)(icv->nthreads > 0 ? icv->nthreads : 1);
    if (icv->thread_limit > 0 && n > (unsigned)icv->thread_limit)
        n = (unsigned)icv->thread_limit;
    if (icv->dyn && n > (unsigned)g_env.num_procs && me->active_level == 0)
        n = (unsigned)g_env.num_procs;
    return n ? n : 1;
}

/* The ICVs of the implicit tasks of a new team (nthreads-var list, bind list). */
static void child_icv(const struct wo_icv *p, struct wo_icv *c)
{
    *c = *p;
    if (p->nt_pos >= 0 && p->nt_pos + 1 < g_env.nt_len) {
        c->nt_pos = p->nt_pos + 1;
        c->nthreads = g_env.nt_list[c->nt_pos];
    }
}

wo_team *wo_team_begin(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags)
{
    return wo_team_begin_ws(fn, data, num_threads, flags, NULL, NULL);
}

wo_team *wo_team_begin_ws(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags,
                          void (*ws_init)(wo_ws *, void *), void *ws_arg)
{
    wo_rt_init();
    wo_thr *me = wo_self();
    unsigned n = wo_resolve_nthreads(me, num_threads);
    wo_team *t = me->child;
    if (!t || t->cap < n) {
        wo_team_free(t);
        me->child = NULL;
        t = team_alloc(n);
        if (!t) {
            fprintf(stderr, "libweft-omp: out of memory for a team of %u threads\n", n);
            abort();
        }
        me->child = t;
    }
    me->child = NULL; /* in use: a nested region of this same thread cannot take it */
    /* A worker of the last region may still be on its way out of that region's barrier,
     * reading the team's size, wait state and its own queue, but nothing else: the
     * region fields below are its to read only after the next `go`, and it sets up its
     * own wo_thr then.  A change of size waits for every worker to dock, and so does
     * the region after a cancelled one (its threads left the end barrier without its
     * release, and a late one may still be in there, counting and reclaiming). */
    if (t->nthreads != n || weft_atomic_load_relaxed(&t->cancelled) != 0) {
        team_wait_docked(t);
        t->nthreads = n;
    }
    t->fn = fn;
    t->data = data;
    weft_atomic_store_relaxed(&t->bar_arrived, 0);
    weft_atomic_store_relaxed(&t->cancelled, 0);
    weft_atomic_store_relaxed(&t->singles, 0);
    weft_atomic_store_relaxed(&t->ws_head.next, NULL);
    weft_atomic_store_relaxed(&t->ntasks, 0);
    child_icv(&me->task->icv, &t->icv);
    if ((flags & 7) != 0)
        t->icv.bind = (int)(flags & 7);
    t->parent = me;
    t->red_grp = me->red_group; /* reduction(task) on the region, or NULL */
    t->level = me->level + 1;
    t->active_level = me->active_level + (n > 1);
    t->ws_first = NULL;
    wo_thr *m = &t->thr[0];
    wo_thr_init(m, t, 0, me, &t->icv);
    m->itask.tg_open = t->red_grp;
    m->level = t->level;
    m->active_level = t->active_level;
    if (ws_init) { /* a combined construct: its worksharing part exists before anyone runs */
        bool created;
        wo_ws_next(m, ws_init, ws_arg, &created);
        t->ws_first = m->ws;
    }
    /* Placement: thread i on stream (rank + i) % N.  A team nested in an active team
     * that already covers every stream stays on its master's stream (stride 0): the
     * other streams are busy with their own share, and the master's stream runs the
     * inner threads whenever the master waits, with no cross-stream traffic. */
    int rank = 0;
    if (wo_npools > 1 && ABT_self_get_xstream_rank(&rank) != ABT_SUCCESS)
        rank = 0;
    unsigned stride = 1;
    if (me->team && me->active_level > 0 && me->team->nthreads >= (unsigned)wo_npools)
        stride = 0;
    if (n > (unsigned)wo_npools && !wo_join_workers)
        wo_preempt_on(); /* threads share streams: one may spin for another (team.c) */
    bool signalled = false;
    for (unsigned i = 1; i < n; i++) {
        struct wo_dock *d = &t->dock[i];
        if (d->exists) { /* a docked (or docking) worker: start it */
            weft_atomic_fetch_add_release(&d->go, 1);
            signalled = true;
            continue;
        }
        d->team = t;
        d->idx = i;
        weft_atomic_store_relaxed(&d->exit, false);
        weft_atomic_store_relaxed(&d->go, 1);
        weft_atomic_store_relaxed(&d->done, 0);
        weft_atomic_store_relaxed(&d->claimed, 0);
        d->rank = (int)(((unsigned)rank + i * stride) % (unsigned)wo_npools);
        ABT_pool pool = wo_pools[d->rank];
        int err = ABT_thread_create(pool, worker_main, d, wo_thread_attr, &d->ult);
        if (err != ABT_SUCCESS) {
            fprintf(stderr, "libweft-omp: cannot create thread %u of a team (weft error %d)\n", i,
                    err);
            abort();
        }
        d->exists = true;
    }
    t->prev_n = n;
    if (signalled)
        wo_team_wake(t);
    me->red_group = NULL;
    wo_set_self(&t->thr[0]);
    return t;
}

void wo_team_end(void)
{
    wo_thr *me = wo_self();
    wo_team *t = me->team;
    wo_task_free_deps(&me->itask);
    wo_barrier(me);
    if (wo_join_workers) /* the program owns weft: it may finalize it right after */
        wo_team_dismiss(t);
    if (weft_atomic_load_acquire(&t->ntasks) != 0) /* a cancelled region */
        wo_wait(me, no_tasks, t, true, NULL, NULL);
    wo_thr *parent = me->parent;
    wo_set_self(parent);
    /* Reclaim the constructs left after the last barrier; keep the team for next time. */
    wo_ws_reclaim(t, true);
    if (parent->child)
        wo_team_free(t);
    else
        parent->child = t;
}

void wo_parallel(void (*fn)(void *), void *data, unsigned n, unsigned flags)
{
    wo_team_begin(fn, data, n, flags);
    wo_affinity_auto();
    fn(data);
    wo_team_end();
}

WO_API void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags)
{
    wo_parallel(fn, data, num_threads, flags);
}

WO_API void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads)
{
    wo_team_begin(fn, data, num_threads, 0);
}

WO_API void GOMP_parallel_end(void) { wo_team_end(); }
