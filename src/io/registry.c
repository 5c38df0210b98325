/* src/io/registry.c - the cancellation registry (io.h): the ops of parked ULTs, keyed by
 * unit in a few locked buckets, so that ABT_thread_cancel of a unit finds its ops and asks
 * their backend to cancel them.
 *
 * An op is entered after its hand-off to the backend (op.c), so a canceller that finds an
 * op can always ask its backend to cancel it; a cancel that came between the hand-off and
 * the registration is seen in the unit's cancel request bit (read under the bucket lock,
 * which the canceller took after setting that bit).  An op leaves the registry before its
 * waiter is woken (weft_io_complete), so a canceller never touches a finished op. */
#include "io/op.h"

#include "arch/cpu.h"

#define NBUCKETS 64
static struct bucket {
    weft_spinlock lock;
    weft_io_op *head; /* lock: ops of parked ULTs */
} __attribute__((aligned(WEFT_CACHE_LINE))) reg[NBUCKETS];

void weft_io_registry_atfork_child(void)
{
    for (int i = 0; i < NBUCKETS; i++) {
        weft_atomic_store_relaxed(&reg[i].lock.v, 0);
        reg[i].head = NULL;
    }
}

static inline struct bucket *bucket_of(const weft_unit *u)
{
    return &reg[(((uintptr_t)u >> 6) * 0x9E3779B97F4A7C15ull) >> 58];
}

void weft_io_register(weft_io_op *op, weft_unit *u)
{
    struct bucket *b = bucket_of(u);
    weft_spin_lock(&b->lock);
    op->unit = u;
    op->reg_prev = NULL;
    op->reg_next = b->head;
    if (b->head)
        b->head->reg_prev = op;
    b->head = op;
    if (weft_face_unit_cancel_requested(u)) {
        weft_atomic_store_release(&op->cancel, 1);
        weft_io_be()->cancel(op);
    }
    weft_spin_unlock(&b->lock);
}

void weft_io_unregister(weft_io_op *op)
{
    weft_unit *u = op->unit;
    if (!u)
        return;
    struct bucket *b = bucket_of(u);
    weft_spin_lock(&b->lock);
    if (op->reg_prev)
        op->reg_prev->reg_next = op->reg_next;
    else
        b->head = op->reg_next;
    if (op->reg_next)
        op->reg_next->reg_prev = op->reg_prev;
    op->unit = NULL;
    weft_spin_unlock(&b->lock);
}

void weft_io_hook_cancel(weft_unit *u)
{
    struct bucket *b = bucket_of(u);
    weft_spin_lock(&b->lock);
    for (weft_io_op *op = b->head; op; op = op->reg_next) {
        if (op->unit == u && !weft_atomic_load_relaxed(&op->cancel)) {
            weft_atomic_store_release(&op->cancel, 1);
            weft_io_be()->cancel(op);
        }
    }
    weft_spin_unlock(&b->lock);
}
