/* src/relic/ring.h - the task ring of a Relic: one producer (the main thread, the only one
 * that pushes) and two consumers (the assistant, and the main thread inside relic_wait),
 * which run the tasks one at a time in submission order.  All inline.
 *
 * Layout.  Each slot is one cache line holding the task (fn, arg) and its state word, so
 * a hand-off touches one shared line: the producer fills the slot and publishes it with
 * the state word (the line the idle assistant polls), the consumer claims and completes it
 * in the same word, and the producer's wait reads the same line.  The indices are private:
 * `head` (tasks pushed) and `done_seen` (a lower bound of tasks finished) belong to the
 * producer, `next` (the next task to run) to the assistant.  Indices count up without
 * wrapping (64 bits); task i lives in slot[i % size].
 *
 * State word of the slot holding task i: ((i + 1) << 2) | st, st one of
 *   RL_READY    published, not yet claimed
 *   RL_RUNNING  claimed by one consumer (CAS READY -> RUNNING), running
 *   RL_DONE     finished (a release store after the task ran)
 * 0 (the initial word) reads as "task -1, done".  A slot is free for task i when it holds
 * task i - size done.
 *
 * Protocol.
 *   push i:   (the producer knows task i - size is done: done_seen > i - size, else it
 *             loads slot[i].state) write fn and arg, then store READY(i) (release; seq_cst
 *             when the assistant may be asleep: the store half of relic.c's handshake).
 *   claim i:  only after task i - 1 was seen DONE (the assistant: it ran it or loaded
 *             DONE(i - 1); the waiting producer: it scans from done_seen upwards), CAS
 *             READY(i) -> RUNNING(i) (acquire).  So tasks run one at a time in submission
 *             order, each after the previous finished (DONE is a release, every claim an
 *             acquire after seeing it): whichever thread runs them, they are ordered.
 *   complete: store DONE(i) (release; the assistant's is seq_cst, the store half of the
 *             handshake with a sleeping waiter).
 *   lagging:  the assistant at `next` that finds its slot holding a later task j (the
 *             producer ran next.. itself and the ring wrapped) knows task j - size is done,
 *             hence every task before it: it moves on to j - size + 1.
 * The producer's wait: every task below head done, i.e. slot[head - 1] holds DONE(head - 1)
 * (tasks finish in order).  Cost of a hand-off to the assistant: one line moving to the
 * assistant and back; of a task the waiting producer claims itself: one CAS on a line it
 * wrote last (it waits for the invalidation of the assistant's copy, no transfer). */
#ifndef RELIC_RING_H
#define RELIC_RING_H

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>

#include "arch/atomic.h"
#include "arch/cpu.h"
#include "relic.h"

#define RL_RING_SIZE ((uint64_t)RELIC_RING_SIZE)
#define RL_RING_MASK (RL_RING_SIZE - 1)
_Static_assert((RELIC_RING_SIZE & (RELIC_RING_SIZE - 1)) == 0, "ring size: a power of two");

enum { RL_READY = 1, RL_RUNNING = 2, RL_DONE = 3 };

static inline uint64_t rl_word(uint64_t i, unsigned st) { return ((i + 1) << 2) | st; }

/* The task index a state word holds (UINT64_MAX, i.e. -1, for the initial 0). */
static inline uint64_t rl_word_task(uint64_t w) { return (w >> 2) - 1; }

struct rl_slot {
    alignas(WEFT_CACHE_LINE) _Atomic uint64_t state;
    void (*fn)(void *);
    void *arg;
};

struct rl_ring {
    /* producer-private */
    alignas(WEFT_CACHE_LINE) uint64_t head; /* tasks pushed */
    uint64_t done_seen;                     /* a lower bound of the tasks finished */
    /* assistant-private */
    alignas(WEFT_CACHE_LINE) uint64_t next; /* the next task the assistant runs */
    struct rl_slot slot[RELIC_RING_SIZE];
};

static inline struct rl_slot *rl_slot_of(struct rl_ring *q, uint64_t i)
{
    return &q->slot[i & RL_RING_MASK];
}

/* Producer: append a task; false when the ring is full (the caller runs it inline).
 * seq_cst: publish with a seq_cst store (a sleeping assistant may need waking). */
static inline bool rl_ring_push(struct rl_ring *q, void (*fn)(void *), void *arg, bool seq_cst)
{
    uint64_t h = q->head;
    struct rl_slot *s = rl_slot_of(q, h);
    if (WEFT_UNLIKELY(h - q->done_seen >= RL_RING_SIZE)) {
        /* Free when it holds task h - size done; tasks finish in order. */
        if (weft_atomic_load_acquire(&s->state) != rl_word(h - RL_RING_SIZE, RL_DONE))
            return false;
        q->done_seen = h - RL_RING_SIZE + 1;
    }
    s->fn = fn;
    s->arg = arg;
    if (seq_cst)
        weft_atomic_store_seq_cst(&s->state, rl_word(h, RL_READY));
    else
        weft_atomic_store_release(&s->state, rl_word(h, RL_READY));
    q->head = h + 1;
    return true;
}

/* Either consumer: claim task i, published in s (READY seen or expected). */
static inline bool rl_ring_claim(struct rl_slot *s, uint64_t i)
{
    uint64_t w = rl_word(i, RL_READY);
    return weft_atomic_cas_strong_acquire(&s->state, &w, rl_word(i, RL_RUNNING));
}

#endif
