/* src/core/stream/blocking.c - weft_blocking_begin/end: a unit announces a call that may
 * block its OS thread in the kernel.  Pairs nest per stream (the caller cannot switch
 * between the two calls, so the stream's count is the caller's). */
#include "core/runtime.h"

WEFT_API int weft_blocking_begin(void)
{
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    weft_xstream *xs = weft_xs_self();
    if (xs)
        xs->blocking_depth++;
    return ABT_SUCCESS;
}

WEFT_API int weft_blocking_end(void)
{
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    weft_xstream *xs = weft_xs_self();
    if (!xs)
        return ABT_SUCCESS;
    if (xs->blocking_depth == 0)
        return ABT_ERR_INV_ARG;
    xs->blocking_depth--;
    return ABT_SUCCESS;
}
