/* src/omp/reduction.c - task reductions: taskgroup task_reduction / in_reduction and
 * taskloop reduction, as gcc lowers them.
 *
 * gcc describes the reductions of a taskgroup in an array `data`: data[0] = count,
 * data[1] = bytes of one thread's block (all the private copies plus an "initialized"
 * flag each), data[2] = the block alignment on input and, on output, the address of
 * the blocks (one per thread of the team, zeroed: the flags start false and the
 * outlined code initializes a copy on first use), data[4] = the next (enclosing)
 * registration, data[6] = the end of the blocks; then three words per variable: its
 * address, its offset in a block, and a word the runtime may use (here: data).  gcc's
 * code combines the blocks itself after the taskgroup (over omp_get_num_threads()
 * blocks) and then calls GOMP_taskgroup_reduction_unregister.
 *
 * A task with in_reduction calls GOMP_task_reduction_remap with the original addresses
 * (or addresses inside another thread's block, when a task's data was copied from an
 * already remapped pointer): each becomes the address of the same variable in the block
 * of the thread running the task.  The registration is found by walking the taskgroups
 * from the current task outwards (each group holds its chain).
 *
 * Worksharing constructs with reduction(task, ...) pass each thread's own copy of the
 * descriptor to GOMP_loop_start / GOMP_sections2_start: the construct's creator
 * allocates the blocks (loop.c), every thread opens a taskgroup and points its copy at
 * them; GOMP_workshare_task_reduction_unregister closes it.  A parallel region with
 * reduction(task, ...) hangs the descriptor on one taskgroup that all its implicit
 * tasks share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp/rt.h"

static uintptr_t *chain_of(wo_task *k)
{
    for (; k; k = k->parent) {
        for (wo_taskgroup *g = k->tg_open; g; g = g->prev)
            if (g->reductions)
                return g->reductions;
        for (wo_taskgroup *g = k->group; g; g = g->prev)
            if (g->reductions)
                return g->reductions;
    }
    return NULL;
}

void wo_reduction_alloc(size_t nthr, const uintptr_t *data, void **mem, void **end)
{
    size_t size = data[1], align = data[2] ? data[2] : sizeof(void *);
    if (align < sizeof(void *))
        align = sizeof(void *);
    size_t total = (nthr * size + align - 1) & ~(align - 1);
    void *m = NULL;
    if (posix_memalign(&m, align, total ? total : align) != 0) {
        fprintf(stderr, "libweft-omp: out of memory for task reductions\n");
        abort();
    }
    memset(m, 0, total);
    *mem = m;
    *end = (char *)m + nthr * size;
}

/* Point descriptor `data` at blocks [mem, end) and hang it on group g. */
static void attach(wo_task *task, wo_taskgroup *g, uintptr_t *data, void *mem, void *end)
{
    data[2] = (uintptr_t)mem;
    data[6] = (uintptr_t)end;
    data[5] = 0;
    data[4] = (uintptr_t)chain_of(task);
    for (uintptr_t i = 0; i < data[0]; i++)
        data[7 + 3 * i + 2] = (uintptr_t)data;
    g->reductions = data;
}

void wo_reduction_register(wo_thr *me, uintptr_t *data)
{
    wo_taskgroup *g = me->task->tg_open;
    if (!g) {
        fprintf(stderr, "libweft-omp: task reduction outside a taskgroup\n");
        abort();
    }
    void *mem, *end;
    wo_reduction_alloc(me->team ? me->team->nthreads : 1, data, &mem, &end);
    attach(me->task, g, data, mem, end);
}

void wo_reduction_ws_enter(wo_thr *me, uintptr_t *data, void *mem, void *end)
{
    GOMP_taskgroup_start();
    attach(me->task, me->task->tg_open, data, mem, end);
}

/* After a worksharing construct with task reductions (and gcc's combining, on thread
 * 0): close the thread's taskgroup, thread 0 frees the blocks, then the barrier. */
WO_API void GOMP_workshare_task_reduction_unregister(bool cancelled)
{
    wo_thr *me = wo_self();
    wo_taskgroup *g = me->task->tg_open;
    uintptr_t *data = g ? g->reductions : NULL;
    GOMP_taskgroup_end();
    if (data && me->tid == 0) {
        free((void *)data[2]);
        data[2] = 0;
    }
    if (!cancelled)
        wo_barrier(me);
}

/* A parallel region with reduction(task, ...): the descriptor is the first word of the
 * region's data; every implicit task of the team sees it through one shared taskgroup.
 * gcc combines the blocks after the region (the return value is the team size) and then
 * calls GOMP_taskgroup_reduction_unregister. */
WO_API unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
                                         unsigned flags)
{
    wo_rt_init();
    wo_thr *me = wo_self();
    unsigned n = wo_resolve_nthreads(me, num_threads);
    uintptr_t *rdata = *(uintptr_t **)data;
    wo_taskgroup *g = calloc(1, sizeof(*g));
    if (!g) {
        fprintf(stderr, "libweft-omp: out of memory for task reductions\n");
        abort();
    }
    void *mem, *end;
    wo_reduction_alloc(n, rdata, &mem, &end);
    attach(me->task, g, rdata, mem, end);
    me->red_group = g;
    wo_team_begin(fn, data, n, flags);
    fn(data);
    wo_team_end();
    free(g);
    return n;
}

WO_API void GOMP_taskgroup_reduction_register(uintptr_t *data)
{
    wo_reduction_register(wo_self(), data);
}

WO_API void GOMP_taskgroup_reduction_unregister(uintptr_t *data)
{
    free((void *)data[2]);
    data[2] = 0;
}

WO_API void GOMP_task_reduction_remap(size_t cnt, size_t cntorig, void **ptrs)
{
    wo_thr *me = wo_self();
    uintptr_t *chain = chain_of(me->task);
    for (size_t i = 0; i < cnt; i++) {
        uintptr_t p = (uintptr_t)ptrs[i];
        bool done = false;
        for (uintptr_t *d = chain; d && !done; d = (uintptr_t *)d[4]) {
            uintptr_t base = d[2], size = d[1];
            if (p >= base && p < d[6] && size) { /* inside some thread's block */
                uintptr_t off = (p - base) % size;
                ptrs[i] = (void *)(base + me->tid * size + off);
                if (i < cntorig) {
                    for (uintptr_t k = 0; k < d[0]; k++)
                        if (d[7 + 3 * k + 1] == off)
                            ptrs[cnt + i] = (void *)d[7 + 3 * k];
                }
                done = true;
                break;
            }
            for (uintptr_t k = 0; k < d[0]; k++) {
                if (d[7 + 3 * k] == p) {
                    ptrs[i] = (void *)(base + me->tid * size + d[7 + 3 * k + 1]);
                    if (i < cntorig)
                        ptrs[cnt + i] = (void *)p;
                    done = true;
                    break;
                }
            }
        }
        if (!done) {
            fprintf(stderr, "libweft-omp: in_reduction of an address no taskgroup reduces\n");
            abort();
        }
    }
}
