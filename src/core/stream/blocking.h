/* src/core/stream/blocking.h - the life cycle of the blocking-call monitor and its spares
 * (stream/blocking.c; the pair itself is weft_blocking_begin/end in weft.h). */
#ifndef WEFT_CORE_BLOCKING_H
#define WEFT_CORE_BLOCKING_H

#include "core/sched/sched.h"

/* ABT_finalize, once the secondary streams are gone, on the primary ULT: stop the monitor,
 * wait for the spares to finish what they run (the primary stream runs meanwhile), join
 * them. */
WEFT_INTERNAL void weft_blocking_finalize(void);
/* Before a stream's record is freed: wait until no spare serves it any more. */
WEFT_INTERNAL void weft_blocking_forget(weft_xstream *x);
/* The child of fork(): no monitor, no spare thread. */
WEFT_INTERNAL void weft_blocking_atfork_child(void);

#endif
