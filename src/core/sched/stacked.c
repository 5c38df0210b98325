/* src/core/sched/stacked.c - stacked schedulers: ABT_pool_add_sched.
 *
 * A scheduler pushed into a pool runs as an ordinary unnamed ULT of that pool, with a
 * scheduler-sized stack, not migratable.  When its parent scheduler runs that ULT, the
 * ULT makes the scheduler the stream's innermost one (xs->sched) for as long as its run
 * loop lasts, so the units it runs switch back to it (unit.h "Runner"), then restores the
 * parent and terminates.  The loop ends when its pools hold no unit any more, ready or
 * blocked (weft_sched_has_to_stop sends stacked schedulers here), or on an exit request:
 * a stacked scheduler does not wait for work, it returns control to its parent, as in
 * Argobots.  It may be added again afterwards.  An automatic scheduler is freed when its
 * loop ends.
 *
 * Limitation: the run loop must not yield or block by itself (the scheduler ULT would
 * switch back to its own scheduler context); the predefined loops and the documented
 * user loop (pop, ABT_xstream_run_unit, check events, has_to_stop) never do. */
#include "core/unit/fork.h"
#include "core/sched/sched.h"
#include "core/unit/unit.h"

bool weft_sched_stacked_has_to_stop(weft_sched *s)
{
    if (weft_atomic_load_acquire(&s->request) & WEFT_SCHED_REQ_EXIT)
        return true;
    return !weft_sched_has_unit(s);
}

/* Body of the ULT that runs a stacked scheduler. */
static void stacked_main(void *arg)
{
    weft_sched *s = arg;
    weft_xstream *xs = weft_xs_self();
    weft_unit *self = xs->cur;
    self->flags |= WEFT_U_SCHED;
    self->sched = s;
    weft_atomic_store_relaxed(&self->cold, 1); /* the release resets sched (types.h) */
    s->unit = self;
    s->parent = xs->sched;
    s->tsan_fiber = self->tsan_fiber; /* the scheduler runs on this ULT's stack */
    s->ctx = NULL;
    xs->sched = s;
    s->def.run((ABT_sched)s);
    xs = weft_xs_reload();
    xs->sched = s->parent;
    s->parent = NULL;
    s->unit = NULL;
    s->tsan_fiber = NULL;
    s->ctx = NULL;
    self->sched = NULL;
    s->use = WEFT_SCHED_UNUSED;
    if (s->automatic)
        weft_sched_destroy(s);
}

WEFT_API int ABT_pool_add_sched(ABT_pool pool, ABT_sched sched)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    if (s->use != WEFT_SCHED_UNUSED)
        return ABT_ERR_INV_SCHED;
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    s->use = WEFT_SCHED_IN_POOL;
    weft_atomic_store_relaxed(&s->request, WEFT_SCHED_REQ_NONE);
    struct weft_thread_attr attr = {
        .stacksize = weft_g.cfg.sched_stacksize,
        .stackaddr = NULL,
        .migratable = false,
        .cb = NULL,
        .cb_arg = NULL,
        .fork = WEFT_FORK_ROC_L, /* queued, never child-first: the pool's scheduler runs it */
    };
    /* unnamed: it frees itself when the scheduler returns */
    int r = weft_unit_spawn(p, stacked_main, s, &attr,
                            (uint16_t)(WEFT_U_ULT | WEFT_U_DEFAULT_FLAGS), NULL);
    if (r != ABT_SUCCESS)
        s->use = WEFT_SCHED_UNUSED;
    return r;
}
