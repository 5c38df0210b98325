/* src/core/stream/handoff.c - a stream whose OS thread is held, in a blocking call
 * (weft_blocking_begin/end) or by a unit that runs a whole time slice without a switch
 * (preemption: weft_pool_set_preempt, WEFT_PREEMPT), hands the rest of its work to a spare
 * OS thread.  The protocol (docs/design/stream.md, "Blocking calls" and "Preemption"):
 *
 *   xs->blk    a counter, odd while the stream's thread is inside a blocking call.  Only
 *              that thread makes it odd (begin) and even (end); the monitor may add the
 *              bit WEFT_BLK_HANDED to an odd value, with a CAS, once it handed the stream
 *              to a spare.  end's CAS from the odd value it wrote fails exactly when the
 *              monitor's CAS won: then it stops the spare.
 *   monitor    one thread, started at the first begin (or when preemption is turned on),
 *              as Go's sysmon.  Every tick it samples every stream: a stream whose odd blk
 *              did not change since the previous tick (it has been in the same call for a
 *              tick or more), or whose running unit, switch count and yield budget have
 *              not changed for its pool's time slice, and that has work waiting (a unit in
 *              a pool that several streams may pop, or a deadline in its timer queue), is
 *              handed to an idle spare.  The tick is WEFT_BLOCKING_HANDOFF_US; it doubles,
 *              up to 10 ms (a quarter of the shortest time slice under preemption), after
 *              50 ticks without a hand-off, and comes back to the minimum at a hand-off.
 *              With no preemption on and no stream in a call for 50 ms, the monitor sleeps
 *              on a futex until the next begin (begin: one load of `asleep` after its
 *              store, seq_cst on both sides, so a monitor going to sleep sees the call or
 *              the caller sees the monitor).
 *   spare      an OS thread with a stream record of its own (never in by_rank: it is not
 *              a stream of the program; it carries the served stream's rank, so units that
 *              run there see the rank they would see at home).  Handed a stream, it runs a
 *              BASIC_WAIT scheduler over that stream's main scheduler's built-in pools
 *              whose access mode allows several consumers, and, for a blocking call, fires
 *              the served stream's timer queue (xs->served, sync/timeout.c), until it is
 *              asked to stop (an EXIT request: by end, or by the monitor once the held
 *              unit switched); it stops after the unit it runs.  Idle, it sleeps on its
 *              word, capped at its own timer queue's deadline (units that parked with a
 *              deadline while it served).
 *
 * The held unit never leaves its OS thread: a hand-off only moves the other units' work,
 * and the OS shares the CPUs between the held thread and the spare.  Cost of a call that
 * returns quickly: begin stores blk (seq_cst: an xchg on x86-64) and loads `asleep`; end
 * is a CAS on the stream's own line.  Preemption costs the switch path nothing: the
 * monitor reads words the stream keeps anyway, as the watchdog does. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <weft.h>

#include "core/stream/handoff.h"
#include "core/sched/timer_hook.h"
#include "core/stream/xstream.h"
#include "core/tool/overflow.h"
#include "core/tool/sanitizer.h"
#include "core/unit/unit.h"
#include "core/wait.h"

enum { SPARE_IDLE, SPARE_ASSIGNED, SPARE_QUIT };

struct weft_spare {
    weft_xstream *xs; /* its own stream record */
    pthread_t thread;
    _Atomic uint32_t word;   /* SPARE_*: futex word; ASSIGNED by the monitor, IDLE by it */
    weft_xstream *target;    /* the stream to serve (written before ASSIGNED) */
    weft_spinlock lock;      /* stop + sched: end's stop request against the spare's start/end */
    bool stop;               /* the target came back: do not start, or stop (under lock) */
    bool timers;             /* a blocking call: fire the target's timer queue too */
    bool lost;               /* a thread of the parent, in a fork child: never joined */
    weft_sched *sched;       /* its scheduler while it serves (under lock) */
    struct weft_spare *next; /* every spare (under weft_g.lock) */
};

#define TICK_MAX_NS    10000000u /* 10 ms */
#define TICK_MIN_NS    10000u    /* the monitor never ticks faster than 10 us */
#define TICKS_AT_MIN   50u       /* ticks without a hand-off before the tick doubles */
#define SPARES_MAX     256       /* spare threads at most */
#define QUIET_SLEEP_NS 50000000u /* no stream in a call this long: the monitor sleeps */

