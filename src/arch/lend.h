/* src/arch/lend.h - a call that code deeper in it can leave early, back to the call's end,
 * without unwinding the frames in between.  weft lends a joiner's stack to an SC unit
 * with it (core/unit/lend.c, "scheduler creation in the joiner"): the unit's function is
 * called like a tasklet's, and ABT_thread_exit, or a cancellation, of that unit comes back
 * to its joiner's frame through weft_lend_jump.
 *
 *   weft_lend_buf b;
 *   weft_lend_call(&b, fn, arg);   // returns when fn returns, or when something that fn
 *                                  // called, on this stack, calls weft_lend_jump(&b)
 *
 * The frames of the call may have been switched away from and back to (a context switch
 * keeps a stack as it is); `b` must stay in place until the call ends.
 *
 * x86-64 (SysV): a function in assembly (lend_x86_64_sysv_elf_gas.S), called like any
 * other: it stores the stack pointer (at its return address) and the callee-saved
 * registers in `b`, then tail-calls fn, which returns to weft_lend_call's caller; a jump
 * back loads the registers and returns there too, the caller's frame intact.  The
 * x87 and MXCSR control words are not restored by a jump.  Elsewhere, and with
 * -DWEFT_LEND_PORTABLE: __builtin_setjmp / __builtin_longjmp (the function that calls
 * weft_lend_call is then not inlined, WEFT_LEND_INLINE). */
#ifndef WEFT_ARCH_LEND_H
#define WEFT_ARCH_LEND_H

#include "arch/compiler.h"

#if defined(__x86_64__) && !defined(WEFT_LEND_PORTABLE) /* (-DWEFT_LEND_PORTABLE: the other) */

#define WEFT_LEND_NATIVE 1
typedef struct weft_lend_buf {
    void *sp;      /* weft_lend_call's, at its return address: below it lie fn's frames */
    void *regs[6]; /* rbp, rbx, r12-r15: what a jump back restores (a return keeps them) */
} weft_lend_buf;

WEFT_INTERNAL void weft_lend_call(weft_lend_buf *b, void (*fn)(void *), void *arg);
WEFT_INTERNAL __attribute__((noreturn)) void weft_lend_jump(weft_lend_buf *b);

/* The stack pointer of the call: below it lie the frames of the called function. */
static inline void *weft_lend_sp(const weft_lend_buf *b) { return b->sp; }

#else

#define WEFT_LEND_NATIVE 0
typedef struct weft_lend_buf {
    void *jb[5];
} weft_lend_buf;
#define weft_lend_call(b, fn, arg)          \
    do {                                    \
        if (__builtin_setjmp((b)->jb) == 0) \
            (fn)(arg);                      \
    } while (0)
#define weft_lend_jump(b) __builtin_longjmp((b)->jb, 1)
/* GCC's buffer: frame pointer, resume address, stack pointer, then target-specific */
static inline void *weft_lend_sp(const weft_lend_buf *b) { return b->jb[2]; }

#endif

/* For the function that calls weft_lend_call: inlined only where the call is native. */
#if WEFT_LEND_NATIVE
#define WEFT_LEND_INLINE inline __attribute__((always_inline))
#else
#define WEFT_LEND_INLINE __attribute__((noinline))
#endif

#endif
