/* src/core/tool/stack_dump.h - stack dumps of ULTs (ABT_info_print_thread_stack[s_in_pool],
 * ABT_info_trigger_print_all_thread_stacks) and the stop point schedulers pass through.
 *
 * The trigger only stores its arguments and raises `weft_dump_pending` (async-signal
 * safe, as Argobots documents).  Every scheduler loop passes weft_dump_check at its event
 * checks (weft_sched_has_to_stop, ABT_xstream_check_events): one relaxed load and a
 * predicted-not-taken branch.  A stream that sees the flag stops there, in scheduler
 * context (no ULT of its own is running), and waits until every running stream has
 * stopped or the time-out has passed; then one of them prints the stacks of every ULT
 * (found through the descriptor slabs, so blocked ULTs are included), calls the callback
 * and lets all of them go on.  Details in stack_dump.c. */
#ifndef WEFT_CORE_STACK_DUMP_H
#define WEFT_CORE_STACK_DUMP_H

#include "core/types.h"

extern WEFT_INTERNAL _Atomic uint32_t weft_dump_pending;

/* Stop here for a pending stack dump if the calling stream runs its scheduler. */
WEFT_INTERNAL WEFT_COLD void weft_dump_stop(void);

static inline void weft_dump_check(void)
{
    if (WEFT_UNLIKELY(weft_atomic_load_relaxed(&weft_dump_pending)))
        weft_dump_stop();
}

/* Print the stack of one unit (ABT_info_print_thread_stack without the checks). */
WEFT_INTERNAL void weft_dump_unit_stack(FILE *fp, weft_unit *u);
/* fork() child (atfork.c): a stream of the parent may have held the stop lock. */
WEFT_INTERNAL void weft_dump_atfork_child(void);

#endif