static struct {
    pthread_mutex_t lock; /* start and stop of the monitor */
    _Atomic bool started;
    _Atomic bool quit;
    pthread_t thread;
    _Atomic uint32_t asleep;       /* futex word: 1 while the monitor sleeps without a tick */
    struct weft_spare *spares;     /* under weft_g.lock */
    int nspares;                   /* on the list (under weft_g.lock) */
    _Atomic bool preempt;          /* a time slice is set somewhere: sample the running units */
    _Atomic uint64_t preempt_tick; /* a quarter of the shortest time slice set, 0: none */
    bool warned;                   /* under lock: the monitor could not start once */
} mon = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void sleep_ns(uint64_t ns)
{
    struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
                           .tv_nsec = (long)(ns % 1000000000u) };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static bool pool_servable(const weft_pool *p)
{
    return weft_pool_can(p, WEFT_POOL_CAP_INLINE_FIFO) &&
           (p->access == ABT_POOL_ACCESS_MPMC || p->access == ABT_POOL_ACCESS_SPMC);
}

/* Serve x until its thread comes back from the call. */
static void spare_serve(struct weft_spare *sp, void *fiber)
{
    weft_xstream *xs = sp->xs, *x = sp->target;
    weft_sched *xsch = weft_atomic_load_acquire(&x->main_sched);
    ABT_pool *pools = malloc(sizeof(ABT_pool) * (size_t)(xsch->num_pools ? xsch->num_pools : 1));
    int n = 0;
    for (int i = 0; pools && i < xsch->num_pools; i++)
        if (pool_servable(xsch->pools[i]))
            pools[n++] = (ABT_pool)xsch->pools[i];
    weft_sched *s = NULL;
    if (n == 0 || weft_sched_create_predef(ABT_SCHED_BASIC_WAIT, n, pools, ABT_SCHED_CONFIG_NULL,
                                           false, &s) != ABT_SUCCESS) {
        /* no memory: the stream's units wait for the call, as without a spare; this spare
         * stays with the hand-off until end stops it, so that it is never handed a second
         * stream while the first one's end may still name it */
        free(pools);
        for (;;) {
            weft_spin_lock(&sp->lock);
            bool stop = sp->stop;
            weft_spin_unlock(&sp->lock);
            if (stop)
                return;
            sleep_ns(100000);
        }
    }
    free(pools);
    xs->rank = x->rank;
    xs->served = sp->timers ? x : NULL;
    s->use = WEFT_SCHED_MAIN;
    s->xs = xs;
    s->tsan_fiber = fiber;
    weft_atomic_store_release(&xs->main_sched, s);
    xs->sched = s;
    xs->cur = NULL;
    weft_spin_lock(&sp->lock);
    sp->sched = s;
    bool stop = sp->stop;
    weft_spin_unlock(&sp->lock);
    if (!stop)
        s->def.run((ABT_sched)s);
    weft_spin_lock(&sp->lock);
    sp->sched = NULL;
    weft_spin_unlock(&sp->lock);
    xs->served = NULL;
    xs->sched = NULL;
    weft_atomic_store_release(&xs->main_sched, NULL);
    s->use = WEFT_SCHED_UNUSED;
    s->xs = NULL;
    weft_sched_destroy(s);
    weft_mem_flush(&xs->cache); /* its caches go back to the depots while it is idle */
}

static void *spare_main(void *arg)
{
    struct weft_spare *sp = arg;
    weft_xstream *xs = sp->xs;
    weft_tls_xs = xs;
    weft_xstream_note_os_stack(xs);
    weft_overflow_thread_init();
    void *fiber = weft_tsan_fiber_current();
    for (;;) {
        uint32_t w = weft_atomic_load_acquire(&sp->word);
        if (w == SPARE_QUIT)
            break;
        if (w == SPARE_ASSIGNED) {
            spare_serve(sp, fiber);
            weft_atomic_store_release(&sp->word, SPARE_IDLE);
            continue;
        }
        /* idle: the deadlines of units that parked while it served are its own to fire */
        uint64_t next = weft_timers_poll();
        uint64_t now = weft_clock_ns();
        if (next != WEFT_NO_DEADLINE && next <= now)
            continue;
        weft_futex_wait(&sp->word, SPARE_IDLE, next == WEFT_NO_DEADLINE ? 0 : next - now);
    }
    weft_mem_flush(&xs->cache);
    weft_overflow_thread_fini();
    return NULL;
}

