/* src/core/tool/stack_unwind.h - the frames of a parked ULT, for the stack dumps
 * (core/stack_dump.c): libunwind, loaded when first needed, walks the program's unwind
 * tables from the ULT's saved context. */
#ifndef WEFT_CORE_STACK_UNWIND_H
#define WEFT_CORE_STACK_UNWIND_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arch/compiler.h"
#include "arch/context.h"

/* Print the frames of the context `ctx` saved by the context switch, one line each, at
 * most `max` of them, the deepest first: "  #N  0xPC  <function+0xoff> (object)".  False,
 * printing nothing, when frames cannot be had here (no libunwind.so.8 at run time, a
 * backend whose saved frame it does not know, valgrind), so the caller prints words. */
WEFT_INTERNAL bool weft_unwind_print(FILE *fp, weft_ctx ctx, int max);

#endif
