/* src/core/api/timer.c - ABT_get_wtime and ABT_timer_*: wall-clock stopwatches. */
#include <stdlib.h>

#include "core/runtime.h"

struct weft_timer {
    double start, stop;
};

static struct weft_timer *timer_from(ABT_timer h)
{
    return (h == NULL || h == ABT_TIMER_NULL) ? NULL : (struct weft_timer *)h;
}

WEFT_API double ABT_get_wtime(void) { return weft_wtime(); }

WEFT_API int ABT_timer_create(ABT_timer *newtimer)
{
    if (!newtimer)
        return ABT_ERR_INV_ARG;
    struct weft_timer *t = calloc(1, sizeof(*t));
    *newtimer = t ? (ABT_timer)t : ABT_TIMER_NULL;
    return t ? ABT_SUCCESS : ABT_ERR_MEM;
}

WEFT_API int ABT_timer_dup(ABT_timer timer, ABT_timer *newtimer)
{
    struct weft_timer *t = timer_from(timer);
    if (!newtimer)
        return ABT_ERR_INV_ARG;
    if (!t) {
        *newtimer = ABT_TIMER_NULL;
        return ABT_ERR_INV_TIMER;
    }
    struct weft_timer *n = malloc(sizeof(*n));
    if (!n) {
        *newtimer = ABT_TIMER_NULL;
        return ABT_ERR_MEM;
    }
    *n = *t;
    *newtimer = (ABT_timer)n;
    return ABT_SUCCESS;
}

WEFT_API int ABT_timer_free(ABT_timer *timer)
{
    if (!timer)
        return ABT_ERR_INV_ARG;
    struct weft_timer *t = timer_from(*timer);
    if (!t)
        return ABT_ERR_INV_TIMER;
    free(t);
    *timer = ABT_TIMER_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_timer_start(ABT_timer timer)
{
    struct weft_timer *t = timer_from(timer);
    if (!t)
        return ABT_ERR_INV_TIMER;
    t->start = weft_wtime();
    return ABT_SUCCESS;
}

WEFT_API int ABT_timer_stop(ABT_timer timer)
{
    struct weft_timer *t = timer_from(timer);
    if (!t)
        return ABT_ERR_INV_TIMER;
    t->stop = weft_wtime();
    return ABT_SUCCESS;
}

WEFT_API int ABT_timer_read(ABT_timer timer, double *secs)
{
    struct weft_timer *t = timer_from(timer);
    if (!t)
        return ABT_ERR_INV_TIMER;
    if (!secs)
        return ABT_ERR_INV_ARG;
    *secs = t->stop - t->start;
    return ABT_SUCCESS;
}

WEFT_API int ABT_timer_stop_and_read(ABT_timer timer, double *secs)
{
    struct weft_timer *t = timer_from(timer);
    if (!t)
        return ABT_ERR_INV_TIMER;
    if (!secs)
        return ABT_ERR_INV_ARG;
    t->stop = weft_wtime();
    *secs = t->stop - t->start;
    return ABT_SUCCESS;
}

WEFT_API int ABT_timer_stop_and_add(ABT_timer timer, double *secs)
{
    struct weft_timer *t = timer_from(timer);
    if (!t)
        return ABT_ERR_INV_TIMER;
    if (!secs)
        return ABT_ERR_INV_ARG;
    t->stop = weft_wtime();
    *secs += t->stop - t->start;
    return ABT_SUCCESS;
}

/* Cost of one start/stop pair, the smallest of a few measurements. */
WEFT_API int ABT_timer_get_overhead(double *overhead)
{
    if (!overhead)
        return ABT_ERR_INV_ARG;
    struct weft_timer t;
    double best = 1.0;
    for (int i = 0; i < 32; i++) {
        t.start = weft_wtime();
        t.stop = weft_wtime();
        if (t.stop - t.start < best)
            best = t.stop - t.start;
    }
    *overhead = best < 0 ? 0 : best;
    return ABT_SUCCESS;
}
