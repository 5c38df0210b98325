/* src/omp/loop.c - worksharing loops: GOMP_loop_* (long and unsigned long long),
 * monotonic and nonmonotonic, ordered, runtime, GOMP_loop_start, GOMP_parallel_loop_*;
 * and the worksharing chain every construct (loop, sections, single) walks.
 *
 * Iteration space.  A loop (start, end, incr) is normalized to n iterations numbered
 * 0 .. n-1; a chunk [a, b) is handed back as istart = start + a*incr and
 * iend = start + b*incr (end itself for the last chunk, so nothing overflows).  The
 * unsigned variant does the same in unsigned arithmetic (a downward loop passes a
 * negative incr as unsigned).
 *
 * Schedules.  static: thread tid takes chunks tid, tid + nthreads, ... (no chunk size:
 * one block of n / nthreads, the first n % nthreads threads one more), counted in
 * wo_thr.st_trip: no shared state.  dynamic: fetch_add on ws->next_iter.  guided: CAS
 * on next_iter with max(remaining / nthreads, chunk).  auto = static; runtime reads
 * run-sched-var.  Nonmonotonic variants are the same code (monotonic is allowed).
 *
 * The chain.  team->ws_head is a dummy; wo_thr.ws is the last construct the thread
 * entered.  Entering the next: read ws->next (acquire); if NULL, lock team->ws_lock,
 * re-read, and if still NULL make the construct, initialize it from the caller's
 * arguments, and publish it (release).  The barrier after a construct reclaims the chain
 * (every thread is in the barrier: barrier.c), putting the constructs on ws_free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp/rt.h"

uint64_t wo_iters_l(long start, long end, long incr)
{
    if (incr > 0) {
        if (start >= end)
            return 0;
        return ((uint64_t)end - (uint64_t)start + (uint64_t)incr - 1) / (uint64_t)incr;
    }
    if (incr < 0) {
        if (start <= end)
            return 0;
        uint64_t step = (uint64_t)0 - (uint64_t)incr;
        return ((uint64_t)start - (uint64_t)end + step - 1) / step;
    }
    return 0;
}

uint64_t wo_iters_ull(bool up, unsigned long long start, unsigned long long end,
                      unsigned long long incr)
{
    if (up) {
        if (start >= end || incr == 0)
            return 0;
        return (end - start + incr - 1) / incr;
    }
    if (start <= end || incr == 0)
        return 0;
    unsigned long long step = 0ULL - incr;
    return (start - end + step - 1) / step;
}

wo_ws *wo_ws_next(wo_thr *me, void (*init)(wo_ws *, void *), void *arg, bool *created)
{
    wo_team *t = me->team;
    wo_ws *cur = me->ws;
    wo_ws *n = weft_atomic_load_acquire(&cur->next);
    *created = false;
    if (!n) {
        weft_spin_lock(&t->ws_lock);
        n = weft_atomic_load_relaxed(&cur->next);
        if (!n) {
            n = t->ws_free;
            if (n) {
                t->ws_free = n->next;
            } else {
                n = calloc(1, sizeof(*n));
                if (!n) {
                    weft_spin_unlock(&t->ws_lock);
                    fprintf(stderr, "libweft-omp: out of memory for a worksharing construct\n");
                    abort();
                }
            }
            _Atomic uint64_t *posted = n->posted;
            uint64_t *dims = n->dims;
            memset(n, 0, sizeof(*n));
            n->posted = posted;
            n->dims = dims;
            init(n, arg);
            *created = true;
            weft_atomic_store_release(&cur->next, n);
        }
        weft_spin_unlock(&t->ws_lock);
    }
    me->ws = n;
    me->st_trip = 0;
    return n;
}

/* Only when every thread of the team is in a barrier (or the region is over).  Under
 * ws_lock as a whole, and idempotent: in a cancelled region the master leaves the last
 * barrier early and reclaims at the region's end while the worker that releases that
 * barrier may be reclaiming too (a race ThreadSanitizer saw in omp_cancel).
 *
 * The team memory of the last construct (GOMP_loop_start's and GOMP_sections2_start's
 * `mem`) outlives the barrier: gcc's code for reduction(inscan) keeps using it across the
 * GOMP_barrier calls between the scan's two phases, after GOMP_loop_end_nowait.  It stays
 * valid until a later construct is over, as in libgomp: a reclaim moves it to
 * t->ws_mem_kept, the next reclaim that finds constructs (every thread has then left
 * the scan behind) or the region's end (region_end) frees it. */
