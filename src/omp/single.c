/* src/omp/single.c - single and its copyprivate protocol.
 *
 * GOMP_single_start: the thread that creates the construct in the chain (loop.c) runs
 * the block.  copyprivate: the winner runs the block and calls GOMP_single_copy_end
 * (data), which stores the pointer in team->copy_ptr and enters the barrier; the others
 * enter the barrier from GOMP_single_copy_start and then read copy_ptr.  gcc follows
 * with a GOMP_barrier, so nobody overwrites copy_ptr before everyone has copied. */
#include "omp/rt.h"

static void single_init(omp_ws *w, void *a) { (void)w, (void)a; }

OMP_API bool GOMP_single_start(void)
{
    omp_thr *me = omp_self();
    if (!me->team || me->team->nthreads == 1)
        return me->team ? (omp_ws_next(me, single_init, NULL, &(bool){ 0 }), true) : true;
    bool created;
    omp_ws_next(me, single_init, NULL, &created);
    return created;
}

OMP_API void *GOMP_single_copy_start(void)
{
    omp_thr *me = omp_self();
    if (!me->team)
        return NULL;
    bool created;
    omp_ws_next(me, single_init, NULL, &created);
    if (created)
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
