/* src/omp/taskloop.c - taskloop: GOMP_taskloop, GOMP_taskloop_ull.
 *
 * The n iterations are split into T tasks (num_tasks(T), or n / grainsize, or by
 * default one per thread of the team), of floor(n/T) or one more iterations each.
 * gcc's outlined body reads its bounds from the first two words of its argument block,
 * so each task's copy gets (task start, task end) there.  Unless nogroup, the tasks
 * run inside an implicit taskgroup; with a reduction clause, the third word of the
 * block is gcc's task-reduction descriptor, registered on that group (reduction.c). */
#include <stdio.h>
#include <stdlib.h>

#include "omp/rt.h"

#define F_UP        (1u << 8)
#define F_GRAINSIZE (1u << 9)
#define F_IF        (1u << 10)
#define F_NOGROUP   (1u << 11)
#define F_REDUCTION (1u << 12)

static uint64_t count_tasks(wo_thr *me, unsigned flags, unsigned long num_tasks, uint64_t n)
{
    uint64_t nt;
    if (flags & F_GRAINSIZE) {
        uint64_t g = num_tasks ? num_tasks : 1;
        nt = n / g;
        if (nt == 0)
            nt = 1;
    } else if (num_tasks) {
        nt = num_tasks;
    } else {
        nt = me->team ? me->team->nthreads : 1;
    }
    if (nt > n)
        nt = n;
    return nt;
}

WO_API void GOMP_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                          long arg_size, long arg_align, unsigned flags, unsigned long num_tasks,
                          int priority, long start, long end, long step)
{
    wo_thr *me = wo_self();
    uint64_t n = wo_iters_l(start, end, step);
    if (!(flags & F_NOGROUP))
        GOMP_taskgroup_start();
    if (flags & F_REDUCTION) /* the descriptor: third word of the argument block */
        wo_reduction_register(me, ((uintptr_t **)data)[2]);
    if (n) {
        uint64_t nt = count_tasks(me, flags, num_tasks, n);
        uint64_t q = n / nt, r = n % nt, a = 0;
        for (uint64_t i = 0; i < nt; i++) {
            uint64_t b = a + q + (i < r);
            long range[2] = { (long)((uint64_t)start + a * (uint64_t)step),
                              b == n ? end : (long)((uint64_t)start + b * (uint64_t)step) };
            wo_task_create(me, fn, data, cpyfn, arg_size, arg_align, (flags & F_IF) != 0,
                           flags & ~(F_UP | F_GRAINSIZE | F_IF | F_NOGROUP), NULL, priority, range,
                           sizeof(range), NULL);
            a = b;
        }
    }
    if (!(flags & F_NOGROUP))
        GOMP_taskgroup_end();
}

WO_API void GOMP_taskloop_ull(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                              long arg_size, long arg_align, unsigned flags,
                              unsigned long num_tasks, int priority, unsigned long long start,
                              unsigned long long end, unsigned long long step)
{
    wo_thr *me = wo_self();
    uint64_t n = wo_iters_ull((flags & F_UP) != 0, start, end, step);
    if (!(flags & F_NOGROUP))
        GOMP_taskgroup_start();
    if (flags & F_REDUCTION)
        wo_reduction_register(me, ((uintptr_t **)data)[2]);
    if (n) {
        uint64_t nt = count_tasks(me, flags, num_tasks, n);
        uint64_t q = n / nt, r = n % nt, a = 0;
        for (uint64_t i = 0; i < nt; i++) {
            uint64_t b = a + q + (i < r);
            unsigned long long range[2] = { start + a * step, b == n ? end : start + b * step };
            wo_task_create(me, fn, data, cpyfn, arg_size, arg_align, (flags & F_IF) != 0,
                           flags & ~(F_UP | F_GRAINSIZE | F_IF | F_NOGROUP), NULL, priority, range,
                           sizeof(range), NULL);
            a = b;
        }
    }
    if (!(flags & F_NOGROUP))
        GOMP_taskgroup_end();
}
