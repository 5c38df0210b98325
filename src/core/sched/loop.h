/* src/core/sched/loop.h - the one run loop of the predefined schedulers, parameterised by
 * the policy that picks the next unit.
 *
 * Every predefined scheduler (basic.c: BASIC and BASIC_WAIT, prio.c: PRIO, randws.c:
 * RANDWS) is this loop with its own pick function:
 *   - run what the pick returns; every `event_freq` units, and whenever nothing is
 *     runnable, check events (stop requests, timers, stack dumps: weft_sched_has_to_stop);
 *   - the primary ULT popped by another stream is taken back first (weft_sched_take_main);
 *   - idle: a waiting scheduler (BASIC_WAIT) sleeps in pop_wait on its first pool until a
 *     push, a stop request or the next timer deadline; the others spin WEFT_SCHED_IDLE_SPINS
 *     times with cpu_relax, then give the core away with sched_yield.
 * The loop is always_inline and each scheduler passes a constant pick function and a
 * constant `wait_when_idle`, so the compiler emits one specialised loop per scheduler with
 * the pick inlined: the policy costs no indirect call per unit.  Rejected: a function
 * pointer in weft_sched (an indirect call on the path of every ULT run) and three copies
 * of the loop (they drifted: idle spin 4096 in one, 256 in the others). */
#ifndef WEFT_CORE_SCHED_LOOP_H
#define WEFT_CORE_SCHED_LOOP_H

#include <sched.h>

#include "core/sched/sched.h"
#include "core/timer_hook.h"
#include "core/unit.h"

/* An idle loop spins this many times (~0.1 ms) before a sched_yield: long enough that a
 * wake-up from another stream is seen within a microsecond under normal load, short
 * enough that an oversubscribed machine still gets its core back. */
#define WEFT_SCHED_IDLE_SPINS 4096

/* A pick policy: the next unit to run, or NULL.  `rng` is the loop's private xorshift
 * state (never 0), for policies that choose at random. */
typedef weft_unit *(*weft_sched_pick_fn)(weft_sched *s, uint32_t *rng);

static inline uint32_t weft_sched_rng_next(uint32_t *x)
{
    uint32_t v = *x;
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    return *x = v;
}

/* Pop the scheduler's pools in index order as their owner (BASIC and PRIO). */
static inline weft_unit *weft_sched_pick_in_order(weft_sched *s, uint32_t *rng)
{
    (void)rng;
    for (int i = 0; i < s->num_pools; i++) {
        weft_unit *u = weft_pool_pop_ctx(s->pools[i], ABT_POOL_CONTEXT_OWNER_PRIMARY);
        if (u)
            return u;
    }
    return NULL;
}

static inline __attribute__((always_inline)) void
weft_sched_loop(weft_sched *s, weft_sched_pick_fn pick, bool wait_when_idle)
{
    weft_xstream *xs = weft_xs_self();
    WEFT_ASSERT(xs != NULL && xs->sched == s);
    uint32_t rng = (uint32_t)((uintptr_t)s >> 6) ^ (uint32_t)xs->rank * 0x9e3779b9u;
    if (rng == 0)
        rng = 1;
    uint32_t n = 0, idle = 0;
    for (;;) {
        weft_sched_take_main(xs, s);
        weft_unit *u = pick(s, &rng);
        if (u) {
            weft_sched_run_unit(xs, s, u);
            idle = 0;
            if (++n < s->event_freq)
                continue;
        }
        n = 0;
        if (weft_sched_has_to_stop(s))
            break;
        if (u)
            continue;
        if (wait_when_idle) {
            /* one pool: sleep until a push or a stop request; several: nap briefly */
            uint64_t t = s->num_pools == 1 ? 1000000000u : 1000000u;
            t = weft_timers_cap(t, weft_timers_next()); /* wake for the next timed wait */
            u = weft_pool_pop_wait(s->pools[0], t, ABT_POOL_CONTEXT_OWNER_PRIMARY);
            if (u)
                weft_sched_run_unit(xs, s, u);
        } else if (++idle < WEFT_SCHED_IDLE_SPINS) {
            weft_cpu_relax();
        } else {
            idle = 0;
            sched_yield();
        }
    }
}

#endif