/* Ask a spare to stop serving (or not to start): it stops after the unit it runs. */
static void spare_stop(struct weft_spare *sp)
{
    weft_spin_lock(&sp->lock);
    sp->stop = true;
    if (sp->sched)
        weft_sched_request(sp->sched, WEFT_SCHED_REQ_EXIT);
    weft_spin_unlock(&sp->lock);
}

/* A new idle spare on the list; false without memory or a thread, or when there are
 * SPARES_MAX already (units that hold their threads beyond that wait). */
static bool spare_new(void)
{
    if (mon.nspares >= SPARES_MAX) {
        errno = EAGAIN;
        return false;
    }
    struct weft_spare *sp = calloc(1, sizeof(*sp));
    weft_xstream *xs = weft_xstream_alloc();
    if (!sp || !xs) {
        free(sp);
        free(xs);
        return false;
    }
    xs->cpubind = -1;
    xs->rank = -1;
    weft_atomic_store_relaxed(&xs->state, WEFT_XS_RUNNING);
    sp->xs = xs;
    int e = pthread_create(&sp->thread, NULL, spare_main, sp);
    if (e != 0) {
        free(xs);
        free(sp);
        errno = e;
        return false;
    }
    xs->thread = sp->thread;
    xs->thread_started = true;
    pthread_mutex_lock(&weft_g.lock);
    sp->next = mon.spares;
    mon.spares = sp;
    mon.nspares++;
    pthread_mutex_unlock(&weft_g.lock);
    return true;
}

/* Work waits for x, in a call: a unit in a pool a spare may pop, or a pending deadline
 * (with a pool a spare may pop, where the unit it wakes goes). */
static bool has_work(weft_xstream *x)
{
    weft_sched *s = weft_atomic_load_acquire(&x->main_sched);
    bool servable = false;
    for (int i = 0; s && i < s->num_pools; i++) {
        weft_pool *p = s->pools[i];
        if (!pool_servable(p))
            continue;
        if (weft_atomic_load_relaxed(&p->size) > 0)
            return true;
        servable = true;
    }
    const struct weft_timer_hook *h = weft_atomic_load_acquire(&weft_timer_hook);
    void *q = weft_atomic_load_acquire(&x->timerq);
    return servable && h && q && h->queue_next(q) != WEFT_NO_DEADLINE;
}

static struct weft_spare *idle_spare(void)
{
    for (struct weft_spare *sp = mon.spares; sp; sp = sp->next)
        if (weft_atomic_load_acquire(&sp->word) == SPARE_IDLE)
            return sp;
    return NULL;
}

struct run_sample {
    const weft_unit *cur;
    uint64_t epoch;
    int budget;
    uint16_t flags;
    uint64_t slice; /* the time slice of the unit's pool, 0: none set */
};

/* The racy reads of another stream's fields, as the watchdog's (stream/watchdog.c): the
 * words are only compared with themselves, a torn view delays a hand-off by a tick, and a
 * unit's descriptor and its pool stay mapped until ABT_finalize stops the monitor. */
__attribute__((noinline, no_sanitize("address", "thread"))) static void
sample_run(const weft_xstream *x, struct run_sample *s)
{
    const volatile weft_xstream *v = x;
    s->cur = v->cur;
    s->epoch = v->epoch;
    s->budget = v->yield_budget;
    s->flags = s->cur ? *(const volatile uint16_t *)&s->cur->flags : 0;
    const weft_pool *p = s->cur ? *(weft_pool *const volatile *)&s->cur->pool : NULL;
    s->slice = p ? *(const volatile uint64_t *)&p->preempt_ns : 0;
}

/* Preemption: x's running unit has held it for its time slice with work waiting; hand the
 * pools of `target` (x itself, or the stream that the spare x serves) to a spare until the
 * unit switches (weft_g.lock held).  1 when it handed them. */
static int preempt_check(weft_xstream *x, weft_xstream *target, uint64_t now, bool *want_spare)
{
    struct run_sample s;
    sample_run(x, &s);
    if (s.cur != x->pre_cur || s.epoch != x->pre_epoch || s.budget != x->pre_budget) {
        x->pre_cur = s.cur;
        x->pre_epoch = s.epoch;
        x->pre_budget = s.budget;
        x->pre_since = now;
        if (x->pre_spare) { /* the unit switched: x serves itself again */
            spare_stop(x->pre_spare);
            x->pre_spare = NULL;
        }
        return 0;
    }
    uint64_t slice = s.slice ? s.slice : weft_g.cfg.preempt_ns;
    if (!s.cur || x->pre_spare || !slice || (s.flags & (WEFT_U_SCHED | WEFT_U_MAIN_SCHED)) ||
        now - x->pre_since < slice || !has_work(x))
        return 0;
    struct weft_spare *sp = idle_spare();
    if (!sp) {
        *want_spare = true;
        return 0;
    }
    sp->target = target;
    sp->stop = false;
    sp->timers = false; /* the held unit may be adding a deadline to its queue right now */
    x->pre_spare = sp;
    weft_atomic_store_release(&sp->word, SPARE_ASSIGNED);
    weft_futex_wake(&sp->word, 1);
    return 1;
}