void wo_ws_reclaim(wo_team *t, bool region_end)
{
    /* No construct since the last reclaim (a barrier-only or task-only stretch): every
     * thread's ws is the head already; nothing to lock. */
    if (!weft_atomic_load_acquire(&t->ws_head.next) &&
        (!region_end || !weft_atomic_load_acquire(&t->ws_mem_kept)))
        return;
    weft_spin_lock(&t->ws_lock);
    wo_ws *first = t->ws_head.next;
    if (first) {
        wo_ws *last = first;
        for (;;) {
            wo_ws *nx = last->next;
            if (!nx)
                break;
            free(last->mem);
            last->mem = NULL;
            last = nx;
        }
        void *kept = weft_atomic_load_relaxed(&t->ws_mem_kept);
        if (kept || last->mem) { /* most constructs have no team memory */
            free(kept);
            weft_atomic_store_relaxed(&t->ws_mem_kept, last->mem);
            last->mem = NULL;
        }
        last->next = t->ws_free;
        t->ws_free = first;
        t->ws_head.next = NULL;
    }
    if (region_end && weft_atomic_load_relaxed(&t->ws_mem_kept)) {
        free(weft_atomic_load_relaxed(&t->ws_mem_kept));
        weft_atomic_store_relaxed(&t->ws_mem_kept, NULL);
    }
    for (unsigned i = 0; i < t->nthreads; i++)
        t->thr[i].ws = &t->ws_head;
    weft_spin_unlock(&t->ws_lock);
}

/* ---- initialization ---- */

struct loop_args {
    int sched;
    uint64_t n, chunk;
    bool ull;
    long lstart, lend, lincr;
    unsigned long long ustart, uend, uincr;
    size_t memsize;
    unsigned ncounts;    /* doacross: dimensions (0: not doacross) */
    const long *dcounts; /* doacross: their iteration counts */
    const unsigned long long *ucounts;
    const uintptr_t *red; /* task reductions: the creator's descriptor */
    size_t nthr;
};

static void loop_init(wo_ws *w, void *a)
{
    struct loop_args *l = a;
    w->sched = l->sched;
    w->n = l->n;
    w->chunk = l->chunk;
    w->ull = l->ull;
    w->lstart = l->lstart;
    w->lend = l->lend;
    w->uend = l->uend;
    w->lincr = l->lincr;
    w->ustart = l->ustart;
    w->uincr = l->uincr;
    if (l->memsize) {
        w->mem = calloc(1, l->memsize);
        if (!w->mem) {
            fprintf(stderr, "libweft-omp: out of memory for loop memory\n");
            abort();
        }
    }
    if (l->red)
        wo_reduction_alloc(l->nthr, l->red, &w->red_mem, &w->red_end);
    if (l->ncounts) {
        free(w->posted);
        free(w->dims);
        w->ncounts = l->ncounts;
        w->posted = calloc(l->n ? l->n : 1, sizeof(*w->posted));
        w->dims = calloc(l->ncounts, sizeof(*w->dims));
        if (!w->posted || !w->dims) {
            fprintf(stderr, "libweft-omp: out of memory for a doacross loop\n");
            abort();
        }
        for (unsigned i = 0; i < l->ncounts; i++)
            w->dims[i] = l->ull ? (uint64_t)l->ucounts[i]
                                : (l->dcounts[i] > 0 ? (uint64_t)l->dcounts[i] : 0);
    }
}

/* Resolve runtime/auto and defaults to a concrete schedule. */
static void resolve_sched(wo_thr *me, int *sched, uint64_t *chunk, long chunk_in)
{
    int s = *sched & ~WO_S_MONOTONIC;
    long c = chunk_in;
    if (s == WO_S_RUNTIME) {
        s = me->task->icv.run_sched & ~WO_S_MONOTONIC;
        c = me->task->icv.run_chunk;
    }
    if (s == WO_S_AUTO || s < WO_S_STATIC || s > WO_S_AUTO)
        s = WO_S_STATIC, c = 0;
    if (s != WO_S_STATIC && c < 1)
        c = 1;
    if (c < 0)
        c = 0;
    *sched = s;
    *chunk = (uint64_t)c;
}

