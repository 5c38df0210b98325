/* src/omp/ordered.c - the ordered construct inside an ordered loop.
 *
 * The loop hands a thread a chunk [lo, hi) of iteration indices (loop.c sets
 * wo_thr.ord_cur = lo).  GOMP_ordered_start waits until the construct's ord_next
 * equals the thread's ord_cur; GOMP_ordered_end advances both by one and wakes parked
 * threads.  The iterations therefore enter the ordered region one by one in iteration
 * order.  Each iteration must execute the ordered region exactly once (an iteration
 * that skips it holds up the later ones: documented limit).
 *
 * Doacross (ordered(n) with depend(sink) / depend(source)).  The loop's construct keeps,
 * per iteration i of the first dimension, 1 + the last inner iteration posted there,
 * the inner indices flattened (row-major over the other dimensions).  One thread runs all
 * inner iterations of an outer iteration in lexicographic order, so that value only
 * grows: a post stores it (release) and wakes parked threads, a wait for (i, j...) waits
 * until posted[i] > flat(j...).  A sink outside the iteration space is satisfied. */
#include <stdarg.h>

#include "omp/rt.h"

struct ord_arg {
    wo_ws *w;
    uint64_t mine;
};

static bool ord_ready(void *a)
{
    struct ord_arg *o = a;
    return weft_atomic_load_acquire(&o->w->ord_next) == o->mine;
}

WO_API void GOMP_ordered_start(void)
{
    wo_thr *me = wo_self();
    if (!me->team || me->team->nthreads == 1)
        return;
    struct ord_arg o = { me->ws, me->ord_cur };
    if (!ord_ready(&o))
        wo_wait(me, ord_ready, &o, false, NULL, NULL);
}

WO_API void GOMP_ordered_end(void)
{
    wo_thr *me = wo_self();
    if (!me->team || me->team->nthreads == 1)
        return;
    me->ord_cur++;
    weft_atomic_store_release(&me->ws->ord_next, me->ord_cur);
    wo_team_wake(me->team);
}

/* ---- doacross ---- */

struct dx_arg {
    _Atomic uint64_t *slot;
    uint64_t need;
};

static bool dx_ready(void *a)
{
    struct dx_arg *d = a;
    return weft_atomic_load_acquire(d->slot) >= d->need;
}

static void dx_post(wo_thr *me, const uint64_t *idx)
{
    wo_ws *w = me->ws;
    if (!w->posted || idx[0] >= w->dims[0])
        return;
    uint64_t flat = 0;
    for (uint64_t d = 1; d < w->ncounts; d++)
        flat = flat * w->dims[d] + idx[d];
    weft_atomic_store_release(&w->posted[idx[0]], flat + 1);
    if (me->team)
        wo_team_wake(me->team);
}

/* idx: the sink's indices, in range or not (checked here) */
static void dx_wait(wo_thr *me, const int64_t *sidx, const uint64_t *uidx)
{
    wo_ws *w = me->ws;
    if (!w->posted || !me->team || me->team->nthreads == 1)
        return;
    uint64_t flat = 0, i0 = 0;
    for (uint64_t d = 0; d < w->ncounts; d++) {
        uint64_t v;
        if (sidx) {
            if (sidx[d] < 0)
                return;
            v = (uint64_t)sidx[d];
        } else {
            v = uidx[d];
        }
        if (v >= w->dims[d])
            return;
        if (d == 0)
            i0 = v;
        else
            flat = flat * w->dims[d] + v;
    }
    struct dx_arg a = { &w->posted[i0], flat + 1 };
    if (!dx_ready(&a))
        wo_wait(me, dx_ready, &a, false, NULL, NULL);
}

#define DX_MAX 64

WO_API void GOMP_doacross_post(long *counts)
{
    wo_thr *me = wo_self();
    uint64_t idx[DX_MAX];
    uint64_t n = me->ws->ncounts < DX_MAX ? me->ws->ncounts : DX_MAX;
    for (uint64_t d = 0; d < n; d++)
        idx[d] = (uint64_t)counts[d];
    dx_post(me, idx);
}

WO_API void GOMP_doacross_ull_post(unsigned long long *counts)
{
    wo_thr *me = wo_self();
    uint64_t idx[DX_MAX];
    uint64_t n = me->ws->ncounts < DX_MAX ? me->ws->ncounts : DX_MAX;
    for (uint64_t d = 0; d < n; d++)
        idx[d] = counts[d];
    dx_post(me, idx);
}

WO_API void GOMP_doacross_wait(long first, ...)
{
    wo_thr *me = wo_self();
    int64_t idx[DX_MAX];
    uint64_t n = me->ws->ncounts < DX_MAX ? me->ws->ncounts : DX_MAX;
    va_list ap;
    va_start(ap, first);
    idx[0] = first;
    for (uint64_t d = 1; d < n; d++)
        idx[d] = va_arg(ap, long);
    va_end(ap);
    dx_wait(me, idx, NULL);
}

WO_API void GOMP_doacross_ull_wait(unsigned long long first, ...)
{
    wo_thr *me = wo_self();
    uint64_t idx[DX_MAX];
    uint64_t n = me->ws->ncounts < DX_MAX ? me->ws->ncounts : DX_MAX;
    va_list ap;
    va_start(ap, first);
    idx[0] = first;
    for (uint64_t d = 1; d < n; d++)
        idx[d] = va_arg(ap, unsigned long long);
    va_end(ap);
    dx_wait(me, NULL, idx);
}
