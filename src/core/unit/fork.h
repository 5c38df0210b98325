/* src/core/unit/fork.h - the fork-join technique of a ULT (trade-off paper; weft.h lists
 * them).
 *
 * A ULT carries its technique in its flags (types.h): five behaviour bits that the hot
 * paths test, and the weft_fork_t value for introspection (WEFT_U_FORK_MASK).
 *   WEFT_U_F_KEEP  its stack is taken at creation and kept until the unit is freed
 *                  (without it: taken at the first run, given back when the unit ends)
 *   WEFT_U_F_ROC   return on completion: started by a scheduler or a bypassing joiner
 *                  with weft_ctx_call, it returns to it like a function when it did not
 *                  deviate (exit.c, the weft_ult_entry_roc_* entries)
 *   WEFT_U_F_SS    stack separation: a predefined loop starts it without saving itself
 *                  (run.c, weft_ult_entry_ss); a deviation restarts the loop (exit.c)
 *   WEFT_U_F_SC    scheduler creation: a predefined loop calls it on the loop's own stack
 *                  (run.c, sc_run), which it takes over when it first leaves it
 *                  (stack.c); a joiner calls it on its stack (the lend, lend.c)
 *   WEFT_U_F_CF    child-first: ABT_thread_create starts it at once (create.c, cf_spawn)
 * No bit set is FULL_L, weft's technique before the techniques existed.  The runtime
 * default (WEFT_FORK, read at ABT_init; RoC-L without it) is resolved at creation: a
 * unit's bits never change.
 *
 * The steps of each technique, in the files of src/core/unit/:
 *
 *   technique  bits         create  start: sched | joiner        exit              join       free
 *   Full       KEEP         fork    ult_entry | ult_entry        ult_exit          wait       other
 *   Full-L     -            fast    ult_entry | ult_entry        ult_exit          wait       other
 *   RoC        KEEP ROC     fork    roc_sched | roc_join         return, ult_exit  wait       other
 *   RoC-L      ROC          fast    roc_sched | lend, roc_fresh  return, ult_exit  fresh_roc  roc
 *   SS         KEEP ROC SS  fork    ss | roc_join                return, ult_exit  wait       other
 *   SS-L       ROC SS       fast    ss | lend, roc_fresh         return, ult_exit  fresh_roc  roc
 *   SC         ROC SS SC    fast    sc_run, ss | lend, roc_join  return, ult_exit  fresh_sc   sc
 *   C-Full     CF KEEP      cf      cf_entry                     jump, ult_exit    wait       other
 *   C-Full-E   CF           cf      cf_entry                     jump, ult_exit    wait       other
 *   C-RoC      CF KEEP ROC  cf      cf_entry                     return, ult_exit  wait       other
 *   C-RoC-E    CF ROC       cf      cf_entry                     return, ult_exit  wait       other
 *
 * create: "fast" is weft_unit_create_fast (unit.h), the push of a unit without a stack;
 * "fork" is weft_unit_spawn_fork (create.c), which takes the stack first; "cf" is
 * weft_unit_spawn_fork then cf_spawn (create.c), the child run at once, its creator
 * queued for it (a creator that cannot be, cf_applies, gets a parent-first child, which
 * starts as its other bits say).  start: who starts a fresh unit, a predefined
 * scheduler (weft_sched_run_unit, run.c) or a joiner that bypasses it (join_run_ult and
 * the usual join, join.c), and with which entry (exit.c): weft_ult_entry, or the
 * weft_ult_entry_roc_sched, _roc_join, _roc_fresh and _ss entries ("ss" and "sc_run"
 * need a loop that can restart: a user-defined scheduler starts such units with
 * roc_sched); "sc_run" calls an SC unit on the loop's stack (run.c); "lend" calls the
 * unit on its joiner's stack (sc_lend_run, switch.h; lend.c).  exit: "return" goes back to the
 * starter (or the lender's frame) when the unit did not deviate (roc_intact); "jump" resumes the
 * creator's saved context (cf_entry); otherwise weft_ult_exit (exit.c): the hand-off to
 * the joiner, or the jump to the scheduler (a loop that started an SS unit unsaved
 * starts afresh).  join: weft_unit_join_wait (join.c) picks by weft_unit_fork_pick
 * (unit.h): join_fresh_roc and join_fresh_sc are the usual join of a fresh unit, "wait"
 * the general join_wait.  free (ABT_thread_free of a unit not seen terminated):
 * weft_thread_free_join ("roc"), weft_thread_free_join_sc ("sc"),
 * weft_thread_free_join_other ("other"), all in join.c. */
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