/* ---- handing out chunks ---- */

static bool next_static(wo_thr *me, wo_ws *w, uint64_t *lo, uint64_t *hi)
{
    uint64_t nth = me->team ? me->team->nthreads : 1, tid = me->tid;
    if (w->chunk == 0) {
        if (me->st_trip++ != 0)
            return false;
        uint64_t q = w->n / nth, r = w->n % nth;
        uint64_t a = tid * q + (tid < r ? tid : r);
        uint64_t b = a + q + (tid < r);
        if (a >= b)
            return false;
        *lo = a, *hi = b;
        return true;
    }
    uint64_t c = me->st_trip * nth + tid;
    if (w->chunk && c > (UINT64_MAX / w->chunk))
        return false;
    uint64_t a = c * w->chunk;
    if (a >= w->n)
        return false;
    me->st_trip++;
    *lo = a;
    *hi = (w->n - a < w->chunk) ? w->n : a + w->chunk;
    return true;
}

static bool next_dynamic(wo_ws *w, uint64_t *lo, uint64_t *hi)
{
    uint64_t a = weft_atomic_load_relaxed(&w->next_iter);
    do {
        if (a >= w->n)
            return false;
    } while (!weft_atomic_cas_weak_relaxed(&w->next_iter, &a,
                                           (w->n - a < w->chunk) ? w->n : a + w->chunk));
    *lo = a;
    *hi = (w->n - a < w->chunk) ? w->n : a + w->chunk;
    return true;
}

static bool next_guided(wo_thr *me, wo_ws *w, uint64_t *lo, uint64_t *hi)
{
    uint64_t nth = me->team ? me->team->nthreads : 1;
    uint64_t a = weft_atomic_load_relaxed(&w->next_iter), b;
    do {
        if (a >= w->n)
            return false;
        uint64_t rem = w->n - a;
        uint64_t q = (rem + nth - 1) / nth;
        if (q < w->chunk)
            q = w->chunk;
        b = rem < q ? w->n : a + q;
    } while (!weft_atomic_cas_weak_relaxed(&w->next_iter, &a, b));
    *lo = a, *hi = b;
    return true;
}

static bool next_chunk(wo_thr *me, wo_ws *w, uint64_t *lo, uint64_t *hi)
{
    bool ok;
    switch (w->sched) {
    case WO_S_DYNAMIC: ok = next_dynamic(w, lo, hi); break;
    case WO_S_GUIDED: ok = next_guided(me, w, lo, hi); break;
    default: ok = next_static(me, w, lo, hi); break;
    }
    if (ok) {
        me->it_lo = *lo;
        me->it_hi = *hi;
        me->ord_cur = *lo;
    }
    return ok;
}

/* ---- a thread outside any team runs the whole loop (orphaned construct) ---- */

wo_ws *wo_ws_lone(wo_thr *me)
{
    wo_ws *w = me->lone;
    if (!w) {
        w = me->lone = calloc(1, sizeof(*w));
        if (!w) {
            fprintf(stderr, "libweft-omp: out of memory for a worksharing construct\n");
            abort();
        }
    }
    free(w->mem);
    free(w->posted);
    free(w->dims);
    memset(w, 0, sizeof(*w));
    me->ws = w;
    me->st_trip = 0;
    return w;
}

static wo_ws *enter(wo_thr *me, struct loop_args *l)
{
    if (!me->team) {
        /* orphaned, outside any region: the encountering thread is a team of one */
        wo_ws *w = wo_ws_lone(me);
        loop_init(w, l);
        return w;
    }
    bool created;
    return wo_ws_next(me, loop_init, l, &created);
}

static void out_l(wo_ws *w, uint64_t lo, uint64_t hi, long end, long *istart, long *iend)
{
    *istart = (long)((uint64_t)w->lstart + lo * (uint64_t)w->lincr);
    *iend = hi == w->n ? end : (long)((uint64_t)w->lstart + hi * (uint64_t)w->lincr);
}

