/* src/core/tool/overflow.h - ULT stack-overflow detection, chosen at ABT_init by
 * ABT_STACK_OVERFLOW_CHECK (cfg.stack_overflow_check):
 *   none (0)             nothing.
 *   canary (1)           canary words below every runtime-made stack (mem/stack.c,
 *                        mem/canary.h), written when the stack is mapped; weft_canary_check
 *                        compares the word nearest to the stack whenever a ULT leaves its
 *                        stack (yield, block, exit and every direct switch, core/unit/).  Off
 *                        under valgrind, which reports the read below the stack pointer.
 *   mprotect (2)         the default: the canary, and a guard page (no access) right below
 *                        it, set when the stack is mapped or carved from an arena (mem/stack.c).
 *   mprotect_strict (3)  the same, but a stack whose guard cannot be set is not used.
 * In every mode but none a SIGSEGV handler runs on an alternate signal stack per stream
 * thread (overflow.c): a fault on the guard page, or below the stack of the running ULT,
 * is reported.  The report is one message on stderr (the ULT's id, the function it was
 * created with, its stack size, how far it overran when known, and the two ways to give
 * it a larger stack), then abort().  User-supplied stacks (ABT_thread_attr_set_stack) get
 * no canary; they get a guard only when ABT_STACK_OVERFLOW_CHECK names mprotect or
 * mprotect_strict (cfg.guard_in_stack), which also lays every runtime-made stack out as
 * Argobots does: the guard is the lowest whole page of the stack's own range (the one
 * ABT_thread_get_attr reports), not a page below it (mem/stack.c). */
#ifndef WEFT_CORE_OVERFLOW_H
#define WEFT_CORE_OVERFLOW_H

#include "core/types.h"
#include "mem/canary.h"

/* ABT_init, before the memory layer is configured: will canaries be kept (a mode other
 * than none, not under valgrind)?  mem/stack.c then writes one below every stack it maps
 * (weft_mem_cfg.canary). */
WEFT_INTERNAL bool weft_overflow_canary_wanted(void);

WEFT_INTERNAL WEFT_COLD __attribute__((noreturn)) void weft_canary_fail(weft_unit *u);
/* A unit on its joiner's stack (LENT, BORROWED) overran its stack size: the canary right
 * below lo, the low end of the part of that stack it may use (weft_unit_lent_lo; core/unit/lend.c,
 * "a fresh unit on its joiner's stack"), is damaged, or its frames reach below lo. */
WEFT_INTERNAL WEFT_COLD __attribute__((noreturn)) void weft_lend_canary_fail(weft_unit *u,
                                                                             uintptr_t lo);

/* A ULT leaves its stack (yield, block, exit, a direct switch): is the canary intact?
 * Whether the stack has one is a bit of its header's address (mem.h,
 * WEFT_STACK_CANARY_TAG): a stack whose guard page lies right below it (every default
 * one with ABT_STACK_OVERFLOW_CHECK=mprotect) costs one load of u->stack and a test, and
 * touches no line of the stack; one with a canary also loads the canary's address from
 * the header and compares the word with an immediate.  A ULT on a stack the runtime did
 * not make (the primary ULT, user stacks) has no weft_stack (NULL: no tag). */
static inline void weft_canary_check(weft_unit *u)
{
    weft_stack *s = u->stack;
    if (WEFT_UNLIKELY(weft_stack_has_canary(s)) && !weft_canary_word_intact(s->canary))
        weft_canary_fail(u);
}

/* A ULT on a user-given stack (ABT_thread_attr_set_stack) is created / freed (core/unit/create.c,
 * exit.c): with cfg.guard_in_stack, the first whole page of that stack becomes a guard page
 * (PROT_NONE) if the stack holds it and two pages above it, and is readable and writable
 * again when the ULT is freed, before its user may free the memory.  The set returns
 * ABT_ERR_MEM if mprotect_strict's required guard cannot be set, else ABT_SUCCESS. */
WEFT_INTERNAL WEFT_WUR int weft_overflow_user_guard_set(weft_unit *u);
WEFT_INTERNAL void weft_overflow_user_guard_clear(weft_unit *u);

/* ABT_init / ABT_finalize (runtime.c): install or remove the SIGSEGV handler and the
 * calling thread's alternate signal stack. */
WEFT_INTERNAL void weft_overflow_init(void);
WEFT_INTERNAL void weft_overflow_finalize(void);
/* A stream's OS thread starts / ends (xstream.c): its own alternate signal stack. */
WEFT_INTERNAL void weft_overflow_thread_init(void);
WEFT_INTERNAL void weft_overflow_thread_fini(void);

#endif
