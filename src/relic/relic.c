/* src/relic/relic.c - the Relic runtime: one main thread submits, one assistant runs.
 *
 * Model (include/relic.h has the contract).  A Relic is a ring (relic/ring.h), an assistant
 * pthread pinned near the creator (relic/topo.h), and three small handshakes:
 *
 *   assistant sleep   The assistant, idle, spins with `pause`; it sleeps on the futex
 *                     `asleep` when the hint is SLEEP, or when the hint is NONE and it
 *                     spun RELIC_SPIN_US.  Dekker handshake, all seq_cst:
 *                       assistant: asleep = 1; if slot[next] published || stop ||
 *                                  hint == AWAKE then asleep = 0 (do not sleep)
 *                                  else futex_wait(asleep, 1)
 *                       waker:     publish (a slot's READY, stop or hint); if asleep == 1
 *                                  and exchange(asleep, 0) == 1 then futex_wake
 *                     Either the assistant sees the waker's write, or the waker sees
 *                     asleep == 1 and wakes it: no lost wake-up.  Only a waker clears
 *                     asleep while the assistant sleeps, so it sleeps until woken.
 *                     While the hint is AWAKE the assistant never sleeps (it loads the hint
 *                     seq_cst after its store of asleep = 1, and relic_wake_up_hint wakes
 *                     it), so a submit then publishes with a plain release store and skips
 *                     the check: the owner alone writes the hint, it knows it.
 *   main wait         relic_wait first runs, itself, the tasks still READY (claiming each
 *                     with the CAS the assistant uses, in order, each after the previous
 *                     one was seen DONE: relic/ring.h); a task the assistant runs it spins
 *                     for, then after RELIC_SPIN_US sleeps:
 *                       main:      wait_target = i; waiting = 1; if slot[i] DONE(i) go on
 *                                  else futex_wait(waiting, 1)
 *                       assistant: slot[t] = DONE(t) (seq_cst); if waiting and
 *                                  t == wait_target and exchange(waiting, 0) == 1 then
 *                                  futex_wake
 *                     A task the main thread runs marks it as serving (tls_serving), so a
 *                     Relic call from inside the task is refused as from the assistant.
 *   ownership         the owner is a weft unit (a handle created by a ULT or tasklet: it
 *                     may move between streams, weft's hand-off orders its accesses) or an
 *                     OS thread (relic_init, or a handle created outside weft).  Every
 *                     submit and wait checks it: the producer side of the ring must have a
 *                     single writer.  The thread-bound Relic also remembers the unit that
 *                     opened the pending batch, so that another unit of the same stream (or
 *                     a ULT that migrated in) cannot wait for it by mistake.
 *
 * Rejected: a mutex/condition pair (a round trip of microseconds), a task queue shared by
 * both threads with work stealing (the general frameworks the paper beats), letting the
 * waiting main thread run a later task while the assistant runs an earlier one (twice the
 * throughput on a long batch, but tasks would no longer run one at a time in order, and
 * completion would need a shared counter or a scan). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <abt.h>

#include "arch/atomic.h"
#include "arch/compiler.h"
#include "arch/cpu.h"
#include "relic/ring.h"
#include "relic/topo.h"

enum { HINT_NONE, HINT_AWAKE, HINT_SLEEP };

struct relic {
    struct rl_ring ring;
    /* read by both sides on every step, written rarely */
    alignas(WEFT_CACHE_LINE) _Atomic uint32_t asleep; /* futex: 1 while the assistant sleeps */
    _Atomic uint32_t hint;                            /* HINT_*, written by the owner */
    _Atomic uint32_t stop; /* 1: the assistant exits once the ring is empty */
    /* the owner's sleeping wait */
    alignas(WEFT_CACHE_LINE) _Atomic uint32_t waiting; /* futex: 1 while the owner sleeps */
    _Atomic uint64_t wait_target;                      /* the tail the sleeping owner waits for */
    /* cold: set at creation, or owner-only */
    alignas(WEFT_CACHE_LINE) pthread_t assistant;
    struct rl_place place;
    uint64_t spin_ns;       /* bounded spin before a futex sleep (0: single CPU) */
    ABT_thread owner_unit;  /* the owning weft unit, or ABT_THREAD_NULL */
    pthread_t owner_thread; /* the owning OS thread when owner_unit is NULL */
    bool bound;             /* the Relic of relic_init (the batch is tracked) */
    bool batch_open;        /* owner-only: a submit since the last wait */
    ABT_thread batch_unit;  /* owner-only: the unit that opened the batch */
};