/* One look at every stream (weft_g.lock held).  *inside: streams in a call. */
static int scan(int *inside, bool *want_spare, uint64_t now)
{
    int handed = 0;
    for (int i = 0; i < weft_g.rank_cap; i++) {
        weft_xstream *x = weft_g.by_rank[i];
        if (!x)
            continue;
        uint64_t v = weft_atomic_load_seq_cst(&x->blk);
        uint64_t seen = x->blk_seen;
        x->blk_seen = v;
        if (!(v & 1)) {
            if (weft_atomic_load_relaxed(&mon.preempt))
                handed += preempt_check(x, x, now, want_spare);
            continue;
        }
        ++*inside;
        if ((v & WEFT_BLK_HANDED) || v != seen || !has_work(x))
            continue;
        struct weft_spare *sp = idle_spare();
        if (!sp) {
            *want_spare = true;
            x->blk_seen = 0; /* look again at the next tick, with a spare */
            continue;
        }
        /* everything the spare and end read is written before the CAS publishes it */
        sp->target = x;
        sp->stop = false;
        sp->timers = true;
        weft_atomic_store_relaxed(&x->spare, sp);
        if (weft_atomic_cas_strong_seq_cst(&x->blk, &v, v | WEFT_BLK_HANDED)) {
            x->blk_seen = v | WEFT_BLK_HANDED;
            weft_atomic_store_release(&sp->word, SPARE_ASSIGNED);
            weft_futex_wake(&sp->word, 1);
            handed++;
        }
    }
    /* a spare's unit may hold it too (it spins for a unit queued behind it): spares are
     * preempted as streams are; a spare that went idle lets go of the one it had handed */
    for (struct weft_spare *sp = mon.spares; sp; sp = sp->next) {
        weft_xstream *sx = sp->xs;
        if (weft_atomic_load_acquire(&sp->word) != SPARE_ASSIGNED) {
            if (sx->pre_spare) {
                spare_stop(sx->pre_spare);
                sx->pre_spare = NULL;
            }
            sx->pre_cur = NULL;
            continue;
        }
        if (weft_atomic_load_relaxed(&mon.preempt) && weft_atomic_load_acquire(&sx->main_sched))
            handed += preempt_check(sx, sp->target, now, want_spare);
    }
    return handed;
}

static bool any_inside(void)
{
    for (int i = 0; i < weft_g.rank_cap; i++) {
        weft_xstream *x = weft_g.by_rank[i];
        if (x && (weft_atomic_load_seq_cst(&x->blk) & 1))
            return true;
    }
    return false;
}

static void *monitor_main(void *arg)
{
    (void)arg;
    uint64_t min = weft_g.cfg.blocking_handoff_ns;
    if (min < TICK_MIN_NS)
        min = TICK_MIN_NS;
    uint64_t tick = min, quiet_ns = 0, max = TICK_MAX_NS;
    unsigned idle_ticks = 0;
    bool warned = false;
    while (!weft_atomic_load_acquire(&mon.quit)) {
        sleep_ns(tick);
        int inside = 0;
        bool want_spare = false;
        pthread_mutex_lock(&weft_g.lock);
        int handed = scan(&inside, &want_spare, weft_clock_ns());
        pthread_mutex_unlock(&weft_g.lock);
        if (want_spare && !spare_new() && !warned) {
            warned = true;
            weft_warn("no spare thread for a stream blocked in a call (%s): its units wait "
                      "until the call returns",
                      strerror(errno ? errno : ENOMEM));
        }
        if (handed || want_spare) {
            tick = min;
            idle_ticks = 0;
        } else if (++idle_ticks > TICKS_AT_MIN && tick < max) {
            tick = tick * 2 < max ? tick * 2 : max;
        }
        uint64_t pmax = weft_atomic_load_relaxed(&mon.preempt_tick);
        if (pmax) { /* preemption on: look at least four times per time slice, never sleep */
            max = pmax < TICK_MAX_NS ? pmax : TICK_MAX_NS;
            if (tick > max)
                tick = max;
            continue;
        }
        quiet_ns = inside ? 0 : quiet_ns + tick;
        if (quiet_ns < QUIET_SLEEP_NS)
            continue;
        /* nobody in a call for a while: sleep until a begin wakes us */
        weft_atomic_store_seq_cst(&mon.asleep, 1);
        pthread_mutex_lock(&weft_g.lock);
        bool busy = any_inside();
        pthread_mutex_unlock(&weft_g.lock);
        if (!busy)
            while (weft_atomic_load_acquire(&mon.asleep) == 1 &&
                   !weft_atomic_load_acquire(&mon.quit))
                weft_futex_wait(&mon.asleep, 1, 0);
        weft_atomic_store_seq_cst(&mon.asleep, 0);
        tick = min;
        idle_ticks = 0;
        quiet_ns = 0;
    }
    return NULL;
}