static void out_ull(wo_ws *w, uint64_t lo, uint64_t hi, unsigned long long *istart,
                    unsigned long long *iend)
{
    *istart = w->ustart + lo * w->uincr;
    *iend = hi == w->n ? w->uend : w->ustart + hi * w->uincr;
}

static bool loop_next_l(wo_thr *me, long *istart, long *iend)
{
    wo_ws *w = me->ws;
    uint64_t lo, hi;
    if (!next_chunk(me, w, &lo, &hi))
        return false;
    out_l(w, lo, hi, w->lend, istart, iend);
    return true;
}

static bool loop_start_l(long start, long end, long incr, int sched, long chunk, long *istart,
                         long *iend, void **mem, uintptr_t *red)
{
    wo_thr *me = wo_self();
    struct loop_args l = { 0 };
    l.red = red;
    l.nthr = me->team ? me->team->nthreads : 1;
    l.sched = sched;
    resolve_sched(me, &l.sched, &l.chunk, chunk);
    l.n = wo_iters_l(start, end, incr);
    l.lstart = start, l.lend = end, l.lincr = incr;
    if (mem)
        l.memsize = (size_t)(uintptr_t)*mem;
    wo_ws *w = enter(me, &l);
    if (red)
        wo_reduction_ws_enter(me, red, w->red_mem, w->red_end);
    if (mem)
        *mem = w->mem;
    if (!istart)
        return true;
    uint64_t lo, hi;
    if (!next_chunk(me, w, &lo, &hi))
        return false;
    out_l(w, lo, hi, end, istart, iend);
    return true;
}

static bool loop_start_ull(bool up, unsigned long long start, unsigned long long end,
                           unsigned long long incr, int sched, unsigned long long chunk,
                           unsigned long long *istart, unsigned long long *iend, void **mem,
                           uintptr_t *red)
{
    wo_thr *me = wo_self();
    struct loop_args l = { 0 };
    l.red = red;
    l.nthr = me->team ? me->team->nthreads : 1;
    l.sched = sched;
    long c = chunk > (unsigned long long)INT64_MAX ? INT64_MAX : (long)chunk;
    resolve_sched(me, &l.sched, &l.chunk, c);
    l.n = wo_iters_ull(up, start, end, incr);
    l.ull = true;
    l.ustart = start, l.uend = end, l.uincr = incr;
    if (mem)
        l.memsize = (size_t)(uintptr_t)*mem;
    wo_ws *w = enter(me, &l);
    if (red)
        wo_reduction_ws_enter(me, red, w->red_mem, w->red_end);
    if (mem)
        *mem = w->mem;
    if (!istart)
        return true;
    uint64_t lo, hi;
    if (!next_chunk(me, w, &lo, &hi))
        return false;
    out_ull(w, lo, hi, istart, iend);
    return true;
}

static bool loop_next_ull(unsigned long long *istart, unsigned long long *iend)
{
    wo_thr *me = wo_self();
    wo_ws *w = me->ws;
    uint64_t lo, hi;
    if (!next_chunk(me, w, &lo, &hi))
        return false;
    out_ull(w, lo, hi, istart, iend);
    return true;
}

/* ---- long entry points ---- */

#define LOOP_L(name, sched)                                                            \
    WO_API bool GOMP_loop_##name##_start(long start, long end, long incr, long chunk,  \
                                         long *istart, long *iend)                     \
    {                                                                                  \
        return loop_start_l(start, end, incr, sched, chunk, istart, iend, NULL, NULL); \
    }                                                                                  \
    WO_API bool GOMP_loop_##name##_next(long *istart, long *iend)                      \
    {                                                                                  \
        return loop_next_l(wo_self(), istart, iend);                                   \
    }

LOOP_L(static, WO_S_STATIC)
LOOP_L(dynamic, WO_S_DYNAMIC)
LOOP_L(guided, WO_S_GUIDED)
LOOP_L(nonmonotonic_dynamic, WO_S_DYNAMIC)
LOOP_L(nonmonotonic_guided, WO_S_GUIDED)
LOOP_L(ordered_static, WO_S_STATIC)
LOOP_L(ordered_dynamic, WO_S_DYNAMIC)
LOOP_L(ordered_guided, WO_S_GUIDED)

