/* src/core/sched/randws.c - the predefined RANDWS scheduler: random work stealing.
 *
 * Pool 0 is the scheduler's own: it pops it as the owner (ABT_POOL_CONTEXT_OWNER_PRIMARY).
 * When pool 0 is empty it picks one of the other pools at random and pops it as a thief
 * (ABT_POOL_CONTEXT_OWNER_SECONDARY, which a RANDWS pool serves from its tail, the oldest
 * work).  The usual set-up gives each stream a RANDWS scheduler whose pool list starts
 * with its own pool followed by the others'.  One steal attempt per round keeps the cost
 * of an idle round bounded; the victim changes every round.  Stop requests and idling: the
 * loop of loop.h, whose private xorshift state picks the victim (nothing shared between
 * streams). */
#include "core/sched/loop.h"

static inline weft_unit *pick_steal(weft_sched *s, uint32_t *rng)
{
    if (s->num_pools == 0)
        return NULL;
    weft_unit *u = weft_pool_pop_ctx(s->pools[0], ABT_POOL_CONTEXT_OWNER_PRIMARY);
    if (!u && s->num_pools > 1) {
        int victim = s->num_pools == 2
                         ? 1
                         : 1 + (int)(weft_sched_rng_next(rng) % (uint32_t)(s->num_pools - 1));
        u = weft_pool_pop_ctx(s->pools[victim], ABT_POOL_CONTEXT_OWNER_SECONDARY);
    }
    return u;
}

WEFT_SCHED_LOOP_DEFINE(weft_sched_randws_run, pick_steal, false)
