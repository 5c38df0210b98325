/* src/sync/xstream_barrier.c - ABT_xstream_barrier_*: a barrier for OS threads.
 *
 * Whoever calls it - a ULT, a tasklet, an external thread - blocks its OS thread, as
 * Argobots documents, but in the kernel: a generation counter is the futex word.  Each
 * arrival reads the generation, then counts itself; the last one resets the count, bumps
 * the generation (release) and wakes every sleeper; the others sleep until the
 * generation changes.  No spinning (Argobots spins or uses a pthread barrier). */
#include <limits.h>
#include <stdlib.h>

#include "sync/objmem.h"

typedef struct {
    uint32_t num;
    _Atomic uint32_t count;
    _Atomic uint32_t gen; /* futex word */
} weft_xbarrier;

static inline weft_xbarrier *xbar_from(ABT_xstream_barrier h) { return weft_obj_body_from(h); }

WEFT_API int ABT_xstream_barrier_create(uint32_t num_waiters, ABT_xstream_barrier *newbarrier)
{
    if (!newbarrier)
        return ABT_ERR_INV_ARG;
    *newbarrier = ABT_XSTREAM_BARRIER_NULL;
    if (num_waiters == 0)
        return ABT_ERR_INV_ARG;
    void *base = weft_obj_alloc(0); /* its own cache line: every stream hits it */
    if (!base)
        return ABT_ERR_MEM;
    weft_xbarrier *b = weft_obj_body(base);
    b->num = num_waiters;
    *newbarrier = (ABT_xstream_barrier)weft_obj_handle(base);
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_barrier_free(ABT_xstream_barrier *barrier)
{
    if (!barrier)
        return ABT_ERR_INV_ARG;
    weft_xbarrier *b = xbar_from(*barrier);
    if (!b)
        return ABT_ERR_INV_XSTREAM_BARRIER;
    weft_obj_free(weft_obj_from(*barrier), 0);
    *barrier = ABT_XSTREAM_BARRIER_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_xstream_barrier_wait(ABT_xstream_barrier barrier)
{
    weft_xbarrier *b = xbar_from(barrier);
    if (!b)
        return ABT_ERR_INV_XSTREAM_BARRIER;
    uint32_t g = weft_atomic_load_acquire(&b->gen);
    if (weft_atomic_fetch_add_acq_rel(&b->count, 1) + 1 == b->num) {
        weft_atomic_store_relaxed(&b->count, 0);
        weft_atomic_fetch_add_release(&b->gen, 1);
        weft_futex_wake(&b->gen, INT_MAX);
        return ABT_SUCCESS;
    }
    while (weft_atomic_load_acquire(&b->gen) == g)
        weft_futex_wait(&b->gen, g, 0);
    return ABT_SUCCESS;
}
