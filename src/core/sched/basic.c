/* src/core/sched/basic.c - the predefined BASIC and BASIC_WAIT schedulers.
 *
 * BASIC pops its pools in index order and runs the first unit found; with nothing to run
 * it spins with cpu_relax and, after a while, sched_yield, so a busy peer keeps its core.
 * BASIC_WAIT does the same but sleeps in pop_wait on its first pool when idle: an idle
 * stream then uses no CPU; pushes and stop requests wake it.  Both are the loop of loop.h.
 * Under either, with one inline-FIFO pool, yields and blocks may bypass the loop
 * (s->bypass_pool, core/unit/yield.c). */
#include "core/sched/loop.h"

WEFT_SCHED_LOOP_DEFINE(weft_sched_basic_run, weft_sched_pick_in_order, false)
WEFT_SCHED_LOOP_DEFINE(weft_sched_basic_wait_run, weft_sched_pick_in_order, true)
