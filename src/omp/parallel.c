/* src/omp/parallel.c - parallel regions: GOMP_parallel, GOMP_parallel_start/_end.
 *
 * Fork.  The encountering thread (the master) resolves the team size (num_threads
 * clause, nthreads-var, nesting limits, thread-limit), takes its cached team (or makes
 * one), and creates one unnamed ULT per worker into the pools round-robin from its own
 * stream: a nested region makes ULTs, never OS threads.  The master then becomes
 * thread 0 (omp_set_self) and runs its share on its own stack.
 *
 * Join.  Every thread ends with the team barrier (which also waits for the team's
 * tasks), and then returns: the barrier's release is its last access to the team.  The
 * master goes on right after the barrier; it joins the worker ULTs of a team only
 * before it resets the team for its next region or frees it (omp_team_quiesce: by then
 * they have long ended, the join only frees them), so it never waits for a worker's
 * stream to come round, and no worker can touch a team that was reset or freed.  When
 * the program started weft itself it may call ABT_finalize right after a region: then
 * the master joins the workers at the region's end (omp_join_workers).  The master keeps the team
 * in its omp_thr.child for the next region of the same or smaller size. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp/rt.h"

extern ABT_pool *omp_pools __attribute__((visibility("hidden")));
extern int omp_npools __attribute__((visibility("hidden")));
extern bool omp_join_workers __attribute__((visibility("hidden")));

static void worker_main(void *arg)
{
    omp_thr *me = arg;
    omp_team *t = me->team;
    ABT_self_set_specific(omp_key, me);
    omp_affinity_auto();
    t->fn(t->data);
    /* The implicit task makes no more children: its dependence table can go.  Then the
     * region's barrier, the last touch of the team. */
    omp_task_free_deps(&me->itask);
    omp_barrier(me);
    ABT_self_set_specific(omp_key, NULL);
}

/* Before a team is reset or freed: join (and free) the worker ULTs of its last region.
 * They have passed the final barrier, so at most they still have to return. */
void omp_team_quiesce(omp_team *t)
{
    for (unsigned i = 1; i < t->cap; i++)
        if (t->thr[i].ult != ABT_THREAD_NULL && t->thr[i].ult != NULL)
            ABT_thread_free(&t->thr[i].ult);
}

static bool no_tasks(void *arg)
{
    omp_team *t = arg;
    return weft_atomic_load_acquire(&t->ntasks) == 0;
}

static omp_team *team_alloc(unsigned n)
{
    omp_team *t = calloc(1, sizeof(*t) + (size_t)n * sizeof(omp_thr));
    if (!t)
        return NULL;
    t->cap = n;
    /* statically initialized (all-zero) mutex and cond: they live with the team */
    t->mtx = ABT_MUTEX_MEMORY_GET_HANDLE(&t->mtx_mem);
    t->cond = ABT_COND_MEMORY_GET_HANDLE(&t->cond_mem);
    return t;
}

unsigned omp_resolve_nthreads(omp_thr *me, unsigned req)
{
    const struct omp_icv *icv = &me->task->icv;
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
static void child_icv(const struct omp_icv *p, struct omp_icv *c)
{
    *c = *p;
    if (p->nt_pos >= 0 && p->nt_pos + 1 < g_env.nt_len) {
        c->nt_pos = p->nt_pos + 1;
        c->nthreads = g_env.nt_list[c->nt_pos];
    }
}

omp_team *omp_team_begin(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags)
{
    return omp_team_begin_ws(fn, data, num_threads, flags, NULL, NULL);
}

omp_team *omp_team_begin_ws(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags,
                            void (*ws_init)(omp_ws *, void *), void *ws_arg)
{
    omp_rt_init();
    omp_thr *me = omp_self();
    unsigned n = omp_resolve_nthreads(me, num_threads);
    omp_team *t = me->child;
    if (!t || t->cap < n) {
        omp_team_free(t);
        me->child = NULL;
        t = team_alloc(n);
        if (!t) {
            fprintf(stderr, "libweft-omp: out of memory for a team of %u threads\n", n);
            abort();
        }
        me->child = t;
    }
    me->child = NULL; /* in use: a nested region of this same thread cannot take it */
    omp_team_quiesce(t);
    t->nthreads = n;
    t->fn = fn;
    t->data = data;
    t->bar_arrived = 0;
    t->cancelled = 0;
    t->ws_head.next = NULL;
    t->tq_head = t->tq_tail = NULL;
    t->tq_len = 0;
    t->ntasks = 0;
    struct omp_icv icv;
    child_icv(&me->task->icv, &icv);
    if ((flags & 7) != 0)
        icv.bind = (int)(flags & 7);
    for (unsigned i = 0; i < n; i++) {
        omp_thr *th = &t->thr[i];
        omp_thr_init(th, t, i, me, &icv);
        th->itask.tg_open = me->red_group; /* reduction(task) on the region, or NULL */
        th->level = me->level + 1;
        th->active_level = me->active_level + (n > 1);
    }
    if (ws_init) { /* a combined construct: its worksharing part exists before anyone runs */
        bool created;
        omp_ws_next(&t->thr[0], ws_init, ws_arg, &created);
        for (unsigned i = 1; i < n; i++)
            t->thr[i].ws = t->thr[0].ws;
    }
    /* Placement: thread i on stream (rank + i) % N.  A team nested in an active team
     * that already covers every stream stays on its master's stream (stride 0): the
     * other streams are busy with their own share, and the master's stream runs the
     * inner threads whenever the master waits, with no cross-stream traffic. */
    int rank = 0;
    if (omp_npools > 1 && ABT_self_get_xstream_rank(&rank) != ABT_SUCCESS)
        rank = 0;
    unsigned stride = 1;
    if (me->team && me->active_level > 0 && me->team->nthreads >= (unsigned)omp_npools)
        stride = 0;
    for (unsigned i = 1; i < n; i++) {
        ABT_pool pool = omp_pools[((unsigned)rank + i * stride) % (unsigned)omp_npools];
        int err =
            ABT_thread_create(pool, worker_main, &t->thr[i], ABT_THREAD_ATTR_NULL, &t->thr[i].ult);
        if (err != ABT_SUCCESS) {
            fprintf(stderr, "libweft-omp: cannot create thread %u of a team (weft error %d)\n", i,
                    err);
            abort();
        }
    }
    me->red_group = NULL;
    omp_set_self(&t->thr[0]);
    return t;
}

void omp_team_end(void)
{
    omp_thr *me = omp_self();
    omp_team *t = me->team;
    omp_task_free_deps(&me->itask);
    omp_barrier(me);
    if (omp_join_workers) /* the program owns weft: it may finalize it right after */
        omp_team_quiesce(t);
    if (weft_atomic_load_acquire(&t->ntasks) != 0) /* a cancelled region */
        omp_wait(me, no_tasks, t, true, NULL, NULL);
    omp_thr *parent = me->parent;
    omp_set_self(parent);
    /* Reclaim the constructs left after the last barrier; keep the team for next time. */
    omp_ws_reclaim(t);
    if (parent->child)
        omp_team_free(t);
    else
        parent->child = t;
}

void omp_parallel(void (*fn)(void *), void *data, unsigned n, unsigned flags)
{
    omp_team_begin(fn, data, n, flags);
    omp_affinity_auto();
    fn(data);
    omp_team_end();
}

OMP_API void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags)
{
    omp_parallel(fn, data, num_threads, flags);
}

OMP_API void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads)
{
    omp_team_begin(fn, data, num_threads, 0);
}

OMP_API void GOMP_parallel_end(void) { omp_team_end(); }
