/* src/arch/switch_ucontext.c - portable context switch on getcontext/makecontext/
 * swapcontext/setcontext, for targets without an assembly backend (cmake/arch.cmake picks
 * it, or -DWEFT_CONTEXT=ucontext forces it).  Contract: src/arch/context.h.
 *
 * A suspended context is a pointer to a ucontext_t that lives in the frame of the
 * weft_ctx_switch / weft_ctx_start call that suspended it, i.e. on the suspended stack.
 * It is valid until that context is resumed, which is exactly what the contract allows.
 *
 * The `data` word cannot travel in a register through swapcontext, so it is parked in a
 * thread-local just before the switch and read back by the resumed side right after it.
 * Both happen on the same OS thread with nothing in between, so one slot per thread is
 * enough.  The read goes through a function the compiler cannot inline: a context may be
 * resumed on a different OS thread from the one it was suspended on, and a compiler is
 * allowed to keep the address of a thread-local computed before the call to swapcontext
 * and reuse it after (it assumes the thread does not change inside a function).
 *
 * Differences from the assembly backends, inherent to ucontext:
 *   - every switch also saves and restores the signal mask (a system call each way);
 *   - the libc saves and restores the whole FP environment, so on most targets the FP
 *     *status* flags travel with the context as well as the control state.
 */
#if defined(__APPLE__) && !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700 /* macOS hides the (deprecated) ucontext API without it */
#endif

#include "arch/context.h"

#include <stdint.h>
#include <stdlib.h>
#include <ucontext.h>

/* Nominal size handed to makecontext for a fresh stack.  The contract only gives the top
 * of the stack; makecontext derives the initial stack pointer from ss_sp + ss_size and
 * never touches the rest, but some libcs reject a size below MINSIGSTKSZ, so a plausible
 * value is passed and ss_sp is placed that far below the top. */
#define WEFT_UCTX_NOMINAL_STACK ((size_t)64 * 1024)

#if defined(__clang__)
#define WEFT_UCTX_OPAQUE __attribute__((noinline))
#else
#define WEFT_UCTX_OPAQUE __attribute__((noinline, noclone))
#endif

static _Thread_local void *weft_uctx_data;         /* the word being handed over */
static _Thread_local void (*weft_uctx_fn)(void *); /* the function a new context runs */

WEFT_UCTX_OPAQUE static void *weft_uctx_take(void)
{
    void *data = weft_uctx_data;
    __asm__ volatile("" ::: "memory");
    return data;
}

WEFT_UCTX_OPAQUE static void (*weft_uctx_take_fn(void))(void *)
{
    void (*fn)(void *) = weft_uctx_fn;
    __asm__ volatile("" ::: "memory");
    return fn;
}

/* Entry point of every context made by weft_ctx_start: runs on the new stack. */
static void weft_uctx_trampoline(void)
{
    void (*fn)(void *) = weft_uctx_take_fn();
    fn(weft_uctx_take());
    abort(); /* fn must leave with weft_ctx_jump or weft_ctx_switch, never return */
}

void *weft_ctx_switch(weft_ctx *from, weft_ctx to, void *data)
{
    ucontext_t self;

    *from = &self;
    weft_uctx_data = data;
    if (swapcontext(&self, (ucontext_t *)to) != 0)
        abort();
    return weft_uctx_take(); /* set by whoever resumed us, on the thread we now run on */
}

void *weft_ctx_start(weft_ctx *from, void *stack_top, void (*fn)(void *), void *data)
{
    ucontext_t self;
    /* The new side's initial ucontext only has to live until swapcontext has loaded it,
     * so it is kept in this frame rather than on the new stack, which stays all fn's. */
    ucontext_t child;

    if (getcontext(&child) != 0)
        abort();
    child.uc_link = NULL;
    child.uc_stack.ss_sp = (void *)((uintptr_t)stack_top - WEFT_UCTX_NOMINAL_STACK);
    child.uc_stack.ss_size = WEFT_UCTX_NOMINAL_STACK;
    child.uc_stack.ss_flags = 0;
    makecontext(&child, weft_uctx_trampoline, 0);

    *from = &self;
    weft_uctx_fn = fn;
    weft_uctx_data = data;
    if (swapcontext(&self, &child) != 0)
        abort();
    return weft_uctx_take();
}

void weft_ctx_jump(weft_ctx to, void *data)
{
    weft_uctx_data = data;
    setcontext((ucontext_t *)to);
    abort(); /* setcontext returns only on failure */
}
