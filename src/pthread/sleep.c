/* src/pthread/sleep.c - nanosleep, clock_nanosleep, sleep and usleep of a program thread run
 * as a ULT: the ULT parks in weft's timed sleep (weft_thread_sleep), so no OS thread
 * blocks and its stream runs other threads meanwhile.
 *
 * POSIX's results hold: EINVAL for a bad timespec (tv_nsec outside [0, 1e9), tv_sec < 0),
 * clock_nanosleep's error-number return (errno untouched) and TIMER_ABSTIME (a deadline
 * that passed returns at once), nanosleep's `rem` and sleep's unslept seconds (truncated,
 * as glibc) after an interruption.  A zero sleep yields.  clock_nanosleep parks on
 * CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME and CLOCK_TAI; any other clock (a CPU-time
 * clock, an unknown one) is the real call, bracketed as a blocking call (blocking.c),
 * which also gives the kernel's errors for it.  nanosleep measures on CLOCK_MONOTONIC, as
 * Linux does.
 *
 * Interruption.  A sleep that a handler interrupts returns EINTR (whatever SA_RESTART
 * says, as for the real calls).  The sleep is cut into slices of SLICE_S: pthread_kill
 * of a sleeping thread (signal.c) notes in its record the signals whose disposition is a
 * handler, and the thread, at the end of each slice, takes the signals held for it (the
 * handler runs there, pth_leave) and returns EINTR if one of the noted signals is not
 * blocked.  So a handler interrupts the sleep within a slice.  A signal that does not come
 * through pthread_kill (kill() of the process, a timer's signal, alarm()) reaches some
 * stream's OS thread and does not interrupt the sleep: the program's threads never block
 * in the kernel there, so the kernel cannot pick the sleeping one. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <weft.h>

#include "pthread/face.h"

#define SLICE_S 0.02 /* the longest park between two looks at the signals */

enum { SLEPT = 0, FALLBACK = -1 };

static int64_t ts_diff_ns_sat(const struct timespec *a, const struct timespec *b)
{
    /* a - b in ns, saturated (deadlines far away) */
    int64_t ds = (int64_t)a->tv_sec - (int64_t)b->tv_sec;
    if (ds > INT64_MAX / 1000000000 - 1)
        return INT64_MAX;
    if (ds < INT64_MIN / 1000000000 + 1)
        return INT64_MIN;
    return ds * 1000000000 + (a->tv_nsec - b->tv_nsec);
}

/* now + rel, saturated */
static struct timespec ts_add(struct timespec now, const struct timespec *rel)
{
    struct timespec d = now;
    if (rel->tv_sec > INT64_MAX - 1 - now.tv_sec) {
        d.tv_sec = INT64_MAX - 1;
        return d;
    }
    d.tv_sec += rel->tv_sec;
    d.tv_nsec += rel->tv_nsec;
    if (d.tv_nsec >= 1000000000) {
        d.tv_nsec -= 1000000000;
        d.tv_sec++;
    }
    return d;
}

/* Park the calling ULT until `deadline` on `clock`.  SLEPT, EINTR (with *left, the time
 * left, when left is not NULL), or FALLBACK when weft could not park it (nothing slept
 * yet: the caller makes the real call). */
static int park_until(pth_thread *self, clockid_t clock, const struct timespec *deadline,
                      struct timespec *left)
{
    weft_atomic_store_relaxed(&self->sleep_sigs, 0);
    weft_atomic_store_seq_cst(&self->sleeping, true);
    int rc = SLEPT;
    bool first = true;
    for (;;) {
        struct timespec now;
        clock_gettime(clock, &now);
        int64_t ns = ts_diff_ns_sat(deadline, &now);
        if (ns <= 0 && !first)
            break;
        double s = ns <= 0 ? 0.0 : ns > (int64_t)(SLICE_S * 1e9) ? SLICE_S : (double)ns * 1e-9;
        pth_enter();
        int arc = weft_thread_sleep(s); /* 0: a yield */
        pth_leave();                    /* the signals held for it: handlers run here */
        if (arc != ABT_SUCCESS && first) {
            rc = FALLBACK;
            break;
        }
        first = false;
        uint64_t sigs = weft_atomic_load_acquire(&self->sleep_sigs);
        if (sigs && pth_sig_unblocked(weft_atomic_exchange_acq_rel(&self->sleep_sigs, 0))) {
            rc = EINTR;
            if (left) {
                clock_gettime(clock, &now);
                ns = ts_diff_ns_sat(deadline, &now);
                if (ns < 0)
                    ns = 0;
                left->tv_sec = (time_t)(ns / 1000000000);
                left->tv_nsec = (long)(ns % 1000000000);
            }
            break;
        }
        if (ns <= 0)
            break;
    }
    weft_atomic_store_release(&self->sleeping, false);
    return rc;
}

