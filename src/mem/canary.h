/* src/mem/canary.h - the stack canary: a known pattern in the lowest words of every stack
 * the runtime maps (written by stack.c when weft_mem_cfg.canary is set).  A stack that
 * grew into it has overflowed; core/overflow.h checks it when a ULT leaves its stack. */
#ifndef WEFT_MEM_CANARY_H
#define WEFT_MEM_CANARY_H

#include <stdbool.h>
#include <stdint.h>

#define WEFT_CANARY_WORDS 8
#define WEFT_CANARY_VALUE ((uintptr_t)0x5eedc0a1ca4a7e57ull)

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

#endif
