/* src/core/pool/fifo.c - the built-in FIFO and FIFO_WAIT pools, and the list operations
 * every list-based kind shares (RANDWS uses them too).
 *
 * Units are linked through weft_unit.next/prev between p->head and p->tail (pool.h has
 * the inline link/unlink and the inlined push/pop that schedulers use); p->lock guards
 * the list unless the access mode is PRIV.  These out-of-line entries are the same
 * operations for callers that go through the ops table.
 *
 * FIFO_WAIT: pop_wait sleeps on the event count `seq` (a futex word) and a push wakes one
 * sleeper.  Sleeper and pusher follow the Dekker pattern with seq_cst operations: the
 * sleeper announces itself (nsleepers++) and re-checks `seq` inside futex_wait; the pusher
 * bumps `seq` and then reads `nsleepers` (weft_pool_signal), so a push never misses a
 * sleeper and costs no syscall when nobody sleeps. */
#include "core/handle.h"
#include "core/pool/pool.h"

static void fifo_push(weft_pool *p, weft_unit *u, ABT_pool_context ctx)
{
    weft_pool_push_ctx(p, u, ctx); /* the inline path: this pool has CAP_INLINE_FIFO */
}

static weft_unit *fifo_pop(weft_pool *p, ABT_pool_context ctx) { return weft_pool_pop_ctx(p, ctx); }

int weft_fifo_remove(weft_pool *p, weft_unit *u)
{
    int r = ABT_ERR_POOL;
    weft_pool_lock(p);
    if (u->in_pool && u->pool == p) {
        fifo_unlink(p, u);
        r = ABT_SUCCESS;
    }
    weft_pool_unlock(p);
    return r;
}

/* Join bypass and cancellation: take `u` out only if it is queued here and never ran.
 * u->ctx is read under the lock, after in_pool: a unit that is not queued may be running
 * on another stream, which writes its ctx. */
bool weft_fifo_take_fresh(weft_pool *p, weft_unit *u)
{
    bool ok = false;
    weft_pool_lock(p);
    if (u->in_pool && u->pool == p && u->ctx == NULL) {
        fifo_unlink(p, u);
        ok = true;
    }
    weft_pool_unlock(p);
    return ok;
}

size_t weft_fifo_size(weft_pool *p) { return weft_atomic_load_relaxed(&p->size); }

void weft_fifo_print_all(weft_pool *p, void *arg, void (*fn)(void *, ABT_thread))
{
    weft_pool_lock(p);
    for (weft_unit *u = p->head; u; u = u->next)
        fn(arg, weft_unit_handle(u));
    weft_pool_unlock(p);
}

void weft_pool_signal(weft_pool *p)
{
    weft_atomic_fetch_add_seq_cst(&p->seq, 1);
    if (weft_atomic_load_seq_cst(&p->nsleepers))
        weft_futex_wake(&p->seq, 1);
}

void weft_pool_seq_wake_all(weft_pool *p)
{
    weft_atomic_fetch_add_seq_cst(&p->seq, 1);
    weft_futex_wake(&p->seq, 1 << 30);
}

weft_unit *weft_pool_seq_pop_wait(weft_pool *p, uint64_t timeout_ns, ABT_pool_context ctx,
                                  weft_unit *(*pop)(weft_pool *, ABT_pool_context))
{
    uint64_t deadline = weft_clock_ns() + timeout_ns;
    for (;;) {
        uint32_t seq = weft_atomic_load_seq_cst(&p->seq);
        weft_unit *u = pop(p, ctx);
        if (u)
            return u;
        uint64_t now = weft_clock_ns();
        if (now >= deadline)
            return NULL;
        weft_atomic_fetch_add_seq_cst(&p->nsleepers, 1);
        int r = weft_futex_wait(&p->seq, seq, deadline - now);
        weft_atomic_fetch_sub_seq_cst(&p->nsleepers, 1);
        if (r == 0) /* woken: by a push, or by a stop request that wants an answer */
            return pop(p, ctx);
    }
}

static weft_unit *fifo_wait_pop_wait(weft_pool *p, uint64_t timeout_ns, ABT_pool_context ctx)
{
    return weft_pool_seq_pop_wait(p, timeout_ns, ctx, fifo_pop);
}

const weft_pool_ops weft_pool_fifo_ops = {
    .name = "FIFO",
    .push = fifo_push,
    .pop = fifo_pop,
    .pop_wait = NULL, /* polled (pool.c), as Argobots' FIFO */
    .remove = weft_fifo_remove,
    .take_fresh = weft_fifo_take_fresh,
    .size = weft_fifo_size,
    .print_all = weft_fifo_print_all,
};

const weft_pool_ops weft_pool_fifo_wait_ops = {
    .name = "FIFO_WAIT",
    .push = fifo_push,
    .pop = fifo_pop,
    .pop_wait = fifo_wait_pop_wait,
    .remove = weft_fifo_remove,
    .take_fresh = weft_fifo_take_fresh,
    .size = weft_fifo_size,
    .wake = weft_pool_seq_wake_all,
    .print_all = weft_fifo_print_all,
};
