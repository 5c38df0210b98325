/* src/omp/sections.c - sections: GOMP_sections_start/next/end, sections2, and the
 * combined parallel sections.  A sections construct is a dynamic loop of chunk 1 over
 * the section numbers 1 .. count (loop.c's chain and hand-out); 0 means "no more". */
#include <stdio.h>
#include <stdlib.h>

#include "omp/rt.h"

struct sec_args {
    unsigned count;
    size_t memsize;
    const uintptr_t *red; /* task reductions: the creator's descriptor */
    size_t nthr;
};

static void sec_init(wo_ws *w, void *a)
{
    struct sec_args *s = a;
    w->sched = WO_S_DYNAMIC;
    w->n = s->count;
    w->chunk = 1;
    if (s->memsize) {
        w->mem = calloc(1, s->memsize);
        if (!w->mem) {
            fprintf(stderr, "libweft-omp: out of memory for sections memory\n");
            abort();
        }
    }
    if (s->red)
        wo_reduction_alloc(s->nthr, s->red, &w->red_mem, &w->red_end);
}

static unsigned sec_next(wo_thr *me)
{
    wo_ws *w = me->ws;
    uint64_t a = weft_atomic_fetch_add_relaxed(&w->next_iter, 1);
    return a < w->n ? (unsigned)a + 1 : 0;
}

static unsigned sec_start(unsigned count, void **mem, uintptr_t *red)
{
    wo_thr *me = wo_self();
    struct sec_args s = { count, mem ? (size_t)(uintptr_t)*mem : 0, red,
                          me->team ? me->team->nthreads : 1 };
    if (!me->team) {
        sec_init(wo_ws_lone(me), &s);
    } else {
        bool created;
        wo_ws_next(me, sec_init, &s, &created);
    }
    if (mem)
        *mem = me->ws->mem;
    if (red)
        wo_reduction_ws_enter(me, red, me->ws->red_mem, me->ws->red_end);
    return sec_next(me);
}

WO_API unsigned GOMP_sections_start(unsigned count) { return sec_start(count, NULL, NULL); }

WO_API unsigned GOMP_sections2_start(unsigned count, uintptr_t *reductions, void **mem)
{
    return sec_start(count, mem, reductions);
}

WO_API unsigned GOMP_sections_next(void) { return sec_next(wo_self()); }

WO_API void GOMP_sections_end(void) { wo_barrier(wo_self()); }

WO_API void GOMP_sections_end_nowait(void) {}

WO_API bool GOMP_sections_end_cancel(void)
{
    wo_thr *me = wo_self();
    if (!me->team)
        return false;
    bool par = wo_barrier(me);
    return par || me->team->bar_ws_cancelled;
}

WO_API void GOMP_parallel_sections_start(void (*fn)(void *), void *data, unsigned num_threads,
                                         unsigned count)
{
    struct sec_args s = { count, 0, NULL, 0 };
    wo_team_begin_ws(fn, data, num_threads, 0, sec_init, &s);
}

WO_API void GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned num_threads,
                                   unsigned count, unsigned flags)
{
    struct sec_args s = { count, 0, NULL, 0 };
    wo_team_begin_ws(fn, data, num_threads, flags, sec_init, &s);
    fn(data);
    wo_team_end();
}
