/* src/arch/context.h - the context-switch contract every arch backend implements.
 *
 * A suspended execution context is named by one opaque word (weft_ctx): for the assembly
 * backends it is the stack pointer at which the callee-saved registers and the FP control
 * state were pushed; for the ucontext fallback it points to a ucontext_t that lives on the
 * suspended stack.  A context can be resumed exactly once per suspension.
 *
 * What is preserved across a switch: the callee-saved registers of the ABI and the FP
 * *control* state (x86-64: MXCSR control bits and the x87 control word; AArch64: FPCR).
 * What is not: MXCSR/FPSR *status* flags stay with the hardware thread.  Writing MXCSR with
 * a different value and reading it back costs ~60 ns, so the x86-64 backend only writes the
 * control bits when they differ, and never rewrites status flags.
 *
 * The entry points:
 *   weft_ctx_switch(from, to, data)  save into *from, resume `to`; returns the `data` handed
 *                                   over by whoever resumes *from later.
 *   weft_ctx_switch_release(from, to, data, word)
 *                                   weft_ctx_switch that stores 0 into the 32-bit *word
 *                                   (release order) once it runs on `to`'s stack: a
 *                                   spinlock held across the switch is released only
 *                                   when the suspended side is saved and off its stack,
 *                                   so another thread may resume it at once.  The
 *                                   assembly backends have it and
 *                                   weft_ctx_start_release(from, top, fn, d, word), the
 *                                   same for weft_ctx_start (WEFT_CTX_HAS_SWITCH_RELEASE);
 *                                   ucontext, which switches in one call, does not.
 *   weft_ctx_start(from, top, fn, d) save into *from, move to the fresh stack ending at `top`
 *                                   (16-byte aligned) and call fn(d) there.  fn must never
 *                                   return: it leaves with weft_ctx_jump or weft_ctx_switch.
 *                                   This is how a ULT is started lazily, like a function call
 *                                   on a new stack (no frame is written in advance).
 *   weft_ctx_jump(to, data)          resume `to` without saving anything (a terminating ULT).
 *   weft_ctx_call(from, top, fn, d)  weft_ctx_start for a fn that may return: save into
 *                                   *from, call fn(d) on the fresh stack; if fn returns,
 *                                   go back to the caller's stack and return fn's value
 *                                   (return on completion, trade-off paper: the saved
 *                                   registers are not restored, fn preserved them).  fn
 *                                   may instead leave for good as after weft_ctx_start;
 *                                   *from stays valid for one resume until fn returns.
 *                                   x86-64 has it natively; the other backends build it on
 *                                   weft_ctx_start + weft_ctx_jump (ctx_call_generic.c).
 *   weft_ctx_call_nosave(top, fn, d) call fn(d) on the fresh stack without saving any
 *                                   context (stack separation, trade-off paper): if fn
 *                                   returns, back to the caller's stack with fn's value;
 *                                   if it leaves otherwise, the caller's frame is dead.
 *                                   Generic: weft_ctx_call into a local.
 */
#ifndef WEFT_ARCH_CONTEXT_H
#define WEFT_ARCH_CONTEXT_H

#include <stdint.h>

typedef void *weft_ctx;

#if !WEFT_CONTEXT_UCONTEXT && (defined(__x86_64__) || defined(__aarch64__))
#define WEFT_CTX_HAS_SWITCH_RELEASE 1
#else
#define WEFT_CTX_HAS_SWITCH_RELEASE 0
#endif

#define WEFT_HIDDEN __attribute__((visibility("hidden")))

WEFT_HIDDEN void *weft_ctx_switch(weft_ctx *from, weft_ctx to, void *data);
#if WEFT_CTX_HAS_SWITCH_RELEASE
WEFT_HIDDEN void *weft_ctx_switch_release(weft_ctx *from, weft_ctx to, void *data, uint32_t *word);
WEFT_HIDDEN void *weft_ctx_start_release(weft_ctx *from, void *stack_top, void (*fn)(void *),
                                         void *data, uint32_t *word);
#endif
WEFT_HIDDEN void *weft_ctx_start(weft_ctx *from, void *stack_top, void (*fn)(void *), void *data);
WEFT_HIDDEN __attribute__((noreturn)) void weft_ctx_jump(weft_ctx to, void *data);
WEFT_HIDDEN void *weft_ctx_call(weft_ctx *from, void *stack_top, void *(*fn)(void *), void *data);
WEFT_HIDDEN void *weft_ctx_call_nosave(void *stack_top, void *(*fn)(void *), void *data);

#endif