static void monitor_start(void)
{
    pthread_mutex_lock(&mon.lock);
    if (!weft_atomic_load_relaxed(&mon.started)) {
        weft_atomic_store_relaxed(&mon.quit, false);
        weft_atomic_store_relaxed(&mon.asleep, 0);
        int e = pthread_create(&mon.thread, NULL, monitor_main, NULL);
        if (e == 0)
            weft_atomic_store_release(&mon.started, true);
        else if (!mon.warned) {
            mon.warned = true;
            weft_warn("no monitor thread for blocking calls (%s): the units of a stream "
                      "blocked in a call wait until it returns",
                      strerror(e));
        }
    }
    pthread_mutex_unlock(&mon.lock);
}

WEFT_API int weft_blocking_begin(void)
{
    if (WEFT_UNLIKELY(!weft_initialized()))
        return ABT_ERR_UNINITIALIZED;
    weft_xstream *xs = weft_xs_self();
    if (!xs || xs->blocking_depth++ != 0 || xs->served || weft_g.cfg.blocking_handoff_ns == 0)
        return ABT_SUCCESS;
    if (WEFT_UNLIKELY(!weft_atomic_load_acquire(&mon.started)))
        monitor_start();
    weft_atomic_store_seq_cst(&xs->blk, weft_atomic_load_relaxed(&xs->blk) + 1);
    if (WEFT_UNLIKELY(weft_atomic_load_seq_cst(&mon.asleep) != 0) &&
        weft_atomic_exchange_seq_cst(&mon.asleep, 0) != 0)
        weft_futex_wake(&mon.asleep, 1);
    return ABT_SUCCESS;
}

/* The monitor handed the stream to a spare while its call blocked: stop the spare. */
static void end_handed(weft_xstream *xs, uint64_t v)
{
    struct weft_spare *sp = weft_atomic_load_relaxed(&xs->spare);
    /* from here the spare fires the stream's timer queue no more (sync/timeout.c checks
     * the bit under the queue's lock) */
    weft_atomic_store_seq_cst(&xs->blk, (v & ~WEFT_BLK_HANDED) + 1);
    spare_stop(sp);
}

WEFT_API int weft_blocking_end(void)
{
    if (WEFT_UNLIKELY(!weft_initialized()))
        return ABT_ERR_UNINITIALIZED;
    weft_xstream *xs = weft_xs_self();
    if (!xs)
        return ABT_SUCCESS;
    if (WEFT_UNLIKELY(xs->blocking_depth == 0))
        return ABT_ERR_INV_ARG;
    if (--xs->blocking_depth != 0)
        return ABT_SUCCESS;
    /* acquire: a HANDED bit read here publishes the monitor's spare record (scan) */
    uint64_t v = weft_atomic_load_acquire(&xs->blk);
    if (!(v & 1)) /* begin did not count the call (hand-off off, or a spare's own unit) */
        return ABT_SUCCESS;
    if (WEFT_LIKELY(!(v & WEFT_BLK_HANDED)) &&
        weft_atomic_cas_strong_seq_cst_acquire(&xs->blk, &v, v + 1))
        return ABT_SUCCESS;
    end_handed(xs, v);
    return ABT_SUCCESS;
}

