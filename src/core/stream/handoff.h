/* src/core/stream/handoff.h - the life cycle of the hand-off monitor and its spares
 * (stream/handoff.c: blocking calls, weft_blocking_begin/end, and preemption). */
#ifndef WEFT_CORE_HANDOFF_H
#define WEFT_CORE_HANDOFF_H

#include "core/sched/sched.h"

/* ABT_finalize, once the secondary streams are gone, on the primary ULT: stop the monitor,
 * wait for the spares to finish what they run (the primary stream runs meanwhile), join
 * them. */
WEFT_INTERNAL void weft_blocking_finalize(void);
/* Before a stream's record is freed: wait until no spare serves it any more. */
WEFT_INTERNAL void weft_blocking_forget(weft_xstream *x);
/* ABT_init, once the runtime runs: WEFT_PREEMPT turns preemption on for every pool. */
WEFT_INTERNAL void weft_preempt_init(void);
/* The child of fork(): no monitor, no spare thread. */
WEFT_INTERNAL void weft_blocking_atfork_child(void);

#endif
