/* weft.h - what weft offers beyond the Argobots 1.2 API.
 *
 * Include <abt.h> for the Argobots-compatible interface; this header adds weft_*
 * extensions.  Every extension follows the Argobots conventions: functions return
 * ABT_SUCCESS or an ABT_ERR_* code, and handles are the ABT_* types. */
#ifndef WEFT_H_INCLUDED
#define WEFT_H_INCLUDED

#include <abt.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_VERSION "1.2.0"
#define WEFT_VERSION_MAJOR 1
#define WEFT_VERSION_MINOR 2
#define WEFT_VERSION_PATCH 0

/* ======================================================================== */
/* Synchronization extensions                                               */
/* ======================================================================== */

/*
 * weft_thread_sleep - suspend the caller for `seconds` (Argobots issue #29).
 *
 * A ULT is parked: its execution stream runs other work meanwhile, and a stream
 * with a BASIC_WAIT scheduler and nothing else to run sleeps in the kernel until
 * the deadline (no polling).  A tasklet or an external thread sleeps its OS
 * thread.  0 seconds yields (ULT) or returns at once.  The deadline is measured
 * on CLOCK_MONOTONIC.  The wake-up is driven by the scheduler of the stream the
 * ULT slept on: a stream busy with ULTs that never yield wakes it late.
 *
 * Contexts: any.  Errors: ABT_ERR_INV_ARG if seconds is negative or NaN;
 * ABT_ERR_MEM if the stream's timer queue could not be created.
 */
int weft_thread_sleep(double seconds) ABT_API_PUBLIC;

/*
 * weft_eventual_wait_any - wait until one of `count` eventuals is ready
 * (Argobots issue #167; the counterpart of MPI_Waitany).
 *
 * Sets *index to the index of a ready eventual and, if value is not NULL,
 * *value to its buffer (NULL for an eventual without one), like
 * ABT_eventual_wait.  If several are ready on entry, the lowest index is
 * returned; otherwise the first one set after the call.  ABT_EVENTUAL_NULL
 * entries are ignored, so a caller can null out the ones already consumed
 * (an eventual stays ready until ABT_eventual_reset).  The caller is blocked
 * like ABT_eventual_wait: a ULT parks, an external thread sleeps on a futex.
 * weft_eventual_timedwait_any takes an absolute CLOCK_REALTIME deadline, like
 * ABT_eventual_timedwait, and returns ABT_ERR_COND_TIMEDOUT when it passes.
 *
 * Errors: ABT_ERR_INV_ARG (index NULL, eventuals NULL with count > 0, count >
 * INT32_MAX, abstime NULL); ABT_ERR_INV_EVENTUAL if no entry is a valid
 * eventual; ABT_ERR_EVENTUAL from a tasklet (as ABT_eventual_wait in 1.x);
 * ABT_ERR_MEM; ABT_ERR_COND_TIMEDOUT (timed variant).
 */
int weft_eventual_wait_any(size_t count, const ABT_eventual *eventuals,
                           size_t *index, void **value) ABT_API_PUBLIC;
int weft_eventual_timedwait_any(size_t count, const ABT_eventual *eventuals,
                                size_t *index, void **value,
                                const struct timespec *abstime) ABT_API_PUBLIC;

/*
 * Statically initialised readers-writer locks, in the style of
 * ABT_MUTEX_INITIALIZER:
 *
 *     static weft_rwlock_memory lk = WEFT_RWLOCK_INITIALIZER;
 *     ABT_rwlock_rdlock(WEFT_RWLOCK_MEMORY_GET_HANDLE(&lk));
 *
 * All-zero memory is an unlocked rwlock.  The handle lives as long as the
 * memory; it must not be passed to ABT_rwlock_free, and memory in use must
 * not be initialised again.
 */
typedef struct {
    int dummy[16];
} weft_rwlock_memory;

#define WEFT_RWLOCK_INITIALIZER                                                \
    {                                                                          \
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }                     \
    }
#define WEFT_RWLOCK_MEMORY_GET_HANDLE(p_rwlock_memory)                         \
    ((ABT_rwlock)(p_rwlock_memory))

#ifdef __cplusplus
}
#endif

#endif
