/* src/core/sched/poll_hook.h - how a face that owns completions (I/O on io_uring, MPI requests)
 * has them reaped by the scheduler loops, and how it shapes an idle stream's sleep.
 *
 * A ULT that waits for the kernel or for MPI parks (core/face.h); somebody must notice the
 * completion and wake it.  Core must not call up into a face, so a face registers a
 * weft_poll_hook (at most WEFT_POLL_HOOKS_MAX of them, never removed: a face registers once
 * per process, at its first use).  Then:
 *   - poll: every scheduler loop calls each hook's poll when it checks events (whenever it
 *     finds nothing to run, and every event_freq units: weft_sched_has_to_stop,
 *     ABT_xstream_check_events), on the stream that checks.  poll reaps what completed for
 *     the calling stream and wakes the waiters (weft_face_waiter_wake); it must not block.
 *   - idle_ns: before an idle stream sleeps, each hook says how long the stream may sleep
 *     without polling it (WEFT_NO_DEADLINE: nothing in flight for it here).  MPI answers a
 *     short nap while requests are pending; the sleep is capped by the smallest answer.
 *     0 means "do not sleep now": the stream pauses a few hundred nanoseconds and runs
 *     its loop (and so the polls) again - for a face whose completions arrive back to
 *     back (MPI answers 0 for a bounded time after its last completion, as MPI itself
 *     spins in a blocking call).  A hook must bound how long it keeps answering 0: the
 *     stream neither sleeps nor lets its CPU go meanwhile.
 *   - sleep (optional, one hook at most uses it per stream): a face that can be woken by
 *     the kernel itself (io_uring waiting on the stream's idle futex word and on its own
 *     completions at once) sleeps for the stream.  It must return when *word is no longer
 *     WEFT_IDLE_SLEEPING (a futex wake on word), when one of its completions arrives, or
 *     after timeout_ns (0: no limit); spurious returns are allowed.  It returns true when it
 *     slept there, false when it declined (then the stream sleeps on the futex as usual).
 *   - cancel (optional): ABT_thread_cancel was just asked for unit u (its WEFT_REQ_CANCEL
 *     bit is set).  A face whose operation u is parked in asks the kernel (or its helper
 *     threads) to end that operation soon and then wakes u as usual; the scheduler then
 *     terminates u instead of running it.  Called on the canceller's thread, for every
 *     hook; it must not block and must ignore units it does not know.
 * Until a hook is registered the cost in the loop is one load and a branch.  Rejected:
 * core calling the faces by name (a layer reaching up), and a dedicated progress ULT per
 * stream (it spins, or sleeps without being woken by completions). */
#ifndef WEFT_CORE_POLL_HOOK_H
#define WEFT_CORE_POLL_HOOK_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/atomic.h"
#include "arch/compiler.h"
#include "core/face.h" /* struct weft_poll_hook, weft_poll_hook_add, weft_poll_hook_eager */

#define WEFT_POLL_HOOKS_MAX 4

/* Eager polling.  Between two event checks a stream runs up to event_freq units without
 * polling; a unit that computes for 100 us then leaves a multi-step MPI transfer (a
 * rendezvous, a pipelined large message) stalled for event_freq x 100 us, and the
 * communication a parked ULT waits for is not overlapped with the others' computation
 * at all.  So a face with requests in flight on the calling stream that need repeated
 * progress calls asks for a poll after every unit: weft_poll_hook_eager(true) while it
 * has them, weft_poll_hook_eager(false) when it no longer has (calls nest: a count per
 * stream).  The predefined schedulers' loop (sched/loop.h) then calls every hook's
 * poll_eager (or poll) after each unit it runs; a user-defined scheduler polls at its
 * event checks only.  Returns false (and does nothing) when the caller is not a stream's
 * thread (core/face.h declares it).  Only the stream's own thread calls it; the count is
 * a plain field of the stream.  Cost when no face asks: one load and a branch per unit. */
/* The between-units poll of an eager stream (sched/loop.h). */
WEFT_INTERNAL void weft_poll_hooks_run_eager(void);

extern WEFT_INTERNAL _Atomic int weft_poll_hooks_n;
extern WEFT_INTERNAL const struct weft_poll_hook *_Atomic weft_poll_hooks[WEFT_POLL_HOOKS_MAX];

/* weft_poll_hook_add (core/face.h) registers h: -1 when WEFT_POLL_HOOKS_MAX are taken. */

/* Call every hook's poll; true if one woke a waiter. */
WEFT_INTERNAL bool weft_poll_hooks_run_slow(int n);
static inline bool weft_poll_hooks_run(void)
{
    int n = weft_atomic_load_acquire(&weft_poll_hooks_n);
    return WEFT_LIKELY(n == 0) ? false : weft_poll_hooks_run_slow(n);
}

/* The smallest idle bound of the hooks (UINT64_MAX: none). */
WEFT_INTERNAL uint64_t weft_poll_hooks_idle_ns(void);

/* Tell every hook that u is being cancelled (ABT_thread_cancel). */
WEFT_INTERNAL void weft_poll_hooks_cancel(struct weft_unit *u);

/* Let a hook sleep for the stream (true), or none does (false: sleep on the futex). */
WEFT_INTERNAL bool weft_poll_hooks_sleep(_Atomic uint32_t *word, uint64_t timeout_ns);

#endif
