/* src/core/stream/atfork.c - fork() and the runtime (Argobots issue #403).
 *
 * A child of fork() has one thread: the one that called fork().  What becomes of the
 * runtime depends on who forked:
 *
 *  1. The primary ULT, running on the primary stream (the usual case: main() forks).
 *     The child keeps a working runtime with a single stream, the primary one, and the
 *     forking ULT stays its primary ULT.  Every other stream is gone: it is marked
 *     terminated and joined, so ABT_xstream_join/free on it return at once (and
 *     ABT_xstream_revive starts a new thread for it); a unit parked in ABT_xstream_join on
 *     it is woken.  Pools, schedulers and units survive as memory: ready ULTs stay in their
 *     pools and run when some stream of the child pops them (for example a new stream
 *     created over the same pool).  Lost for good are the units that were running on
 *     another stream at the instant of the fork (joining one never returns) and the
 *     timed waits that another stream's timer queue held.
 *
 *  2. Anything else while the runtime is initialized: a ULT or tasklet on another
 *     stream (or a non-primary ULT), a scheduler, an external thread.  The forking thread
 *     may be running on a ULT stack whose stream is gone and whose scheduler cannot be
 *     resumed, so the child gets no runtime: it is left uninitialized.  ABT_initialized()
 *     returns ABT_ERR_UNINITIALIZED, routines that need a runtime or a calling stream
 *     return ABT_ERR_UNINITIALIZED / ABT_ERR_INV_XSTREAM (handles from the parent must not
 *     be used), and the child may call ABT_init to start a fresh runtime.  The old
 *     runtime's memory is abandoned (kept reachable here, so leak checkers stay quiet).
 *
 * The handlers.  prepare (in the parent, before the fork) takes weft_g.lock, the lock of
 * every pool, and the descriptor and stack depot locks, so no other stream is inside one
 * of those critical sections when the address space is copied; the parent handler
 * releases them; the child re-initialises them (case 1) or drops everything (case 2).
 * Locks inside synchronization objects are not taken: an ABT_mutex or a waiter list that
 * another stream was operating on at the instant of the fork is undefined in the child,
 * as with pthread objects (POSIX fork() rules). */
#include <pthread.h>
#include <string.h>

#include "core/stream/atfork.h"
#include "core/stream/handoff.h"
#include "core/pool/pool.h"
#include "core/runtime.h"
#include "core/sched/sched.h"
#include "core/tool/stack_dump.h"
#include "core/unit/unit.h"
#include "mem/mem.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static __thread bool held; /* prepare took the locks (per forking thread) */

/* Case 2: the abandoned runtime, kept reachable (external linkage: stores to them must
 * not be optimized away as dead). */
WEFT_INTERNAL unsigned char weft_fork_orphan_global[sizeof(struct weft_global)]
    __attribute__((aligned(_Alignof(struct weft_global))));
WEFT_INTERNAL void *weft_fork_orphan_slabs, *weft_fork_orphan_arenas;

static void prepare(void)
{
    held = false;
    if (!weft_initialized())
        return;
    pthread_mutex_lock(&weft_g.lock);
    for (weft_pool *p = weft_g.pools; p; p = p->all_next)
        if (p->locked)
            weft_spin_lock(&p->lock);
    weft_desc_atfork(0, NULL);
    weft_stack_atfork(0, NULL);
    held = true;
}

static void parent(void)
{
    if (!held)
        return;
    held = false;
    weft_stack_atfork(1, NULL);
    weft_desc_atfork(1, NULL);
    for (weft_pool *p = weft_g.pools; p; p = p->all_next)
        if (p->locked)
            weft_spin_unlock(&p->lock);
    pthread_mutex_unlock(&weft_g.lock);
}

/* Case 1: the other streams' threads do not exist here. */
static void keep_primary(weft_xstream *me)
{
    me->thread = pthread_self();
    for (int i = 0; i < weft_g.rank_cap; i++) {
        weft_xstream *x = weft_g.by_rank[i];
        if (!x || x == me)
            continue;
        weft_atomic_store_relaxed(&x->state, WEFT_XS_TERMINATED);
        x->joined = true;
        x->thread_started = false;
        x->join_lock = (weft_spinlock){ 0 }; /* a lost thread may have held it */
        weft_waiter *w = x->joiner;
        x->joiner = NULL;
        if (w && w->ult) /* an external-thread joiner is gone with its thread */
            weft_waiter_wake(w);
    }
}

/* Case 2: forget the runtime; the child starts uninitialized. */
static void abandon(void)
{
    memcpy(weft_fork_orphan_global, &weft_g, sizeof(weft_g));
    weft_desc_atfork(2, &weft_fork_orphan_slabs);
    weft_stack_atfork(2, &weft_fork_orphan_arenas);
    weft_g.primary = NULL;
    weft_g.by_rank = NULL;
    weft_g.rank_cap = 0;
    weft_g.num_xstreams = 0;
    weft_g.pools = NULL;
    weft_g.scheds = NULL;
    memset(&weft_g.cfg, 0, sizeof(weft_g.cfg));
    weft_tls_xs = NULL;
    weft_atomic_store_release(&weft_g.init_count, 0);
}

static void child(void)
{
    if (!held)
        return;
    held = false;
    pthread_mutex_init(&weft_g.lock, NULL);
    for (weft_pool *p = weft_g.pools; p; p = p->all_next) {
        weft_atomic_store_relaxed(&p->lock.v, 0);
        /* the sleepers of the other streams are gone with their threads (the forking
         * primary ULT runs: its own scheduler is not asleep) */
        p->idlers = NULL;
        p->notify &= (uint8_t)~WEFT_POOL_IDLERS;
    }
    weft_sched_idle_reset(); /* a spinner, or a stream being woken, may be gone too */
    /* a pusher of another thread between its unlock and its notify's end (pool.h) is
     * gone with its thread: its hold would make ABT_finalize wait forever */
    weft_atomic_store_relaxed(&weft_pool_holds, 0);
    weft_dump_atfork_child();
    weft_blocking_atfork_child(); /* the monitor and the spares are gone too */
    weft_xstream *me = weft_tls_xs;
    if (me && me->primary && me->cur == me->main_unit) {
        weft_desc_atfork(2, NULL);
        weft_stack_atfork(2, NULL);
        keep_primary(me);
    } else {
        abandon();
    }
}

static void register_handlers(void) { pthread_atfork(prepare, parent, child); }

void weft_fork_init(void) { pthread_once(&once, register_handlers); }
