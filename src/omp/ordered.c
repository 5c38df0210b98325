/* src/omp/ordered.c - the ordered construct inside an ordered loop.
 *
 * The loop hands a thread a chunk [lo, hi) of iteration indices (loop.c sets
 * omp_thr.ord_cur = lo).  GOMP_ordered_start waits until the construct's ord_next
 * equals the thread's ord_cur; GOMP_ordered_end advances both by one and wakes parked
 * threads.  The iterations therefore enter the ordered region one by one in iteration
 * order.  Each iteration must execute the ordered region exactly once (an iteration
 * that skips it holds up the later ones: documented limit). */
#include "omp/rt.h"

struct ord_arg {
    omp_ws *w;
    uint64_t mine;
};

static bool ord_ready(void *a)
{
    struct ord_arg *o = a;
    return weft_atomic_load_acquire(&o->w->ord_next) == o->mine;
}

OMP_API void GOMP_ordered_start(void)
{
    omp_thr *me = omp_self();
    if (!me->team || me->team->nthreads == 1)
        return;
    struct ord_arg o = { me->ws, me->ord_cur };
    if (!ord_ready(&o))
        omp_wait(me, ord_ready, &o, false, NULL, NULL);
}

OMP_API void GOMP_ordered_end(void)
{
    omp_thr *me = omp_self();
    if (!me->team || me->team->nthreads == 1)
        return;
    me->ord_cur++;
    weft_atomic_store_release(&me->ws->ord_next, me->ord_cur);
    omp_team_wake(me->team);
}
