/* src/core/sched/idle.c - what a predefined scheduler does when it finds nothing to run:
 * spin a little (at most ABT_SCHED_MAX_SPINNERS streams at a time, the Go runtime's
 * spinning threads), then sleep on its stream's idle word until a push to one of its
 * pools, a stop request, a timer deadline or another event wakes it.  A spinner whose CPU
 * a stream woken from its sleep there may be queued on moves to another CPU, or sleeps
 * (cpu_has_waking, move_off_cpu).  The protocol and why no wake-up is lost: core/sched/idle.h
 * and docs/design/sched.md ("Idle streams"). */
#define _GNU_SOURCE /* sched_getcpu */
#include <sched.h>
#include <stddef.h>

#include "core/sched/sched.h"
#include "core/sched/idle.h"
#include "core/sched/poll_hook.h"
#include "core/sched/timer_hook.h"

/* cpu_relax between two looks at the pools while spinning: 2, so that work handed over
 * from another stream starts within ~0.1 us (32, the value before, added ~0.4 us to every
 * wake-up of a spinning stream on an AMD EPYC VM: bench/sync cond_rt_2 and barrier_2;
 * the spin is bounded in time, not in looks, so its CPU cost is the same). */
#define IDLE_RELAX 2

/* A stream leaves a CPU for another (move_off_cpu) at most once per this many ns. */
#define IDLE_MOVE_GAP_NS 1000000u

static bool spinner_enter(void)
{
    int n = weft_atomic_load_relaxed(&weft_g.idle_spinners);
    int max = (int)weft_g.cfg.sched_max_spinners;
    while (n < max)
        if (weft_atomic_cas_weak_acq_rel(&weft_g.idle_spinners, &n, n + 1))
            return true;
    return false;
}

void weft_sched_idle_reset(void)
{
    weft_atomic_store_relaxed(&weft_g.idle_spinners, 0);
    for (int i = 0; i < WEFT_IDLE_CPU_SLOTS; i++)
        weft_atomic_store_relaxed(&weft_g.idle_waking[i], 0);
}

static _Atomic int *waking_slot(int cpu) { return &weft_g.idle_waking[cpu % WEFT_IDLE_CPU_SLOTS]; }

void weft_idle_woken(_Atomic uint32_t *word)
{
    weft_xstream *xs = (weft_xstream *)((char *)word - offsetof(weft_xstream, idle));
    int cpu = weft_atomic_load_relaxed(&xs->idle_cpu); /* written before SLEEPING was */
    if (cpu >= 0)
        weft_atomic_fetch_add_relaxed(waking_slot(cpu), 1);
}

/* A spinner on `cpu` whose CPU a stream woken from its sleep there may be waiting for. */
static bool cpu_has_waking(int cpu)
{
    return cpu >= 0 && weft_atomic_load_relaxed(waking_slot(cpu)) > 0;
}

/* The stream spins on st->cpu, where a stream woken from its sleep there may wait to
 * run: move to another CPU of the thread's set (narrow the set, then restore it: the
 * kernel leaves the thread where it went).  Not for a bound stream (ABT_SET_AFFINITY,
 * ABT_xstream_set_cpubind/_affinity: weft_g.lock orders us against those), not more than
 * once per IDLE_MOVE_GAP_NS.  True if it now spins on another CPU. */
static bool move_off_cpu(weft_xstream *xs, weft_sched_idle_state *st)
{
    uint64_t now = weft_clock_ns();
    if (xs->idle_moved_ns && now - xs->idle_moved_ns < IDLE_MOVE_GAP_NS)
        return false;
    xs->idle_moved_ns = now;
    if (pthread_mutex_trylock(&weft_g.lock) != 0)
        return false;
    bool moved = false;
    cpu_set_t all, other;
    if (!weft_g.cfg.set_affinity && xs->cpubind < 0 && xs->num_affinity == 0 &&
        sched_getaffinity(0, sizeof(all), &all) == 0 && CPU_ISSET(st->cpu, &all)) {
        other = all;
        CPU_CLR(st->cpu, &other);
        if (CPU_COUNT(&other) > 0 && sched_setaffinity(0, sizeof(other), &other) == 0) {
            (void)sched_setaffinity(0, sizeof(all), &all);
            int cpu = sched_getcpu();
            moved = cpu != st->cpu;
            st->cpu = cpu;
        }
    }
    pthread_mutex_unlock(&weft_g.lock);
    return moved;
}

void weft_sched_idle_end(weft_sched_idle_state *st)
{
    if (st->phase == WEFT_IDLE_SPINNING)
        weft_atomic_fetch_sub_release(&weft_g.idle_spinners, 1);
    st->phase = WEFT_IDLE_NONE;
    st->nap_ns = 0;
}

/* Register on every pool that wakes sleepers, look at the pools once more, sleep on
 * xs->idle up to timeout_ns (0: no limit).  True if the stream was notified or saw work,
 * false after a time-out (or a spurious return) with nothing found. */
