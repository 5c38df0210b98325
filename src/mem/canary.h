/* src/mem/canary.h - the stack canary: a known pattern in the WEFT_CANARY_WORDS words just
 * below the usable range of every stack the runtime maps (written by stack.c when
 * weft_mem_cfg.canary is set), between the stack and its guard page.  A ULT that ran past
 * the low end of its stack overwrites it before anything else; core/tool/overflow.h checks the
 * word nearest to the stack (the first one reached) whenever a ULT leaves its stack. */
#ifndef WEFT_MEM_CANARY_H
#define WEFT_MEM_CANARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WEFT_CANARY_WORDS 8
#define WEFT_CANARY_BYTES (WEFT_CANARY_WORDS * sizeof(uintptr_t))
/* A sign-extended 32-bit pattern, so that the check is one `cmp $imm32, (mem)` (x86-64)
 * instead of loading a 64-bit constant first; an overrun that writes exactly this word
 * is as unlikely as with any other pattern. */
#define WEFT_CANARY_VALUE ((uintptr_t)(intptr_t)(int32_t)0xca4a7e57u)

/* Where a stack's canary pointer points when no canary is kept (ABT_STACK_OVERFLOW_CHECK
 * =none, or under valgrind): a word that always holds the pattern, so that the check at
 * every switch needs no "is the canary on?" test (mem/stack.c). */
extern __attribute__((visibility("hidden"))) const uintptr_t weft_canary_off_word;

/* `below` is the low end of the stack: the canary fills [below - WEFT_CANARY_BYTES, below). */
static inline void weft_canary_write(void *below)
{
    uintptr_t *w = (uintptr_t *)below - WEFT_CANARY_WORDS;
    for (int i = 0; i < WEFT_CANARY_WORDS; i++)
        w[i] = WEFT_CANARY_VALUE;
}

/* The word right below the stack (stack.c keeps its address in the stack header).  A
 * plain load, so that the compiler can make it `cmp $imm32, (mem)`: the check runs where
 * a ULT leaves its stack, before an opaque context switch, so it is never hoisted. */
__attribute__((no_sanitize("address", "thread"))) static inline bool
weft_canary_word_intact(const uintptr_t *word)
{
    return *word == WEFT_CANARY_VALUE;
}

/* For the report: how many bytes below `below` the pattern is damaged (0: intact).  The
 * overrun went at least that far. */
__attribute__((no_sanitize("address", "thread"))) static inline size_t
weft_canary_damage(const void *below)
{
    const volatile uintptr_t *w = (const uintptr_t *)below - WEFT_CANARY_WORDS;
    for (int i = 0; i < WEFT_CANARY_WORDS; i++)
        if (w[i] != WEFT_CANARY_VALUE)
            return (size_t)(WEFT_CANARY_WORDS - i) * sizeof(uintptr_t);
    return 0;
}

#endif
