/* src/core/sched/sched.h - schedulers: creation, the predefined run loops, stop requests,
 * the end of a stream's main scheduler (stop or retire).
 *
 * A scheduler owns a list of pools and a run function.  A main scheduler runs directly
 * on its stream's OS thread (secondary streams) or on a stack of its own (the primary
 * stream, whose OS stack belongs to the primary ULT).  Units switch back to sched->ctx.
 * Stop protocol: ABT_sched_finish / ABT_sched_exit / stream join store a request and wake
 * the pools' sleepers; the run loop polls `request` every `event_freq` units and whenever
 * it finds nothing to run (weft_sched_has_to_stop). */
#ifndef WEFT_CORE_SCHED_H
#define WEFT_CORE_SCHED_H

#include "core/pool/pool.h"

static inline weft_sched *weft_sched_from(ABT_sched h)
{
    return (h == NULL || h == ABT_SCHED_NULL) ? NULL : (weft_sched *)h;
}

WEFT_INTERNAL WEFT_WUR int weft_sched_create_predef(ABT_sched_predef predef, int num_pools,
                                                    ABT_pool *pools, ABT_sched_config cfg,
                                                    bool automatic, weft_sched **out);
WEFT_INTERNAL WEFT_WUR int weft_sched_create_user(ABT_sched_def *def, int num_pools,
                                                  ABT_pool *pools, ABT_sched_config cfg,
                                                  bool automatic, weft_sched **out);
/* Free a scheduler and release its pools (automatic pools go with their last user). */
WEFT_INTERNAL void weft_sched_destroy(weft_sched *s);
/* ---- a stream's main scheduler ends (its stream's loop: xstream_thread in
 * stream/xstream.c, sched_entry in unit/run.c for the primary stream) ---- */
/* The main scheduler's run() returned: should the stream stop?  (Argobots semantics:
 * it stops when cancelled, or when finishing and the pools are empty; a plain
 * ABT_sched_exit only makes the loop start run() again.) */
WEFT_INTERNAL bool weft_xstream_should_stop(weft_xstream *xs, weft_sched *s);
/* A scheduler that stopped being a stream's main scheduler: freed if automatic. */
WEFT_INTERNAL void weft_sched_retire(weft_sched *s);
/* The stream's loop, once a replaced main scheduler returned: retire the schedulers that
 * were replaced while pending, before they ran (xs->sched_retire; own thread only). */
WEFT_INTERNAL void weft_xstream_retire_pending(weft_xstream *xs);

WEFT_INTERNAL bool weft_sched_has_to_stop(weft_sched *s);
WEFT_INTERNAL void weft_sched_request(weft_sched *s, uint32_t req);
/* Any unit, ready or blocked, in its pools (asked through is_empty, as Argobots does). */
WEFT_INTERNAL bool weft_sched_has_unit(weft_sched *s);
/* The primary ULT only runs on the primary stream: another stream that pops it hands it
 * back through xs->main_handoff, which the primary stream's scheduler checks here. */
WEFT_INTERNAL void weft_sched_take_main_slow(weft_xstream *xs, weft_sched *s);
static inline void weft_sched_take_main(weft_xstream *xs, weft_sched *s)
{
    if (WEFT_UNLIKELY(weft_atomic_load_relaxed(&xs->main_handoff) != NULL))
        weft_sched_take_main_slow(xs, s);
}

/* The predefined run loops (loop.h): BASIC and BASIC_WAIT (sched/basic.c), PRIO
 * (sched/prio.c) and RANDWS (sched/randws.c); a scheduler
 * pushed into a pool by ABT_pool_add_sched (sched/stacked.c) stops when its pools are empty. */
#define WEFT_SCHED_NUM_PRIO 3 /* pools of a PRIO scheduler created without a list */
WEFT_INTERNAL void weft_sched_basic_run(ABT_sched sched);
WEFT_INTERNAL void weft_sched_basic_wait_run(ABT_sched sched);
WEFT_INTERNAL void weft_sched_prio_run(ABT_sched sched);
WEFT_INTERNAL void weft_sched_randws_run(ABT_sched sched);
WEFT_INTERNAL bool weft_sched_stacked_has_to_stop(weft_sched *s);

/* ---- idling (sched/idle.c; the protocol: core/sched/idle.h) ----
 * The loop of loop.h calls weft_sched_idle each time it finds nothing to run and nothing
 * to stop for, and weft_sched_idle_end when it runs a unit again or leaves. */
enum weft_sched_idle_phase {
    WEFT_IDLE_NONE = 0, /* not idle (it ran something since) */
    WEFT_IDLE_SPINNING, /* holds one of weft_g.idle_spinners */
    WEFT_IDLE_SHORT,    /* found no spinner's place: spins WEFT_IDLE_SHORT_SPIN_NS at most */
    WEFT_IDLE_SLEEPY,   /* goes to sleep at every idle round */
};
typedef struct {
    uint8_t phase;     /* enum weft_sched_idle_phase */
    int cpu;           /* spinning: the CPU it spins on (sched_getcpu), -1: unknown */
    uint64_t spin_end; /* CLOCK_MONOTONIC ns */
    uint64_t nap_ns;   /* current bounded sleep (schedulers that cannot sleep
                        * without a bound) */
} weft_sched_idle_state;
#define WEFT_IDLE_NAP_MIN_NS    50000u
/* A stream that finds every spinner's place taken still spins this long (at most
 * ABT_SCHED_SPIN_NSEC) before it sleeps: work handed to it right back (a partner on
 * another stream answering, a barrier's last arrival) then costs no wake-up of a
 * sleeping stream (5-16 us median on the development VM, docs/design/sched.md). */
#define WEFT_IDLE_SHORT_SPIN_NS 10000u
#define WEFT_IDLE_NAP_MAX_NS    1000000u
/* no_spin: sleep at once (BASIC_WAIT). */
WEFT_INTERNAL void weft_sched_idle(weft_xstream *xs, weft_sched *s, weft_sched_idle_state *st,
                                   bool no_spin);
WEFT_INTERNAL void weft_sched_idle_end(weft_sched_idle_state *st);
/* No stream spins or is being woken (ABT_init, a fork() child). */
WEFT_INTERNAL void weft_sched_idle_reset(void);

/* keyval.c: read the predefined keys out of a config */
WEFT_INTERNAL void weft_sched_config_predef(ABT_sched_config cfg, int *freq, int *automatic);

#endif
