/* src/core/sched/idle.c - what a predefined scheduler does when it finds nothing to run:
 * spin a little (at most ABT_SCHED_MAX_SPINNERS streams at a time, the Go runtime's
 * spinning threads), then sleep on its stream's idle word until a push to one of its
 * pools, a stop request, a timer deadline or another event wakes it.  The protocol and
 * why no wake-up is lost: core/idle.h and docs/architecture.md ("Idle streams"). */
#include "core/sched/sched.h"
#include "core/poll_hook.h"
#include "core/timer_hook.h"

/* cpu_relax between two looks at the pools while spinning: 2, so that work handed over
 * from another stream starts within ~0.1 us (32, the value before, added ~0.4 us to every
 * wake-up of a spinning stream on an AMD EPYC VM: bench/sync cond_rt_2 and barrier_2;
 * the spin is bounded in time, not in looks, so its CPU cost is the same). */
#define IDLE_RELAX 2

static bool spinner_enter(void)
{
    int n = weft_atomic_load_relaxed(&weft_g.idle_spinners);
    int max = (int)weft_g.cfg.sched_max_spinners;
    while (n < max)
        if (weft_atomic_cas_weak_acq_rel(&weft_g.idle_spinners, &n, n + 1))
            return true;
    return false;
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
            return;
        }
    }
    if (st->phase == WEFT_IDLE_SPINNING || st->phase == WEFT_IDLE_SHORT) {
        if (weft_clock_ns() < st->spin_end) {
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
    uint64_t b = weft_poll_hooks_idle_ns(); /* completions in flight (core/poll_hook.h) */
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
