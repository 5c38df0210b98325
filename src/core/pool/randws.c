/* src/core/pool/randws.c - the built-in RANDWS pool: a deque for work stealing.
 *
 * Same intrusive list as the FIFO pools (weft_unit.next/prev, p->head/tail, p->lock
 * unless PRIV, p->size), used from both ends, as Argobots documents it:
 *   push: ULTs being created or revived (ABT_POOL_CONTEXT_OP_THREAD_CREATE[_TO],
 *         _REVIVE[_TO]) go to the head, everything else (yield, resume, ...) to the tail;
 *   pop:  the owner (any context without ABT_POOL_CONTEXT_OWNER_SECONDARY) takes the head,
 *         a thief (OWNER_SECONDARY, as the RANDWS scheduler steals) takes the tail.
 * So the owner runs the newest work first (cache-warm, depth-first) and thieves take the
 * oldest.  One spinlock guards both ends: a lock-free Chase-Lev deque would need a single
 * owner, which the pool's access modes (MPMC...) do not promise.
 * pop_wait has no sleep here (NULL op): weft_pool_pop_wait polls, like Argobots' RANDWS. */
#include "core/pool/pool.h"

#define PUSH_HEAD_OPS                                                           \
    (ABT_POOL_CONTEXT_OP_THREAD_CREATE | ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO | \
     ABT_POOL_CONTEXT_OP_THREAD_REVIVE | ABT_POOL_CONTEXT_OP_THREAD_REVIVE_TO)

static void randws_push(weft_pool *p, weft_unit *u, ABT_pool_context ctx)
{
    if (ctx & PUSH_HEAD_OPS) {
        weft_pool_push_head(p, u); /* pool.h: same list, takes the lock */
        return;
    }
    weft_pool_fifo_push(p, u); /* pool.h: the list's tail, wakes a sleeper */
}

static weft_unit *randws_pop(weft_pool *p, ABT_pool_context ctx)
{
    if (weft_atomic_load_relaxed(&p->size) == 0)
        return NULL;
    weft_pool_lock(p);
    weft_unit *u = (ctx & ABT_POOL_CONTEXT_OWNER_SECONDARY) ? p->tail : p->head;
    if (u)
        fifo_unlink(p, u);
    weft_pool_unlock(p);
    return u;
}

/* remove, take_fresh, size and print_all are the list's own (fifo.c). */
const weft_pool_ops weft_pool_randws_ops = {
    .name = "RANDWS",
    .push = randws_push,
    .pop = randws_pop,
    .pop_wait = NULL, /* polled (pool.c), as Argobots' RANDWS */
    .remove = weft_fifo_remove,
    .take_fresh = weft_fifo_take_fresh,
    .size = weft_fifo_size,
    .print_all = weft_fifo_print_all,
};