/* initial-exec: one %fs-relative load on the submit path (like weft's own TLS). */
static __thread struct relic *tls_relic __attribute__((tls_model("initial-exec")));
static __thread struct relic *tls_serving __attribute__((tls_model("initial-exec")));

static uint64_t spin_ns_default = 1000000;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void env_load(void)
{
    const char *s = getenv("RELIC_SPIN_US");
    if (s && *s) {
        long v = atol(s);
        spin_ns_default = v > 0 ? (uint64_t)v * 1000u : 0;
    }
}

/* The calling weft unit, ABT_THREAD_NULL outside weft (or before ABT_init). */
static inline ABT_thread self_unit(void)
{
    ABT_thread t;
    return ABT_self_get_thread(&t) == ABT_SUCCESS ? t : ABT_THREAD_NULL;
}

static inline bool is_owner(const struct relic *r)
{
    if (r->owner_unit != ABT_THREAD_NULL)
        return self_unit() == r->owner_unit;
    return pthread_equal(pthread_self(), r->owner_thread);
}

/* A spin that started at *start (0: not yet) has run out of `limit` ns.  Reads the clock
 * every 64 calls only. */
static inline bool spun_out(uint64_t *start, unsigned *n, uint64_t limit)
{
    if ((++*n & 63) != 0)
        return false;
    uint64_t now = weft_clock_ns();
    if (*start == 0) {
        *start = now;
        return limit == 0;
    }
    return now - *start >= limit;
}

/* ---- the assistant ----------------------------------------------------------------- */

/* The slot the assistant looks at holds task `next` or a later one (published, running or
 * done): not idle.  seq_cst: the load half of the sleep handshake. */
static inline bool assistant_has_work_seq_cst(struct relic *r)
{
    uint64_t next = r->ring.next;
    uint64_t w = weft_atomic_load_seq_cst(&rl_slot_of(&r->ring, next)->state);
    return w != 0 && rl_word_task(w) >= next;
}

static WEFT_COLD void assistant_sleep(struct relic *r)
{
    weft_atomic_store_seq_cst(&r->asleep, 1);
    if (assistant_has_work_seq_cst(r) || weft_atomic_load_seq_cst(&r->stop) ||
        weft_atomic_load_seq_cst(&r->hint) == HINT_AWAKE) {
        /* A waker may have cleared it already: both write 0. */
        weft_atomic_store_relaxed(&r->asleep, 0);
        return;
    }
    while (weft_atomic_load_acquire(&r->asleep) == 1)
        weft_futex_wait(&r->asleep, 1, 0);
}

/* The owner's wait sleeps: wake it if it waits for task t. */
static WEFT_COLD void notify_owner(struct relic *r, uint64_t t)
{
    if (t == weft_atomic_load_relaxed(&r->wait_target) &&
        weft_atomic_exchange_seq_cst(&r->waiting, 0) == 1)
        weft_futex_wake(&r->waiting, 1);
}

