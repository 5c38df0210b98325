/* src/core/sched/timer_hook.h - how schedulers learn about deadlines that a higher layer owns.
 *
 * Timed waits (ABT_cond_timedwait, weft_thread_sleep, ...) belong to the sync module, whose
 * per-stream timer queues (sync/timeout.h) must be fired by the stream that owns them,
 * from its scheduler loop.  Core must not call up into sync, so sync installs this hook
 * before its first timed wait, and every scheduler loop polls through it when idle and
 * every event_freq units (weft_sched_has_to_stop, ABT_xstream_check_events), and a
 * sleeping BASIC_WAIT caps its sleep at the next deadline.  Until a hook is installed a
 * poll is one load and a branch.  weft_timers_next also answers when memory trimming
 * (mem/trim.c) wants this stream's event check to run again, so a stream that sleeps
 * while idle still gives a burst's memory back.  Rejected: core calling sync directly (a layer
 * reaching up), and a list of hooks (one owner of deadlines is all weft has). */
#ifndef WEFT_CORE_TIMER_HOOK_H
#define WEFT_CORE_TIMER_HOOK_H

#include <stdint.h>

#include "arch/atomic.h"
#include "arch/compiler.h"
#include "arch/cpu.h"
#include "core/runtime.h"
#include "mem/mem.h"

#define WEFT_NO_DEADLINE UINT64_MAX

struct weft_timer_hook {
    /* Fire what is due on the calling thread's stream; the earliest deadline still
     * pending (CLOCK_MONOTONIC ns) or WEFT_NO_DEADLINE.  Any context of the thread. */
    uint64_t (*poll)(void);
    /* The earliest deadline pending for the calling thread's stream, without firing. */
    uint64_t (*next)(void);
    /* The earliest deadline of the queue `q` that a stream noted (weft_timers_note_queue),
     * from any thread: a stream blocked in a call with deadlines pending has work for a
     * spare (core/stream/handoff.c). */
    uint64_t (*queue_next)(void *q);
};

/* The queue of the calling thread's timed waits, noted in its stream (sync calls it when
 * it makes the queue): a spare that serves the stream while it is blocked in a call fires
 * it (xs->served, core/stream/handoff.c). */
static inline void weft_timers_note_queue(void *q)
{
    weft_xstream *xs = weft_xs_self();
    if (xs)
        weft_atomic_store_release(&xs->timerq, q);
}

extern WEFT_INTERNAL const struct weft_timer_hook *_Atomic weft_timer_hook;

/* Install the hook (idempotent; the same hook every time). */
static inline void weft_timer_hook_install(const struct weft_timer_hook *h)
{
    if (weft_atomic_load_relaxed(&weft_timer_hook) != h)
        weft_atomic_store_release(&weft_timer_hook, h);
}

static inline uint64_t weft_timers_poll(void)
{
    const struct weft_timer_hook *h = weft_atomic_load_acquire(&weft_timer_hook);
    return WEFT_LIKELY(h == NULL) ? WEFT_NO_DEADLINE : h->poll();
}

static inline uint64_t weft_timers_next(void)
{
    const struct weft_timer_hook *h = weft_atomic_load_acquire(&weft_timer_hook);
    uint64_t t = WEFT_LIKELY(h == NULL) ? WEFT_NO_DEADLINE : h->next();
    /* the next memory-trim step of this stream's caches or of the depots */
    uint64_t m = weft_mem_trim_deadline(weft_xs_cache(weft_xs_self()));
    return m < t ? m : t;
}

/* How long a scheduler that wants to sleep up to max_ns may sleep given the next
 * deadline `next`; at least 1 ns. */
static inline uint64_t weft_timers_cap(uint64_t max_ns, uint64_t next)
{
    if (next == WEFT_NO_DEADLINE)
        return max_ns;
    uint64_t now = weft_clock_ns();
    if (next <= now)
        return 1;
    return next - now < max_ns ? next - now : max_ns;
}

#endif
