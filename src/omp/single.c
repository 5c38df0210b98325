/* src/omp/single.c - single and its copyprivate protocol; the scope construct.
 *
 * GOMP_single_start: every thread counts the singles it meets (omp_thr.singles); the
 * team counts the singles won (team->singles).  The thread whose CAS moves the team's
 * count from k to k + 1 for its k-th single runs it: a thread past single k has seen it
 * won, so a late thread's CAS fails and a winner is unique.  No worksharing construct
 * is made.  copyprivate: the winner runs the block and calls GOMP_single_copy_end
 * (data), which stores the pointer in team->copy_ptr and enters the barrier; the others
 * enter the barrier from GOMP_single_copy_start and then read copy_ptr.  gcc follows
 * with a GOMP_barrier, so nobody overwrites copy_ptr before everyone has copied. */
#include <string.h>

#include "omp/rt.h"

static bool single_won(omp_thr *me)
{
    unsigned long k = me->singles++;
    unsigned long e = k;
    return weft_atomic_cas_strong_acq_rel(&me->team->singles, &e, k + 1);
}

OMP_API bool GOMP_single_start(void)
{
    omp_thr *me = omp_self();
    return !me->team || single_won(me);
}

OMP_API void *GOMP_single_copy_start(void)
{
    omp_thr *me = omp_self();
    if (!me->team || single_won(me))
        return NULL;
    omp_barrier(me);
    return me->team->copy_ptr;
}

OMP_API void GOMP_single_copy_end(void *data)
{
    omp_thr *me = omp_self();
    if (!me->team)
        return;
    me->team->copy_ptr = data;
    omp_barrier(me);
}

/* scope with reduction(task, ...) (OpenMP 5.1): a worksharing construct every thread
 * enters, whose creator allocates the team's reduction blocks (reduction.c); gcc ends it
 * with GOMP_workshare_task_reduction_unregister. */
struct scope_args {
    const uintptr_t *red;
    size_t nthr;
};

static void scope_init(omp_ws *w, void *a)
{
    struct scope_args *s = a;
    if (s->red)
        omp_reduction_alloc(s->nthr, s->red, &w->red_mem, &w->red_end);
}

OMP_API void GOMP_scope_start(uintptr_t *reductions)
{
    omp_thr *me = omp_self();
    struct scope_args a = { reductions, me->team ? me->team->nthreads : 1 };
    omp_ws *w;
    if (!me->team) {
        w = omp_ws_lone(me);
        scope_init(w, &a);
    } else {
        bool created;
        w = omp_ws_next(me, scope_init, &a, &created);
    }
    if (reductions)
        omp_reduction_ws_enter(me, reductions, w->red_mem, w->red_end);
}