static void *assistant_main(void *p)
{
    struct relic *r = p;
    struct rl_ring *q = &r->ring;
    tls_serving = r;
    uint64_t start = 0;
    unsigned n = 0;
    /* Task next - 1 was claimed by the waiting owner and not yet seen done: the assistant
     * moved on to poll the next slot (not the owner's line, which the owner writes again
     * when it finishes), and checks it before it runs task next (one at a time). */
    bool prev_by_owner = false;
    for (;;) {
        uint64_t t = q->next;
        struct rl_slot *s = rl_slot_of(q, t);
        uint64_t w = weft_atomic_load_acquire(&s->state);
        if (w == rl_word(t, RL_READY)) {
            if (prev_by_owner) {
                struct rl_slot *ps = rl_slot_of(q, t - 1);
                while (weft_atomic_load_acquire(&ps->state) == rl_word(t - 1, RL_RUNNING))
                    weft_cpu_relax();
                prev_by_owner = false;
            }
            if (rl_ring_claim(s, t)) {
                s->fn(s->arg);
                /* seq_cst: the store half of the handshake with a sleeping waiter */
                weft_atomic_store_seq_cst(&s->state, rl_word(t, RL_DONE));
                q->next = t + 1;
                if (WEFT_UNLIKELY(weft_atomic_load_seq_cst(&r->waiting)))
                    notify_owner(r, t);
            } else { /* the waiting owner claimed it first */
                q->next = t + 1;
                prev_by_owner = true;
            }
            start = 0;
            continue;
        }
        if (w != 0 && rl_word_task(w) >= t) {
            uint64_t j = rl_word_task(w);
            if (j > t) { /* lagging: the waiting owner ran t.. (ring.h) */
                q->next = j - RL_RING_SIZE + 1;
                prev_by_owner = false;
            } else { /* DONE or RUNNING: the waiting owner has it */
                q->next = t + 1;
                prev_by_owner = (w & 3) == RL_RUNNING;
            }
            start = 0;
            continue;
        }
        if (weft_atomic_load_relaxed(&r->stop))
            break; /* stop comes after the owner's last wait */
        uint32_t h = weft_atomic_load_relaxed(&r->hint);
        if (h == HINT_SLEEP || (h == HINT_NONE && spun_out(&start, &n, r->spin_ns))) {
            assistant_sleep(r);
            start = 0;
            continue;
        }
        weft_cpu_relax();
    }
    tls_serving = NULL;
    return NULL;
}

/* Wake the assistant if it sleeps (after the caller published what it should see). */
static inline void wake_assistant(struct relic *r)
{
    if (WEFT_UNLIKELY(weft_atomic_load_seq_cst(&r->asleep) == 1) &&
        weft_atomic_exchange_seq_cst(&r->asleep, 0) == 1)
        weft_futex_wake(&r->asleep, 1);
}

/* ---- the owner's side -------------------------------------------------------------- */

static int do_create(struct relic **out, bool bound)
{
    pthread_once(&env_once, env_load);
    struct relic *r;
    if (posix_memalign((void **)&r, WEFT_CACHE_LINE, sizeof *r) != 0)
        return RELIC_ERR_MEM;
    memset(r, 0, sizeof *r);
    for (unsigned i = 0; i < RELIC_RING_SIZE; i++)
        weft_atomic_store_relaxed(&r->ring.slot[i].state, 0);
    weft_atomic_store_relaxed(&r->asleep, 0);
    weft_atomic_store_relaxed(&r->hint, HINT_NONE);
    weft_atomic_store_relaxed(&r->stop, 0);
    weft_atomic_store_relaxed(&r->waiting, 0);
    weft_atomic_store_relaxed(&r->wait_target, 0);
    r->bound = bound;
    r->owner_unit = bound ? ABT_THREAD_NULL : self_unit();
    r->owner_thread = pthread_self();
    r->batch_unit = ABT_THREAD_NULL;
    rl_place_pick(&r->place);
    r->spin_ns = r->place.single_cpu ? 0 : spin_ns_default;

    pthread_attr_t attr;
    int err = pthread_attr_init(&attr);
    if (err == 0 && r->place.cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(r->place.cpu, &set);
        err = pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    }
    if (err == 0)
        err = pthread_create(&r->assistant, &attr, assistant_main, r);
    if (err != 0 && r->place.cpu >= 0) {
        /* The CPU may have gone offline or out of our cgroup: run unpinned. */
        pthread_attr_destroy(&attr);
        pthread_attr_init(&attr);
        rl_place_release(&r->place);
        r->place.cpu = -1;
        r->place.main_cpu = -1;
        err = pthread_create(&r->assistant, &attr, assistant_main, r);
    }
    pthread_attr_destroy(&attr);
    if (err != 0) {
        rl_place_release(&r->place);
        free(r);
        return err == ENOMEM ? RELIC_ERR_MEM : RELIC_ERR_SYS;
    }
    *out = r;
    return RELIC_SUCCESS;
}

