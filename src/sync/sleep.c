/* src/sync/sleep.c - weft_thread_sleep: a ULT sleeps without holding its stream
 * (Argobots issue #29).
 *
 * A ULT parks with a timer entry only (no waitlist): its stream runs other work, and a
 * BASIC_WAIT stream with nothing else to do sleeps in the kernel until the deadline.
 * A tasklet or an external thread cannot park, so it sleeps its OS thread
 * (clock_nanosleep on CLOCK_MONOTONIC, absolute, so signals do not stretch it). */
#include <errno.h>

#include "sync/waitlist.h"

#include <weft.h>

static void os_sleep_until(uint64_t deadline)
{
    struct timespec ts = { .tv_sec = (time_t)(deadline / 1000000000u),
                           .tv_nsec = (long)(deadline % 1000000000u) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

WEFT_API int weft_thread_sleep(double seconds)
{
    if (!(seconds >= 0.0)) /* negative or NaN */
        return ABT_ERR_INV_ARG;
    /* about 292 years at most: keep the deadline representable */
    double ns = seconds * 1.0e9;
    uint64_t span = ns >= 9.0e18 ? (uint64_t)9e18 : (uint64_t)ns;
    weft_unit *self = weft_self_ult();
    if (!self) {
        if (span)
            os_sleep_until(weft_clock_ns() + span);
        return ABT_SUCCESS;
    }
    weft_xstream *xs = weft_xs_self();
    if (span == 0) {
        weft_ult_yield(xs, self);
        return ABT_SUCCESS;
    }
    int r = weft_tq_prepare();
    if (r != ABT_SUCCESS)
        return r;
    weft_wl_waiter ww;
    weft_wl_waiter_init(&ww);
    weft_spinlock l = { 0 }; /* weft_wl_wait releases a lock once we are parked */
    weft_spin_lock(&l);
    weft_wl_wait(&ww, &l, weft_clock_ns() + span);
    return ABT_SUCCESS;
}
