/* src/core/sched/randws.c - the predefined RANDWS scheduler: random work stealing.
 *
 * Pool 0 is the scheduler's own: it pops it as the owner (ABT_POOL_CONTEXT_OWNER_PRIMARY).
 * When pool 0 is empty it picks one of the other pools at random and pops it as a thief
 * (ABT_POOL_CONTEXT_OWNER_SECONDARY, which a RANDWS pool serves from its tail, the oldest
 * work).  The usual set-up gives each stream a RANDWS scheduler whose pool list starts
 * with its own pool followed by the others'.  One steal attempt per round keeps the cost
 * of an idle round bounded; the victim changes every round.  Stop requests and idling as
 * in BASIC.  The random source is a xorshift per run (no shared state between streams). */
#include <sched.h>

#include "core/sched/sched.h"
#include "core/unit.h"

#define IDLE_SPINS 256

static inline uint32_t xorshift32(uint32_t *x)
{
    uint32_t v = *x;
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    return *x = v;
}

void weft_sched_randws_run(ABT_sched sched)
{
    weft_sched *s = (weft_sched *)sched;
    weft_xstream *xs = weft_xs_self();
    uint32_t seed = (uint32_t)((uintptr_t)s >> 6) ^ (uint32_t)weft_clock_ns() ^
                    (uint32_t)xs->rank * 0x9e3779b9u;
    if (seed == 0)
        seed = 1;
    uint32_t n = 0, idle = 0;
    for (;;) {
        weft_sched_take_main(xs, s);
        weft_unit *u = s->num_pools > 0
                           ? weft_pool_pop_ctx(s->pools[0], ABT_POOL_CONTEXT_OWNER_PRIMARY)
                           : NULL;
        if (!u && s->num_pools > 1) {
            int victim = s->num_pools == 2 ? 1 : 1 + (int)(xorshift32(&seed) % (uint32_t)(s->num_pools - 1));
            u = weft_pool_pop_ctx(s->pools[victim], ABT_POOL_CONTEXT_OWNER_SECONDARY);
        }
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
        if (++idle < IDLE_SPINS) {
            weft_cpu_relax();
        } else {
            idle = 0;
            sched_yield();
        }
    }
}
