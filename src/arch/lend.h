/* src/arch/lend.h - a call that code deeper in it can leave early, back to the call's end,
 * without unwinding the frames in between.  weft lends a joiner's stack to an SC unit
 * with it (core/unit.c, "scheduler creation in the joiner"): the unit's function is
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
 * x86-64 (SysV): inline assembly, no function call of its own: the caller's frame is the
 * one the jump comes back to.  The call stores the callee-saved registers in `b` (a
 * return keeps them, as the ABI asks of the called function; a jump back loads them), so
 * the caller may keep values in them across the call.  The x87 and MXCSR control words
 * are not restored by a jump.  Elsewhere: __builtin_setjmp / __builtin_longjmp (the function that
 * calls weft_lend_call is then not inlined, WEFT_LEND_INLINE). */
#ifndef WEFT_ARCH_LEND_H
#define WEFT_ARCH_LEND_H

#if defined(__x86_64__) && !defined(WEFT_LEND_PORTABLE) /* (-DWEFT_LEND_PORTABLE: the other) */

#define WEFT_LEND_NATIVE 1
typedef struct weft_lend_buf {
    void *sp;      /* the aligned stack pointer of the call (the caller's is stored there) */
    void *pc;      /* the call's end */
    void *fp;      /* rbp */
    void *regs[5]; /* rbx, r12-r15: what a jump back restores (a return keeps them) */
} weft_lend_buf;

static inline __attribute__((always_inline)) void weft_lend_call(weft_lend_buf *b,
                                                                 void (*fn)(void *), void *arg)
{
    weft_lend_buf *rb = b;
    void (*rfn)(void *) = fn;
    void *rarg = arg;
    __asm__ volatile("mov %%rsp, %%rax\n\t"
                     "lea -128(%%rsp), %%rsp\n\t" /* the caller's red zone */
                     "and $-16, %%rsp\n\t"
                     "sub $16, %%rsp\n\t"
                     "mov %%rax, (%%rsp)\n\t" /* the caller's stack pointer */
                     "mov %%rsp, 0(%[b])\n\t"
                     "lea 1f(%%rip), %%rax\n\t"
                     "mov %%rax, 8(%[b])\n\t"
                     "mov %%rbp, 16(%[b])\n\t"
                     "mov %%rbx, 24(%[b])\n\t"
                     "mov %%r12, 32(%[b])\n\t"
                     "mov %%r13, 40(%[b])\n\t"
                     "mov %%r14, 48(%[b])\n\t"
                     "mov %%r15, 56(%[b])\n\t"
                     "call *%[fn]\n\t"
                     "1:\n\t"
                     "mov (%%rsp), %%rsp\n\t"
                     : [b] "+d"(rb), [fn] "+S"(rfn), "+D"(rarg)
                     :
                     : "rax", "rcx", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3",
                       "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
                       "xmm13", "xmm14", "xmm15", "memory", "cc");
}

/* The stack pointer of the call: below it lie the frames of the called function. */
static inline void *weft_lend_sp(const weft_lend_buf *b) { return b->sp; }

static inline __attribute__((always_inline, noreturn)) void weft_lend_jump(weft_lend_buf *b)
{
    __asm__ volatile("mov 24(%0), %%rbx\n\t"
                     "mov 32(%0), %%r12\n\t"
                     "mov 40(%0), %%r13\n\t"
                     "mov 48(%0), %%r14\n\t"
                     "mov 56(%0), %%r15\n\t"
                     "mov 16(%0), %%rbp\n\t"
                     "mov 0(%0), %%rsp\n\t"
                     "jmp *8(%0)\n\t"
                     :
                     : "a"(b)
                     : "memory");
    __builtin_unreachable();
}

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