static void do_destroy(struct relic *r)
{
    weft_atomic_store_seq_cst(&r->stop, 1);
    wake_assistant(r);
    pthread_join(r->assistant, NULL);
    rl_place_release(&r->place);
    free(r);
}

/* Checks common to submit and wait on r; the batch of a thread-bound Relic included. */
static inline int check_owner(struct relic *r)
{
    if (WEFT_UNLIKELY(tls_serving != NULL))
        return RELIC_ERR_ASSISTANT;
    if (WEFT_UNLIKELY(!is_owner(r)))
        return RELIC_ERR_THREAD;
    return RELIC_SUCCESS;
}

/* Run a task in the owner's thread (a full ring, or helping in relic_wait), marked as
 * serving r so that a Relic call from inside the task is refused. */
static inline void run_here(struct relic *r, void (*fn)(void *), void *arg)
{
    tls_serving = r;
    fn(arg);
    tls_serving = NULL;
}

static inline int do_submit(struct relic *r, void (*fn)(void *), void *arg)
{
    if (r->bound && !r->batch_open) {
        r->batch_open = true;
        r->batch_unit = self_unit();
    }
    /* Owner-only writer: a relaxed load of its own hint. */
    bool awake = weft_atomic_load_relaxed(&r->hint) == HINT_AWAKE;
    if (WEFT_LIKELY(rl_ring_push(&r->ring, fn, arg, !awake))) {
        if (!awake)
            wake_assistant(r);
        return RELIC_SUCCESS;
    }
    run_here(r, fn, arg); /* full ring: run it here, never block or drop */
    return RELIC_SUCCESS;
}

/* Sleep until the assistant finished task i (it runs it). */
static WEFT_COLD void wait_sleeping(struct relic *r, struct rl_slot *s, uint64_t i)
{
    weft_atomic_store_relaxed(&r->wait_target, i);
    for (;;) {
        weft_atomic_store_seq_cst(&r->waiting, 1);
        if (weft_atomic_load_seq_cst(&s->state) == rl_word(i, RL_DONE))
            break;
        weft_futex_wait(&r->waiting, 1, 0);
    }
    weft_atomic_store_relaxed(&r->waiting, 0);
}

static inline int do_wait(struct relic *r)
{
    if (r->bound && r->batch_open) {
        if (r->batch_unit != ABT_THREAD_NULL && self_unit() != r->batch_unit)
            return RELIC_ERR_THREAD;
        r->batch_open = false;
    }
    struct rl_ring *q = &r->ring;
    uint64_t head = q->head;
    /* In order: task i is looked at once task i - 1 was seen done (ring.h). */
    for (uint64_t i = q->done_seen; i < head; i++) {
        struct rl_slot *s = rl_slot_of(q, i);
        uint64_t w = weft_atomic_load_acquire(&s->state);
        if (w == rl_word(i, RL_DONE))
            continue;
        if (w == rl_word(i, RL_READY) && rl_ring_claim(s, i)) {
            run_here(r, s->fn, s->arg); /* unclaimed: faster to run it than hand it over */
            weft_atomic_store_release(&s->state, rl_word(i, RL_DONE));
            continue;
        }
        /* The assistant runs it. */
        uint64_t start = 0;
        unsigned n = 0;
        while (weft_atomic_load_acquire(&s->state) != rl_word(i, RL_DONE)) {
            if (spun_out(&start, &n, r->spin_ns)) {
                wait_sleeping(r, s, i);
                break;
            }
            weft_cpu_relax();
        }
    }
    q->done_seen = head;
    return RELIC_SUCCESS;
}

static void set_hint(struct relic *r, uint32_t h)
{
    weft_atomic_store_seq_cst(&r->hint, h);
    if (h == HINT_AWAKE)
        wake_assistant(r);
}

/* ---- public: bound to the calling thread ------------------------------------------ */

RELIC_API int relic_init(void)
{
    if (tls_serving)
        return RELIC_ERR_ASSISTANT;
    if (tls_relic)
        return RELIC_ERR_ALREADY;
    return do_create(&tls_relic, true);
}