static bool parks_on(clockid_t clock)
{
    return clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC || clock == CLOCK_BOOTTIME ||
           clock == CLOCK_TAI;
}

/* The real clock_nanosleep, bracketed as a blocking call. */
static int real_clock_nanosleep(pth_thread *self, clockid_t clock, int flags,
                                const struct timespec *req, struct timespec *rem)
{
    bool began;
    pthread_t prev = pth_block_begin(self, &began);
    int r = pth_real(clock_nanosleep)(clock, flags, req, rem);
    pth_block_end(self, prev, began);
    return r;
}

/* clock_nanosleep of a ULT (self): an error number, as clock_nanosleep returns. */
static int ult_clock_nanosleep(pth_thread *self, clockid_t clock, int flags,
                               const struct timespec *req, struct timespec *rem)
{
    if (!parks_on(clock) || !req)
        return real_clock_nanosleep(self, clock, flags, req, rem); /* its errors, EFAULT */
    if (req->tv_sec < 0 || req->tv_nsec < 0 || req->tv_nsec >= 1000000000)
        return EINVAL;
    struct timespec deadline = *req;
    bool abs = flags & TIMER_ABSTIME;
    if (!abs) {
        struct timespec now;
        clock_gettime(clock, &now);
        deadline = ts_add(now, req);
    }
    int rc = park_until(self, clock, &deadline, abs ? NULL : rem);
    if (rc == FALLBACK)
        return real_clock_nanosleep(self, clock, flags, req, rem);
    return rc;
}

PTH_API int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req,
                            struct timespec *rem)
{
    pth_thread *self;
    if (pth_internal() || !(self = pth_block_self()))
        return pth_real(clock_nanosleep)(clock, flags, req, rem);
    int e = pth_get_errno();
    int rc = ult_clock_nanosleep(self, clock, flags, req, rem);
    pth_set_errno(e); /* clock_nanosleep reports in its result only */
    return rc;
}

PTH_API int nanosleep(const struct timespec *req, struct timespec *rem)
{
    pth_thread *self;
    if (pth_internal() || !(self = pth_block_self()))
        return pth_real(nanosleep)(req, rem);
    int e = pth_get_errno();
    int rc = ult_clock_nanosleep(self, CLOCK_MONOTONIC, 0, req, rem);
    pth_set_errno(rc ? rc : e);
    return rc ? -1 : 0;
}

PTH_API int usleep(useconds_t us)
{
    pth_thread *self;
    if (pth_internal() || !(self = pth_block_self()))
        return pth_real(usleep)(us);
    struct timespec t = { .tv_sec = (time_t)(us / 1000000),
                          .tv_nsec = (long)(us % 1000000) * 1000 };
    return nanosleep(&t, NULL);
}

PTH_API unsigned int sleep(unsigned int s)
{
    pth_thread *self;
    if (pth_internal() || !(self = pth_block_self()))
        return pth_real(sleep)(s);
    struct timespec t = { .tv_sec = (time_t)s, .tv_nsec = 0 }, rem = { 0, 0 };
    int e = pth_get_errno();
    int rc = ult_clock_nanosleep(self, CLOCK_MONOTONIC, 0, &t, &rem);
    if (rc == 0) {
        pth_set_errno(e);
        return 0;
    }
    pth_set_errno(rc);
    return (unsigned int)rem.tv_sec; /* the unslept seconds, truncated (glibc) */
}

PTH_ALIAS(clock_nanosleep)
PTH_ALIAS(nanosleep)
PTH_ALIAS(sleep)
PTH_ALIAS(usleep)