#define LOOP_L_RUNTIME(name)                                                              \
    WO_API bool GOMP_loop_##name##_start(long start, long end, long incr, long *istart,   \
                                         long *iend)                                      \
    {                                                                                     \
        return loop_start_l(start, end, incr, WO_S_RUNTIME, 0, istart, iend, NULL, NULL); \
    }                                                                                     \
    WO_API bool GOMP_loop_##name##_next(long *istart, long *iend)                         \
    {                                                                                     \
        return loop_next_l(wo_self(), istart, iend);                                      \
    }

LOOP_L_RUNTIME(runtime)
LOOP_L_RUNTIME(nonmonotonic_runtime)
LOOP_L_RUNTIME(maybe_nonmonotonic_runtime)
LOOP_L_RUNTIME(ordered_runtime)

WO_API bool GOMP_loop_start(long start, long end, long incr, long sched, long chunk, long *istart,
                            long *iend, uintptr_t *reductions, void **mem)
{
    return loop_start_l(start, end, incr, (int)sched, chunk, istart, iend, mem, reductions);
}

WO_API bool GOMP_loop_ordered_start(long start, long end, long incr, long sched, long chunk,
                                    long *istart, long *iend, uintptr_t *reductions, void **mem)
{
    return GOMP_loop_start(start, end, incr, sched, chunk, istart, iend, reductions, mem);
}

/* ---- unsigned long long entry points ---- */

#define LOOP_ULL(name, sched)                                                                      \
    WO_API bool GOMP_loop_ull_##name##_start(bool up, unsigned long long start,                    \
                                             unsigned long long end, unsigned long long incr,      \
                                             unsigned long long chunk, unsigned long long *istart, \
                                             unsigned long long *iend)                             \
    {                                                                                              \
        return loop_start_ull(up, start, end, incr, sched, chunk, istart, iend, NULL, NULL);       \
    }                                                                                              \
    WO_API bool GOMP_loop_ull_##name##_next(unsigned long long *istart, unsigned long long *iend)  \
    {                                                                                              \
        return loop_next_ull(istart, iend);                                                        \
    }

LOOP_ULL(static, WO_S_STATIC)
LOOP_ULL(dynamic, WO_S_DYNAMIC)
LOOP_ULL(guided, WO_S_GUIDED)
LOOP_ULL(nonmonotonic_dynamic, WO_S_DYNAMIC)
LOOP_ULL(nonmonotonic_guided, WO_S_GUIDED)
LOOP_ULL(ordered_static, WO_S_STATIC)
LOOP_ULL(ordered_dynamic, WO_S_DYNAMIC)
LOOP_ULL(ordered_guided, WO_S_GUIDED)

#define LOOP_ULL_RUNTIME(name)                                                                     \
    WO_API bool GOMP_loop_ull_##name##_start(bool up, unsigned long long start,                    \
                                             unsigned long long end, unsigned long long incr,      \
                                             unsigned long long *istart, unsigned long long *iend) \
    {                                                                                              \
        return loop_start_ull(up, start, end, incr, WO_S_RUNTIME, 0, istart, iend, NULL, NULL);    \
    }                                                                                              \
    WO_API bool GOMP_loop_ull_##name##_next(unsigned long long *istart, unsigned long long *iend)  \
    {                                                                                              \
        return loop_next_ull(istart, iend);                                                        \
    }

LOOP_ULL_RUNTIME(runtime)
LOOP_ULL_RUNTIME(nonmonotonic_runtime)
LOOP_ULL_RUNTIME(maybe_nonmonotonic_runtime)
LOOP_ULL_RUNTIME(ordered_runtime)

WO_API bool GOMP_loop_ull_start(bool up, unsigned long long start, unsigned long long end,
                                unsigned long long incr, long sched, unsigned long long chunk,
                                unsigned long long *istart, unsigned long long *iend,
                                uintptr_t *reductions, void **mem)
{
    return loop_start_ull(up, start, end, incr, (int)sched, chunk, istart, iend, mem, reductions);
}

WO_API bool GOMP_loop_ull_ordered_start(bool up, unsigned long long start, unsigned long long end,
                                        unsigned long long incr, long sched,
                                        unsigned long long chunk, unsigned long long *istart,
                                        unsigned long long *iend, uintptr_t *reductions, void **mem)
{
    return GOMP_loop_ull_start(up, start, end, incr, sched, chunk, istart, iend, reductions, mem);
}

