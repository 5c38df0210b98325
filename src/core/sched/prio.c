/* src/core/sched/prio.c - the predefined PRIO scheduler: strict priority by pool index.
 *
 * Pool 0 has the highest priority.  Every pick starts again from pool 0, so a unit pushed
 * into a higher-priority pool (by the running unit, by another stream) runs before any
 * lower-priority unit that is still waiting; units within one pool keep that pool's
 * order.  Starvation of low priorities is the intended behaviour.  Created by
 * ABT_sched_create_basic / ABT_xstream_create_basic with ABT_SCHED_PRIO; without a pool
 * list it gets WEFT_SCHED_NUM_PRIO (3) FIFO pools.  Stop requests are read every
 * `event_freq` units and whenever nothing is runnable; when idle it spins, then gives
 * its core away with sched_yield: the loop of loop.h. */
#include "core/sched/loop.h"

WEFT_SCHED_LOOP_DEFINE(weft_sched_prio_run, weft_sched_pick_in_order, false)
