/* src/mem/overflow.h - ULT stack-overflow detection, chosen at ABT_init by
 * ABT_STACK_OVERFLOW_CHECK (cfg.stack_overflow_check):
 *   none             nothing.
 *   canary           a pattern at the low end of every runtime-made stack, written when
 *                    the stack is mapped (stack.c); weft_canary_check compares two of its
 *                    words when a ULT yields, blocks or terminates (unit.c).  Disabled
 *                    under valgrind, which reports the read below the stack pointer.
 *   mprotect[_strict] a PROT_NONE guard page below every stack (stack.c) and a SIGSEGV
 *                    handler on an alternate signal stack per stream thread (overflow.c)
 *                    that names the ULT whose guard page was hit.
 * Either way the report is one message on stderr (which ULT, its stack, the address, and
 * how to give it a larger stack), then abort().  User-supplied stacks
 * (ABT_thread_attr_set_stack) get neither a canary nor a guard: their memory is not ours. */
#ifndef WEFT_MEM_OVERFLOW_H
#define WEFT_MEM_OVERFLOW_H

#include "mem/mem.h"

#define WEFT_CANARY_WORDS 8
#define WEFT_CANARY_VALUE ((uintptr_t)0x5eedc0a1ca4a7e57ull)

/* canary mode is on (and usable: not under valgrind) */
extern WEFT_INTERNAL bool weft_canary_on;

static inline void weft_canary_write(void *lo)
{
    uintptr_t *w = lo;
    for (int i = 0; i < WEFT_CANARY_WORDS; i++)
        w[i] = WEFT_CANARY_VALUE;
}

/* The lowest word and the highest one (the first a growing stack reaches). */
__attribute__((no_sanitize("address", "thread"))) static inline bool
weft_canary_intact(const void *lo)
{
    const volatile uintptr_t *w = lo;
    return ((w[0] ^ WEFT_CANARY_VALUE) | (w[WEFT_CANARY_WORDS - 1] ^ WEFT_CANARY_VALUE)) == 0;
}

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