/* ---- doacross loops: ordered(n) with depend(sink/source); the loop runs over the
 * first dimension, 0 .. counts[0] - 1 (post/wait: ordered.c) ---- */

static bool doacross_start_l(unsigned ncounts, long *counts, int sched, long chunk, long *istart,
                             long *iend, void **mem, uintptr_t *red)
{
    wo_thr *me = wo_self();
    struct loop_args l = { 0 };
    l.red = red;
    l.nthr = me->team ? me->team->nthreads : 1;
    l.sched = sched;
    resolve_sched(me, &l.sched, &l.chunk, chunk);
    l.n = counts[0] > 0 ? (uint64_t)counts[0] : 0;
    l.lstart = 0, l.lend = counts[0], l.lincr = 1;
    l.ncounts = ncounts;
    l.dcounts = counts;
    if (mem)
        l.memsize = (size_t)(uintptr_t)*mem;
    wo_ws *w = enter(me, &l);
    if (red)
        wo_reduction_ws_enter(me, red, w->red_mem, w->red_end);
    if (mem)
        *mem = w->mem;
    uint64_t lo, hi;
    if (!istart || !next_chunk(me, w, &lo, &hi))
        return false;
    out_l(w, lo, hi, counts[0], istart, iend);
    return true;
}

static bool doacross_start_ull(unsigned ncounts, unsigned long long *counts, int sched,
                               unsigned long long chunk, unsigned long long *istart,
                               unsigned long long *iend, void **mem, uintptr_t *red)
{
    wo_thr *me = wo_self();
    struct loop_args l = { 0 };
    l.red = red;
    l.nthr = me->team ? me->team->nthreads : 1;
    l.sched = sched;
    resolve_sched(me, &l.sched, &l.chunk,
                  chunk > (unsigned long long)INT64_MAX ? INT64_MAX : (long)chunk);
    l.n = counts[0];
    l.ull = true;
    l.ustart = 0, l.uend = counts[0], l.uincr = 1;
    l.ncounts = ncounts;
    l.ucounts = counts;
    if (mem)
        l.memsize = (size_t)(uintptr_t)*mem;
    wo_ws *w = enter(me, &l);
    if (red)
        wo_reduction_ws_enter(me, red, w->red_mem, w->red_end);
    if (mem)
        *mem = w->mem;
    uint64_t lo, hi;
    if (!istart || !next_chunk(me, w, &lo, &hi))
        return false;
    out_ull(w, lo, hi, istart, iend);
    return true;
}

#define DOACROSS(name, sched)                                                                 \
    WO_API bool GOMP_loop_doacross_##name##_start(unsigned ncounts, long *counts, long chunk, \
                                                  long *istart, long *iend)                   \
    {                                                                                         \
        return doacross_start_l(ncounts, counts, sched, chunk, istart, iend, NULL, NULL);     \
    }                                                                                         \
    WO_API bool GOMP_loop_ull_doacross_##name##_start(unsigned ncounts,                       \
                                                      unsigned long long *counts,             \
                                                      unsigned long long chunk,               \
                                                      unsigned long long *istart,             \
                                                      unsigned long long *iend)               \
    {                                                                                         \
        return doacross_start_ull(ncounts, counts, sched, chunk, istart, iend, NULL, NULL);   \
    }
DOACROSS(static, WO_S_STATIC)
DOACROSS(dynamic, WO_S_DYNAMIC)
DOACROSS(guided, WO_S_GUIDED)

WO_API bool GOMP_loop_doacross_runtime_start(unsigned ncounts, long *counts, long *istart,
                                             long *iend)
{
    return doacross_start_l(ncounts, counts, WO_S_RUNTIME, 0, istart, iend, NULL, NULL);
}

WO_API bool GOMP_loop_ull_doacross_runtime_start(unsigned ncounts, unsigned long long *counts,
                                                 unsigned long long *istart,
                                                 unsigned long long *iend)
{
    return doacross_start_ull(ncounts, counts, WO_S_RUNTIME, 0, istart, iend, NULL, NULL);
}

