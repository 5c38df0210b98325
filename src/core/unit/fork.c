/* src/core/unit/fork.c - the fork-join techniques: names, WEFT_FORK, the attribute calls.
 * What each technique does at run time is tabled in fork.h, with its bits. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/unit/fork.h"
#include "core/handle.h"
#include "core/api/thread_attr.h"

static const struct {
    const char *name, *env;
    uint16_t bits;
} techniques[] = {
    [WEFT_FORK_FULL] = { "Full", "full", WEFT_U_F_KEEP },
    [WEFT_FORK_FULL_L] = { "Full-L", "full-l", 0 },
    [WEFT_FORK_ROC] = { "RoC", "roc", WEFT_U_F_KEEP | WEFT_U_F_ROC },
    [WEFT_FORK_ROC_L] = { "RoC-L", "roc-l", WEFT_U_F_ROC },
    [WEFT_FORK_SS] = { "SS", "ss", WEFT_U_F_KEEP | WEFT_U_F_ROC | WEFT_U_F_SS },
    [WEFT_FORK_SS_L] = { "SS-L", "ss-l", WEFT_U_F_ROC | WEFT_U_F_SS },
    [WEFT_FORK_SC] = { "SC", "sc", WEFT_U_F_ROC | WEFT_U_F_SS | WEFT_U_F_SC },
    [WEFT_FORK_C_FULL] = { "C-Full", "c-full", WEFT_U_F_CF | WEFT_U_F_KEEP },
    [WEFT_FORK_C_FULL_E] = { "C-Full-E", "c-full-e", WEFT_U_F_CF },
    [WEFT_FORK_C_ROC] = { "C-RoC", "c-roc", WEFT_U_F_CF | WEFT_U_F_KEEP | WEFT_U_F_ROC },
    [WEFT_FORK_C_ROC_E] = { "C-RoC-E", "c-roc-e", WEFT_U_F_CF | WEFT_U_F_ROC },
};
/* ABT_thread_free picks an SC unit's path, and a RoC-L or SS-L one's, by these flags
 * (unit.h, WEFT_U_FORK_PICK) */
_Static_assert(((WEFT_U_ULT | WEFT_U_F_ROC | WEFT_U_F_SS | WEFT_U_F_SC) & WEFT_U_FORK_PICK) ==
                   WEFT_U_PICK_SC,
               "the SC technique's flags and WEFT_U_PICK_SC differ");
_Static_assert(((WEFT_U_ULT | WEFT_U_F_ROC | WEFT_U_F_SS) & WEFT_U_FORK_PICK) == WEFT_U_PICK_ROC_L,
               "the SS-L technique's flags do not pick RoC-L's paths");
#define NUM_TECHNIQUES ((int)(sizeof(techniques) / sizeof(*techniques)))

static bool valid(int f) { return f > WEFT_FORK_DEFAULT && f < NUM_TECHNIQUES; }

uint16_t weft_fork_flags(weft_fork_t f)
{
    return (uint16_t)(techniques[f].bits | ((unsigned)f << WEFT_U_FORK_SHIFT));
}

const char *weft_fork_name(weft_fork_t f)
{
    return valid((int)f) ? techniques[f].name : "none (tasklet)";
}

int weft_fork_config(const char *env, uint16_t *flags)
{
    *flags = weft_fork_flags(WEFT_FORK_ROC_L);
    if (!env)
        return ABT_SUCCESS;
    for (int f = WEFT_FORK_DEFAULT + 1; f < NUM_TECHNIQUES; f++) {
        if (!strcasecmp(env, techniques[f].env)) {
            *flags = weft_fork_flags((weft_fork_t)f);
            return ABT_SUCCESS;
        }
    }
    fprintf(stderr,
            "weft: WEFT_FORK=\"%s\" is not a fork-join technique; use full, full-l, roc, "
            "roc-l (the default), ss, ss-l, sc, c-full, c-full-e, c-roc or c-roc-e "
            "(ABT_init fails with ABT_ERR_INV_ARG).\n",
            env);
    return ABT_ERR_INV_ARG;
}

WEFT_API int weft_thread_attr_set_fork(ABT_thread_attr attr, weft_fork_t fork)
{
    struct weft_thread_attr *a = weft_thread_attr_from(attr);
    if (!a)
        return ABT_ERR_INV_THREAD_ATTR;
    if (fork != WEFT_FORK_DEFAULT && !valid((int)fork))
        return ABT_ERR_INV_ARG;
    a->fork = fork;
    a->fork_flags = fork != WEFT_FORK_DEFAULT ? weft_fork_flags(fork) : 0;
    return ABT_SUCCESS;
}

WEFT_API int weft_thread_attr_get_fork(ABT_thread_attr attr, weft_fork_t *fork)
{
    struct weft_thread_attr *a = weft_thread_attr_from(attr);
    if (!a)
        return ABT_ERR_INV_THREAD_ATTR;
    if (!fork)
        return ABT_ERR_INV_ARG;
    *fork = a->fork;
    return ABT_SUCCESS;
}

WEFT_API int weft_thread_get_fork(ABT_thread thread, weft_fork_t *fork)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!fork)
        return ABT_ERR_INV_ARG;
    *fork = (u->flags & WEFT_U_ULT) ? weft_fork_of(u->flags) : WEFT_FORK_DEFAULT;
    return ABT_SUCCESS;
}