static bool idle_sleep(weft_xstream *xs, weft_sched *s, uint64_t timeout_ns)
{
    int cpu = sched_getcpu(); /* published by the exchange below (weft_idle_woken) */
    weft_atomic_store_relaxed(&xs->idle_cpu, cpu);
    if (weft_atomic_exchange_seq_cst(&xs->idle, WEFT_IDLE_SLEEPING) == WEFT_IDLE_NOTIFIED) {
        weft_atomic_store_seq_cst(&xs->idle, WEFT_IDLE_AWAKE);
        return true; /* an event came since the loop last looked */
    }
    for (int i = 0; i < s->num_pools; i++) {
        if (s->pools[i]->caps & WEFT_POOL_CAP_IDLE_WAKE) {
            s->idle_nodes[i].word = &xs->idle;
            weft_pool_idle_add(s->pools[i], &s->idle_nodes[i]);
        }
    }
    /* a push made before the registration did not see it: look again (after it) */
    bool work = false;
    for (int i = 0; i < s->num_pools && !work; i++)
        work = !weft_pool_is_empty(s->pools[i]);
    if (!work && !weft_poll_hooks_sleep(&xs->idle, timeout_ns)) /* io_uring sleeps in its ring */
        weft_futex_wait(&xs->idle, WEFT_IDLE_SLEEPING, timeout_ns);
    bool notified = weft_atomic_exchange_seq_cst(&xs->idle, WEFT_IDLE_AWAKE) == WEFT_IDLE_NOTIFIED;
    if (notified && cpu >= 0) /* it went SLEEPING -> NOTIFIED: weft_idle_woken counted it */
        weft_atomic_fetch_sub_relaxed(waking_slot(cpu), 1);
    for (int i = 0; i < s->num_pools; i++)
        if (s->pools[i]->caps & WEFT_POOL_CAP_IDLE_WAKE)
            weft_pool_idle_del(s->pools[i], &s->idle_nodes[i]);
    return notified || work;
}

void weft_sched_idle(weft_xstream *xs, weft_sched *s, weft_sched_idle_state *st, bool no_spin)
{
    if (st->phase == WEFT_IDLE_NONE) {
        st->phase = WEFT_IDLE_SLEEPY;
        uint64_t spin = weft_g.cfg.sched_spin_nsec;
        if (!no_spin && spin) {
            if (spinner_enter()) {
                st->phase = WEFT_IDLE_SPINNING;
            } else {
                /* every place taken: a short spin, not counted, then sleep */
                st->phase = WEFT_IDLE_SHORT;
                if (spin > WEFT_IDLE_SHORT_SPIN_NS)
                    spin = WEFT_IDLE_SHORT_SPIN_NS;
            }
            st->spin_end = weft_clock_ns() + spin;
            st->cpu = sched_getcpu();
            return;
        }
    }
    if (st->phase == WEFT_IDLE_SPINNING || st->phase == WEFT_IDLE_SHORT) {
        if (weft_clock_ns() < st->spin_end && (!cpu_has_waking(st->cpu) || move_off_cpu(xs, st))) {
            for (int i = 0; i < IDLE_RELAX; i++)
                weft_cpu_relax();
            return;
        }
        if (st->phase == WEFT_IDLE_SPINNING)
            weft_atomic_fetch_sub_release(&weft_g.idle_spinners, 1);
        st->phase = WEFT_IDLE_SLEEPY;
    }
    /* Sleep without a bound only as a main scheduler whose pools all wake sleepers and
     * with no request pending.  Not signalled: a stacked scheduler's stop condition, a
     * user pool's push, and the end of a FINISH request's wait for blocked units (a
     * blocked unit may leave the pool's count without a push into it: migration).  Those
     * nap, 50 us at first, doubling up to WEFT_IDLE_NAP_MAX_NS. */
    uint64_t max = UINT64_MAX;
    if (!s->idle_forever || s->use != WEFT_SCHED_MAIN ||
        weft_atomic_load_relaxed(&s->request) != WEFT_SCHED_REQ_NONE) {
        st->nap_ns = st->nap_ns ? st->nap_ns * 2 : WEFT_IDLE_NAP_MIN_NS;
        if (st->nap_ns > WEFT_IDLE_NAP_MAX_NS)
            st->nap_ns = WEFT_IDLE_NAP_MAX_NS;
        max = st->nap_ns;
    }
    uint64_t b = weft_poll_hooks_idle_ns(); /* completions in flight (core/sched/poll_hook.h) */
    if (b == 0) { /* a hook expects a completion any moment: poll again, do not sleep */
        for (int i = 0; i < IDLE_RELAX; i++)
            weft_cpu_relax();
        return;
    }
    uint64_t t = weft_timers_cap(max, weft_timers_next()); /* wake for the next deadline */
    if (b < t)
        t = b;
    if (idle_sleep(xs, s, t == UINT64_MAX ? 0 : t))
        st->phase = WEFT_IDLE_NONE; /* woken for something: it may spin again */
}
