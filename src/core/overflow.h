/* src/core/overflow.h - ULT stack-overflow detection, chosen at ABT_init by
 * ABT_STACK_OVERFLOW_CHECK (cfg.stack_overflow_check):
 *   none             nothing.
 *   canary           a pattern at the low end of every runtime-made stack, written when
 *                    the stack is mapped (mem/stack.c, mem/canary.h); weft_canary_check compares two of its
 *                    words when a ULT yields, blocks or terminates (unit.c).  Disabled
 *                    under valgrind, which reports the read below the stack pointer.
 *   mprotect[_strict] a PROT_NONE guard page below every stack (mem/stack.c) and a SIGSEGV
 *                    handler on an alternate signal stack per stream thread (overflow.c)
 *                    that names the ULT whose guard page was hit.
 * Either way the report is one message on stderr (which ULT, its stack, the address, and
 * how to give it a larger stack), then abort().  User-supplied stacks
 * (ABT_thread_attr_set_stack) get neither a canary nor a guard: their memory is not ours. */
#ifndef WEFT_CORE_OVERFLOW_H
#define WEFT_CORE_OVERFLOW_H

#include "core/types.h"
#include "mem/canary.h"

/* canary mode is on (and usable: not under valgrind) */
extern WEFT_INTERNAL bool weft_canary_on;

WEFT_INTERNAL WEFT_COLD __attribute__((noreturn)) void weft_canary_fail(weft_unit *u);

/* A ULT leaves its stack (yield, block, exit): is the canary still there? */
static inline void weft_canary_check(weft_unit *u)
{
    if (WEFT_UNLIKELY(weft_canary_on) && u->stack &&
        !weft_canary_intact(weft_stack_lo(u->stack)))
        weft_canary_fail(u);
}

/* ABT_init / ABT_finalize (runtime.c): install or remove the SIGSEGV handler and the
 * calling thread's alternate signal stack, set weft_canary_on. */
WEFT_INTERNAL void weft_overflow_init(void);
WEFT_INTERNAL void weft_overflow_finalize(void);
/* A stream's OS thread starts / ends (xstream.c): its own alternate signal stack. */
WEFT_INTERNAL void weft_overflow_thread_init(void);
WEFT_INTERNAL void weft_overflow_thread_fini(void);

#endif
