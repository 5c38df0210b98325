/* src/arch/ctx_call_generic.c - weft_ctx_call for the backends without a native one
 * (AArch64, ucontext; cmake/arch.cmake adds this file for them).  Contract:
 * src/arch/context.h.
 *
 * Built on the other two entry points: the fresh stack starts with weft_ctx_start, and a
 * return of fn resumes the saved caller with weft_ctx_jump.  The caller gets the same
 * value and the same guarantees as from the native version; only the cost differs (the
 * return restores the saved registers instead of trusting fn to have kept them). */
#include "arch/context.h"

#include <stddef.h>

struct ctx_call_args {
    weft_ctx *from;
    void *(*fn)(void *);
    void *data;
};

static void ctx_call_entry(void *arg)
{
    /* copied before fn runs: the caller's frame holding them may be resumed (and
     * reused) as soon as fn leaves without returning */
    struct ctx_call_args a = *(struct ctx_call_args *)arg;
    void *r = a.fn(a.data);
    weft_ctx_jump(*a.from, r);
}

void *weft_ctx_call(weft_ctx *from, void *stack_top, void *(*fn)(void *), void *data)
{
    struct ctx_call_args a = { from, fn, data };
    return weft_ctx_start(from, stack_top, ctx_call_entry, &a);
}

void *weft_ctx_call_nosave(void *stack_top, void *(*fn)(void *), void *data)
{
    weft_ctx here; /* saved, but nobody but fn's return uses it */
    return weft_ctx_call(&here, stack_top, fn, data);
}
