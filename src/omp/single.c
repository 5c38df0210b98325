/* src/omp/single.c - single and its copyprivate protocol; the scope construct.
 *
 * GOMP_single_start: every thread counts the singles it meets (wo_thr.singles); the
 * team counts the singles won (team->singles).  The thread whose CAS moves the team's
 * count from k to k + 1 for its k-th single runs it: a thread past single k has seen it
 * won, so a late thread's CAS fails and a winner is unique.  No worksharing construct
 * is made.  copyprivate: the winner runs the block and calls GOMP_single_copy_end
 * (data), which stores the pointer in team->copy_ptr and enters the barrier; the others
 * enter the barrier from GOMP_single_copy_start and then read copy_ptr.  gcc follows
 * with a GOMP_barrier, so nobody overwrites copy_ptr before everyone has copied. */
#include <string.h>

#include "omp/rt.h"

static bool single_won(wo_thr *me)
{
    unsigned long k = me->singles++;
    unsigned long e = k;
    return weft_atomic_cas_strong_acq_rel(&me->team->singles, &e, k + 1);
}

WO_API bool GOMP_single_start(void)
{
    wo_thr *me = wo_self();
    return !me->team || single_won(me);
}

WO_API void *GOMP_single_copy_start(void)
{
    wo_thr *me = wo_self();
    if (!me->team || single_won(me))
        return NULL;
    wo_barrier(me);
    return me->team->copy_ptr;
}

WO_API void GOMP_single_copy_end(void *data)
{
    wo_thr *me = wo_self();
    if (!me->team)
        return;
    me->team->copy_ptr = data;
    wo_barrier(me);
}

/* scope with reduction(task, ...) (OpenMP 5.1): a worksharing construct every thread
 * enters, whose creator allocates the team's reduction blocks (reduction.c); gcc ends it
 * with GOMP_workshare_task_reduction_unregister. */
struct scope_args {
    const uintptr_t *red;
    size_t nthr;
};

static void scope_init(wo_ws *w, void *a)
{
    struct scope_args *s = a;
    if (s->red)
        wo_reduction_alloc(s->nthr, s->red, &w->red_mem, &w->red_end);
}

WO_API void GOMP_scope_start(uintptr_t *reductions)
{
    wo_thr *me = wo_self();
    struct scope_args a = { reductions, me->team ? me->team->nthreads : 1 };
    wo_ws *w;
    if (!me->team) {
        w = wo_ws_lone(me);
        scope_init(w, &a);
    } else {
        bool created;
        w = wo_ws_next(me, scope_init, &a, &created);
    }
    if (reductions)
        wo_reduction_ws_enter(me, reductions, w->red_mem, w->red_end);
}
