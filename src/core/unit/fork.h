/* src/core/fork.h - the fork-join technique of a ULT (trade-off paper; weft.h lists them).
 *
 * A ULT carries its technique in its flags (types.h): three behaviour bits that the hot
 * paths test, and the weft_fork_t value for introspection.
 *   WEFT_U_F_CF    child-first: ABT_thread_create starts it at once (unit.c, cf_spawn)
 *   WEFT_U_F_KEEP  its stack is taken at creation and kept until the unit is freed
 *   WEFT_U_F_ROC   return on completion: started by a scheduler or a bypassing joiner
 *                  with weft_ctx_call, it returns to it like a function when it did not
 *                  deviate (unit.c, ult_entry_roc)
 * No bit set is FULL_L, weft's technique before the techniques existed.  The runtime
 * default (WEFT_FORK, read at ABT_init) is resolved at creation: a unit's bits never
 * change. */
#ifndef WEFT_CORE_FORK_H
#define WEFT_CORE_FORK_H

#include <stdio.h>

#include <weft.h>

#include "core/types.h"

/* The flag bits of technique f (a valid weft_fork_t other than DEFAULT). */
WEFT_INTERNAL uint16_t weft_fork_flags(weft_fork_t f);
/* The technique recorded in a unit's flags (WEFT_FORK_DEFAULT for a tasklet). */
static inline weft_fork_t weft_fork_of(uint16_t flags)
{
    return (weft_fork_t)((flags & WEFT_U_FORK_MASK) >> WEFT_U_FORK_SHIFT);
}
/* "ROC-L", ... for ABT_info_print_* */
WEFT_INTERNAL const char *weft_fork_name(weft_fork_t f);
/* WEFT_FORK: the default technique's flags into *flags (ABT_SUCCESS), or a message on
 * stderr and ABT_ERR_INV_ARG for a value that names no technique. */
WEFT_INTERNAL int weft_fork_config(const char *env, uint16_t *flags);

#endif