RELIC_API int relic_finalize(void)
{
    struct relic *r = tls_relic;
    if (tls_serving)
        return RELIC_ERR_ASSISTANT;
    if (!r)
        return RELIC_ERR_NOT_INIT;
    int err = do_wait(r);
    if (err != RELIC_SUCCESS)
        return err;
    tls_relic = NULL;
    do_destroy(r);
    return RELIC_SUCCESS;
}

RELIC_API int relic_submit(void (*fn)(void *), void *arg)
{
    struct relic *r = tls_relic;
    if (WEFT_UNLIKELY(!r || !fn || tls_serving))
        return tls_serving ? RELIC_ERR_ASSISTANT : !fn ? RELIC_ERR_INVALID : RELIC_ERR_NOT_INIT;
    return do_submit(r, fn, arg);
}

RELIC_API int relic_wait(void)
{
    struct relic *r = tls_relic;
    if (WEFT_UNLIKELY(!r || tls_serving))
        return tls_serving ? RELIC_ERR_ASSISTANT : RELIC_ERR_NOT_INIT;
    return do_wait(r);
}

RELIC_API void relic_wake_up_hint(void)
{
    if (tls_relic && !tls_serving)
        set_hint(tls_relic, HINT_AWAKE);
}

RELIC_API void relic_sleep_hint(void)
{
    if (tls_relic && !tls_serving)
        set_hint(tls_relic, HINT_SLEEP);
}

RELIC_API relic_t relic_self(void) { return tls_relic; }

/* ---- public: explicit handles ------------------------------------------------------ */

RELIC_API int relic_create(relic_t *out)
{
    if (!out)
        return RELIC_ERR_INVALID;
    *out = NULL;
    if (tls_serving)
        return RELIC_ERR_ASSISTANT;
    return do_create(out, false);
}

RELIC_API int relic_destroy(relic_t r)
{
    if (!r || r->bound)
        return RELIC_ERR_INVALID;
    int err = check_owner(r);
    if (err != RELIC_SUCCESS)
        return err;
    err = do_wait(r);
    if (err != RELIC_SUCCESS)
        return err;
    do_destroy(r);
    return RELIC_SUCCESS;
}

RELIC_API int relic_submit_on(relic_t r, void (*fn)(void *), void *arg)
{
    if (WEFT_UNLIKELY(!r || !fn))
        return RELIC_ERR_INVALID;
    int err = check_owner(r);
    if (WEFT_UNLIKELY(err != RELIC_SUCCESS))
        return err;
    return do_submit(r, fn, arg);
}

RELIC_API int relic_wait_on(relic_t r)
{
    if (WEFT_UNLIKELY(!r))
        return RELIC_ERR_INVALID;
    int err = check_owner(r);
    if (WEFT_UNLIKELY(err != RELIC_SUCCESS))
        return err;
    return do_wait(r);
}

RELIC_API void relic_wake_up_hint_on(relic_t r)
{
    if (r && !tls_serving && is_owner(r))
        set_hint(r, HINT_AWAKE);
}

RELIC_API void relic_sleep_hint_on(relic_t r)
{
    if (r && !tls_serving && is_owner(r))
        set_hint(r, HINT_SLEEP);
}

RELIC_API int relic_assistant_cpu(relic_t r) { return r ? r->place.cpu : -1; }

RELIC_API const char *relic_strerror(int err)
{
    switch (err) {
    case RELIC_SUCCESS: return "RELIC_SUCCESS";
    case RELIC_ERR_NOT_INIT: return "RELIC_ERR_NOT_INIT";
    case RELIC_ERR_ALREADY: return "RELIC_ERR_ALREADY";
    case RELIC_ERR_ASSISTANT: return "RELIC_ERR_ASSISTANT";
    case RELIC_ERR_THREAD: return "RELIC_ERR_THREAD";
    case RELIC_ERR_INVALID: return "RELIC_ERR_INVALID";
    case RELIC_ERR_MEM: return "RELIC_ERR_MEM";
    case RELIC_ERR_SYS: return "RELIC_ERR_SYS";
    default: return "unknown";
    }
}
