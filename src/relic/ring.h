/* src/relic/ring.h - the single-producer single-consumer task ring between a Relic's main
 * thread (the producer, the only one that pushes) and its assistant (the consumer, the only
 * one that pops and runs).  All inline: a push and a pop are a handful of instructions.
 *
 * Layout.  `head` (next slot to fill) is written only by the producer and `tail` (next slot
 * to run) only by the consumer; each sits on its own cache line next to the writer's
 * private copy of the other index (`tail_seen`, `head_seen`), so a side touches the other's
 * line only when its copy says "full" (producer) or "empty" (consumer).  The slots follow on
 * their own lines.  Indices count up without wrapping (64 bits), slot = index % size.
 *
 * Protocol.
 *   push: write slot[head], then store head+1 (seq_cst: a release that publishes the slot,
 *         and the store half of the Dekker handshake with a sleeping assistant, relic.c).
 *   pop:  load head (acquire) when the private copy says empty, read slot[tail], run it,
 *         then store tail+1 (seq_cst: a release that publishes what the task wrote, and the
 *         store half of the handshake with a sleeping waiter).  The slot is free for the
 *         producer only after the task ran, so `tail` also counts finished tasks: the
 *         producer's wait is "tail == head".
 * Why not a flag per slot (FastForward): the completion count `tail` is needed anyway for
 * relic_wait, and the issue asks for indices on separate lines. */
#ifndef RELIC_RING_H
#define RELIC_RING_H

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>

#include "arch/atomic.h"
#include "arch/cpu.h"
#include "relic.h"

#define RL_RING_MASK ((uint64_t)RELIC_RING_SIZE - 1)
_Static_assert((RELIC_RING_SIZE & (RELIC_RING_SIZE - 1)) == 0, "ring size: a power of two");

struct rl_task {
    void (*fn)(void *);
    void *arg;
};

struct rl_ring {
    /* producer line: head is written by the producer, read by the consumer */
    alignas(WEFT_CACHE_LINE) _Atomic uint64_t head;
    uint64_t tail_seen; /* producer-private: a lower bound of tail */
    /* consumer line: tail is written by the consumer, read by the producer */
    alignas(WEFT_CACHE_LINE) _Atomic uint64_t tail;
    uint64_t head_seen; /* consumer-private: a lower bound of head */
    alignas(WEFT_CACHE_LINE) struct rl_task slot[RELIC_RING_SIZE];
};

/* Producer: append a task; false when the ring is full (the caller runs it inline). */
static inline bool rl_ring_push(struct rl_ring *q, void (*fn)(void *), void *arg)
{
    uint64_t h = weft_atomic_load_relaxed(&q->head); /* our own index */
    if (WEFT_UNLIKELY(h - q->tail_seen >= RELIC_RING_SIZE)) {
        q->tail_seen = weft_atomic_load_acquire(&q->tail); /* the slot's task has run */
        if (h - q->tail_seen >= RELIC_RING_SIZE)
            return false;
    }
    q->slot[h & RL_RING_MASK].fn = fn;
    q->slot[h & RL_RING_MASK].arg = arg;
    weft_atomic_store_seq_cst(&q->head, h + 1);
    return true;
}

/* Producer: the count of tasks pushed so far (the target of a wait). */
static inline uint64_t rl_ring_pushed(struct rl_ring *q)
{
    return weft_atomic_load_relaxed(&q->head);
}

/* Consumer: run the oldest task, then publish its completion.  Returns the new tail, or 0
 * when the ring is empty (tail is never 0 after a task ran). */
static inline uint64_t rl_ring_run_one(struct rl_ring *q)
{
    uint64_t t = weft_atomic_load_relaxed(&q->tail); /* our own index */
    if (t == q->head_seen) {
        q->head_seen = weft_atomic_load_acquire(&q->head);
        if (t == q->head_seen)
            return 0;
    }
    struct rl_task task = q->slot[t & RL_RING_MASK];
    task.fn(task.arg);
    weft_atomic_store_seq_cst(&q->tail, t + 1);
    return t + 1;
}

/* Either side: the ring holds a task not yet finished (seq_cst loads: the load half of the
 * sleep handshakes in relic.c). */
static inline bool rl_ring_busy_seq_cst(struct rl_ring *q)
{
    return weft_atomic_load_seq_cst(&q->head) != weft_atomic_load_seq_cst(&q->tail);
}

#endif
