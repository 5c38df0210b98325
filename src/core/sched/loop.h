/* src/core/sched/loop.h - the one run loop of the predefined schedulers, parameterised by
 * the policy that picks the next unit.
 *
 * Every predefined scheduler (basic.c: BASIC and BASIC_WAIT, prio.c: PRIO, randws.c:
 * RANDWS) is this loop with its own pick function:
 *   - run what the pick returns; every `event_freq` units, and whenever nothing is
 *     runnable, check events (stop requests, timers, stack dumps: weft_sched_has_to_stop);
 *     after every unit too, the completion polls of a face that asked for it
 *     (weft_poll_hook_eager, core/sched/poll_hook.h: MPI transfers in flight);
 *   - the primary ULT popped by another stream is taken back first (weft_sched_take_main);
 *   - idle (nothing picked, nothing to stop for): weft_sched_idle (sched/idle.c) spins
 *     for ABT_SCHED_SPIN_NSEC if fewer than ABT_SCHED_MAX_SPINNERS streams spin already
 *     (never under BASIC_WAIT), then sleeps on the stream's idle word until a push to one
 *     of its pools, a stop request, the next timer deadline or another event (core/sched/idle.h).
 * The loop is always_inline and each scheduler passes a constant pick function and a
 * constant `wait_when_idle`, so the compiler emits one specialised loop per scheduler with
 * the pick inlined: the policy costs no indirect call per unit.  Rejected: a function
 * pointer in weft_sched (an indirect call on the path of every ULT run) and three copies
 * of the loop (they drifted: idle spin 4096 in one, 256 in the others).
 *
 * Restartable (stack separation, core/unit/fork.h).  The loop keeps no state that cannot be
 * rebuilt (its unit count lives in the scheduler, its rng and idle phase start afresh),
 * so it is *stateless* in the trade-off paper's sense: WEFT_SCHED_LOOP_DEFINE enters it
 * through weft_sched_loop_enter (core/unit/exit.c), which records where the loop starts
 * (restart_top, restart_fn) and where it returns (loop_exit).  An SS unit is then started without
 * saving the loop's context; if it deviates, going back to the scheduler starts the loop
 * afresh at restart_top, and the loop's end jumps to loop_exit. */
#ifndef WEFT_CORE_SCHED_LOOP_H
#define WEFT_CORE_SCHED_LOOP_H

#include "core/sched/sched.h"
#include "core/sched/poll_hook.h"
#include "core/sched/timer_hook.h"
#include "core/unit/unit.h"

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
    weft_sched_idle_state idle = { 0 };
    for (;;) {
        weft_sched_take_main(xs, s);
        weft_unit *u = pick(s, &rng);
        if (u) {
            if (WEFT_UNLIKELY(idle.phase != WEFT_IDLE_NONE))
                weft_sched_idle_end(&idle);
            weft_sched_run_unit(xs, s, u);
            if (WEFT_UNLIKELY(xs->poll_eager != 0)) /* core/sched/poll_hook.h: eager polling */
                weft_poll_hooks_run_eager();
            if (++s->loop_n < s->event_freq)
                continue;
        }
        s->loop_n = 0;
        if (weft_sched_has_to_stop(s))
            break;
        if (u)
            continue;
        weft_sched_idle(xs, s, &idle, wait_when_idle);
    }
    if (idle.phase != WEFT_IDLE_NONE)
        weft_sched_idle_end(&idle); /* gives a spinner's place back */
}

/* Enter a predefined loop so that it can be restarted (core/unit/exit.c).  body(s) runs the loop;
 * it starts with weft_sched_loop_begin and ends with weft_sched_loop_end. */
WEFT_INTERNAL void weft_sched_loop_enter(weft_sched *s, void (*body)(void *));
/* First thing of the body, on its entry or restart: run the pending post action. */
WEFT_INTERNAL void weft_sched_loop_begin(weft_sched *s);
/* The loop ended: back to weft_sched_loop_enter's caller. */
WEFT_INTERNAL __attribute__((noreturn)) void weft_sched_loop_end(weft_sched *s);

/* A predefined scheduler's run function `name`: its loop with `pick`, restartable. */
#define WEFT_SCHED_LOOP_DEFINE(name, pick, wait_when_idle) \
    static void name##_body(void *arg)                     \
    {                                                      \
        weft_sched *s_ = arg;                              \
        weft_sched_loop_begin(s_);                         \
        weft_sched_loop(s_, pick, wait_when_idle);         \
        weft_sched_loop_end(s_);                           \
    }                                                      \
    void name(ABT_sched sched) { weft_sched_loop_enter((weft_sched *)sched, name##_body); }

#endif