WO_API bool GOMP_loop_doacross_start(unsigned ncounts, long *counts, long sched, long chunk,
                                     long *istart, long *iend, uintptr_t *reductions, void **mem)
{
    return doacross_start_l(ncounts, counts, (int)sched, chunk, istart, iend, mem, reductions);
}

WO_API bool GOMP_loop_ull_doacross_start(unsigned ncounts, unsigned long long *counts, long sched,
                                         unsigned long long chunk, unsigned long long *istart,
                                         unsigned long long *iend, uintptr_t *reductions,
                                         void **mem)
{
    return doacross_start_ull(ncounts, counts, (int)sched, chunk, istart, iend, mem, reductions);
}

/* ---- ends ---- */

WO_API void GOMP_loop_end(void) { wo_barrier(wo_self()); }

WO_API void GOMP_loop_end_nowait(void) {}

WO_API bool GOMP_loop_end_cancel(void)
{
    wo_thr *me = wo_self();
    if (!me->team)
        return false;
    bool par = wo_barrier(me);
    return par || me->team->bar_ws_cancelled;
}

/* ---- combined parallel loops ----
 * gcc's outlined body of a combined construct calls GOMP_loop_*_next first, so the
 * construct exists before any thread runs: wo_team_begin makes it from these args. */

static void parallel_loop(void (*fn)(void *), void *data, unsigned num_threads, long start,
                          long end, long incr, int sched, long chunk, unsigned flags)
{
    wo_rt_init();
    wo_thr *enc = wo_self();
    struct loop_args l = { 0 };
    l.sched = sched;
    resolve_sched(enc, &l.sched, &l.chunk, chunk);
    l.n = wo_iters_l(start, end, incr);
    l.lstart = start, l.lend = end, l.lincr = incr;
    wo_team_begin_ws(fn, data, num_threads, flags, loop_init, &l);
}

#define PLOOP(name, sched)                                                                      \
    WO_API void GOMP_parallel_loop_##name(void (*fn)(void *), void *data, unsigned num_threads, \
                                          long start, long end, long incr, long chunk,          \
                                          unsigned flags)                                       \
    {                                                                                           \
        parallel_loop(fn, data, num_threads, start, end, incr, sched, chunk, flags);            \
        fn(data);                                                                               \
        wo_team_end();                                                                          \
    }
PLOOP(static, WO_S_STATIC)
PLOOP(dynamic, WO_S_DYNAMIC)
PLOOP(guided, WO_S_GUIDED)
PLOOP(nonmonotonic_dynamic, WO_S_DYNAMIC)
PLOOP(nonmonotonic_guided, WO_S_GUIDED)

#define PLOOP_RUNTIME(name)                                                                     \
    WO_API void GOMP_parallel_loop_##name(void (*fn)(void *), void *data, unsigned num_threads, \
                                          long start, long end, long incr, unsigned flags)      \
    {                                                                                           \
        parallel_loop(fn, data, num_threads, start, end, incr, WO_S_RUNTIME, 0, flags);         \
        fn(data);                                                                               \
        wo_team_end();                                                                          \
    }
PLOOP_RUNTIME(runtime)
PLOOP_RUNTIME(nonmonotonic_runtime)
PLOOP_RUNTIME(maybe_nonmonotonic_runtime)

/* The GOMP 1.0 forms: the team starts, the caller runs fn, then GOMP_parallel_end. */
#define PLOOP_START(name, sched)                                                              \
    WO_API void GOMP_parallel_loop_##name##_start(void (*fn)(void *), void *data,             \
                                                  unsigned num_threads, long start, long end, \
                                                  long incr, long chunk)                      \
    {                                                                                         \
        parallel_loop(fn, data, num_threads, start, end, incr, sched, chunk, 0);              \
    }
PLOOP_START(static, WO_S_STATIC)
PLOOP_START(dynamic, WO_S_DYNAMIC)
PLOOP_START(guided, WO_S_GUIDED)

WO_API void GOMP_parallel_loop_runtime_start(void (*fn)(void *), void *data, unsigned num_threads,
                                             long start, long end, long incr)
{
    parallel_loop(fn, data, num_threads, start, end, incr, WO_S_RUNTIME, 0, 0);
}
