/* src/core/sched/prio.c - the predefined PRIO scheduler: strict priority by pool index.
 *
 * Pool 0 has the highest priority.  Every pick starts again from pool 0, so a unit pushed
 * into a higher-priority pool (by the running unit, by another stream) runs before any
 * lower-priority unit that is still waiting; units within one pool keep that pool's
 * order.  Starvation of low priorities is the intended behaviour.  Created by
 * ABT_sched_create_basic / ABT_xstream_create_basic with ABT_SCHED_PRIO; without a pool
 * list it gets WEFT_SCHED_NUM_PRIO (3) FIFO pools.  Stop requests are read every
 * `event_freq` units and whenever nothing is runnable; when idle it spins, then gives
 * its core away with sched_yield (as BASIC does). */
#include <sched.h>

#include "core/sched/sched.h"
#include "core/unit.h"

#define IDLE_SPINS 256

void weft_sched_prio_run(ABT_sched sched)
{
    weft_sched *s = (weft_sched *)sched;
    weft_xstream *xs = weft_xs_self();
    uint32_t n = 0, idle = 0;
    for (;;) {
        weft_unit *u = NULL;
        weft_sched_take_main(xs, s);
        for (int i = 0; i < s->num_pools; i++) {
            if ((u = weft_pool_pop_ctx(s->pools[i], ABT_POOL_CONTEXT_OWNER_PRIMARY)))
                break;
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