void weft_blocking_finalize(void)
{
    pthread_mutex_lock(&mon.lock);
    if (weft_atomic_load_relaxed(&mon.started)) {
        weft_atomic_store_seq_cst(&mon.quit, true);
        weft_atomic_store_seq_cst(&mon.asleep, 0);
        weft_futex_wake(&mon.asleep, 1);
        pthread_join(mon.thread, NULL);
        weft_atomic_store_relaxed(&mon.started, false);
    }
    pthread_mutex_unlock(&mon.lock);
    /* spares still finishing a unit: the calling primary ULT lets its stream run meanwhile */
    pthread_mutex_lock(&weft_g.lock);
    struct weft_spare *all = mon.spares;
    mon.spares = NULL;
    mon.nspares = 0;
    pthread_mutex_unlock(&weft_g.lock);
    weft_xstream *self = weft_xs_self();
    /* the monitor stopped a preemption's spare when its unit switched: it is gone, so stop
     * them all (what they serve is the primary stream's, which runs meanwhile) */
    for (struct weft_spare *sp = all; sp; sp = sp->next)
        if (weft_atomic_load_acquire(&sp->word) == SPARE_ASSIGNED)
            spare_stop(sp);
    for (struct weft_spare *sp = all; sp; sp = sp->next)
        while (weft_atomic_load_acquire(&sp->word) == SPARE_ASSIGNED) {
            weft_ult_yield(self, self->cur);
            self = weft_xs_reload();
        }
    while (all) {
        struct weft_spare *sp = all;
        all = sp->next;
        if (!sp->lost) {
            weft_atomic_store_release(&sp->word, SPARE_QUIT);
            weft_futex_wake(&sp->word, 1);
            pthread_join(sp->thread, NULL);
        }
        free(sp->xs);
        free(sp);
    }
}

void weft_blocking_forget(weft_xstream *x)
{
    /* a spare stopped by x's end may still run the unit it started, and reads x's timer
     * queue and call word until its loop returns */
    pthread_mutex_lock(&weft_g.lock);
    for (struct weft_spare *sp = mon.spares; sp; sp = sp->next)
        if (sp->target == x && weft_atomic_load_acquire(&sp->word) == SPARE_ASSIGNED)
            spare_stop(sp); /* a preemption hand-off the monitor did not see end */
    for (struct weft_spare *sp = mon.spares; sp; sp = sp->next)
        while (sp->target == x && weft_atomic_load_acquire(&sp->word) == SPARE_ASSIGNED) {
            pthread_mutex_unlock(&weft_g.lock);
            sleep_ns(50000);
            pthread_mutex_lock(&weft_g.lock);
        }
    pthread_mutex_unlock(&weft_g.lock);
}

void weft_blocking_atfork_child(void)
{
    /* the monitor and the spares are threads of the parent: the child has none.  The
     * spares stay on the list, marked lost (never handed a stream, never joined), so that
     * finalize frees them */
    pthread_mutex_init(&mon.lock, NULL);
    weft_atomic_store_relaxed(&mon.started, false);
    weft_atomic_store_relaxed(&mon.quit, false);
    weft_atomic_store_relaxed(&mon.asleep, 0);
    for (struct weft_spare *sp = mon.spares; sp; sp = sp->next) {
        sp->lost = true;
        weft_atomic_store_relaxed(&sp->word, SPARE_QUIT);
    }
    weft_xstream *me = weft_tls_xs;
    if (me)
        me->pre_spare = NULL;
}

/* Sample the running units for time slices of ns (the shortest one sets the tick), and
 * make sure the monitor runs. */
static void preempt_on(uint64_t ns)
{
    uint64_t t = ns / 4 < TICK_MIN_NS ? TICK_MIN_NS : ns / 4;
    uint64_t cur = weft_atomic_load_relaxed(&mon.preempt_tick);
    while ((cur == 0 || t < cur) && !weft_atomic_cas_weak_relaxed(&mon.preempt_tick, &cur, t)) {
    }
    weft_atomic_store_release(&mon.preempt, true);
    if (!weft_atomic_load_acquire(&mon.started))
        monitor_start();
    if (weft_atomic_exchange_seq_cst(&mon.asleep, 0) != 0)
        weft_futex_wake(&mon.asleep, 1);
}

void weft_preempt_init(void)
{
    weft_atomic_store_relaxed(&mon.preempt, false);
    weft_atomic_store_relaxed(&mon.preempt_tick, 0);
    if (weft_g.cfg.preempt_ns)
        preempt_on(weft_g.cfg.preempt_ns);
}

WEFT_API int weft_pool_set_preempt(ABT_pool pool, unsigned int us)
{
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    if (us > WEFT_PREEMPT_MAX_US)
        return ABT_ERR_INV_ARG;
    weft_atomic_store_relaxed(&p->preempt_ns, (uint64_t)us * 1000u);
    if (us)
        preempt_on((uint64_t)us * 1000u);
    return ABT_SUCCESS;
}
