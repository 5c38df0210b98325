/* src/omp/barrier.c - waiting in a team: the barrier, parking, cancellation.
 *
 * Barrier protocol.  bar_arrived counts arrivals, bar_gen is the generation.  A thread
 * reads gen, then increments bar_arrived.  The barrier completes when all nthreads
 * arrived and the team has no unfinished explicit task (ntasks == 0): whoever sees that
 * first wins the CAS bar_arrived n -> 0 (exactly one thread), reclaims the worksharing
 * chain (every thread is in the barrier, so every construct before it is over), records
 * the cancellation snapshot, and publishes gen + 1 (release).  Waiters return when gen
 * moved.  While they wait they run queued tasks, spin g_env.spin times (GOMP_SPINCOUNT,
 * OMP_WAIT_POLICY; yielding the ULT every 1024 spins, so ULTs that share a stream go on),
 * then park on the team's ABT_cond: the ULT leaves its stream, which runs other ULTs or
 * sleeps.
 *
 * Parking (wo_team_park / wo_team_wake): the waiter increments nsleep (an RMW) under
 * the team mutex and re-checks its condition before ABT_cond_wait; a waker publishes its
 * event, then reads nsleep with an RMW (fetch_add 0) and, if not 0, broadcasts under the
 * mutex.  The two RMWs are ordered in nsleep's modification order: if the waker's comes
 * later it sees the sleeper, and its broadcast comes after the waiter is in cond_wait
 * (the mutex orders them); if earlier, the waiter's increment reads from it and so sees
 * the event in its re-check.  Events: barrier release, a task queued, a task finished
 * (taskwait, taskgroup), ordered/doacross progress, copyprivate data, cancellation, a
 * detached task's event.
 *
 * Cancellation (OMP_CANCELLATION=true only): team->cancelled holds GOMP_CANCEL_* bits.
 * A cancelled parallel releases every barrier wait at once, discards queued tasks, and
 * the region's end skips its barrier (team_end waits for the workers and tasks). */
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "omp/rt.h"

enum { CANCEL_PARALLEL = 1, CANCEL_LOOP = 2, CANCEL_SECTIONS = 4, CANCEL_TASKGROUP = 8 };

struct park_arg {
    bool (*ready)(void *);
    void *arg;
};

void wo_team_park(wo_team *t, bool (*ready)(void *), void *arg)
{
    struct wo_tls_swap *s = wo_off_cpu();
    ABT_mutex_lock(t->mtx);
    weft_atomic_fetch_add_seq_cst(&t->nsleep, 1);
    if (!ready(arg))
        ABT_cond_wait(t->cond, t->mtx);
    weft_atomic_fetch_sub_seq_cst(&t->nsleep, 1);
    ABT_mutex_unlock(t->mtx);
    wo_on_cpu(s);
}

/* Help-first, one step of a wait (see parallel.c): whether a stand-in was started.
 * *since: when an unstarted share was first seen (0: none seen), *rank: the caller's
 * stream (-1: not asked yet).  Costs a scan of the team's docks, and a clock read only
 * while some share of another stream is unstarted. */
static bool help_step(wo_thr *me, uint64_t *since, int *rank)
{
    wo_team *t = me->team;
    if (*rank < 0 && ABT_self_get_xstream_rank(rank) != ABT_SUCCESS)
        return false;
    if (!wo_team_unstarted(t, *rank)) {
        *since = 0;
        return false;
    }
    uint64_t now = weft_clock_ns();
    if (*since == 0) {
        *since = now;
        return false;
    }
    if (now - *since < wo_help_ns)
        return false;
    *since = 0;
    return wo_team_help(me, *rank);
}

struct wait_arg {
    bool (*ready)(void *);
    void *arg;
    wo_team *t;
};

static bool ready_or_tasks(void *a)
{
    struct wait_arg *w = a;
    return w->ready(w->arg) || wo_tasks_queued(w->t);
}

void wo_wait(wo_thr *me, bool (*ready)(void *), void *arg, bool run_tasks, wo_task *parent,
             wo_taskgroup *group)
{
    wo_team *t = me->team;
    if (!t) { /* an initial thread (no team to park on): only a detached task's event */
        while (!ready(arg))
            if (wo_yield() != ABT_SUCCESS)
                sched_yield();
        return;
    }
    uint64_t spin = g_env.spin;
    struct wait_arg w = { ready, arg, t };
    /* The pool this ULT returns to: while others wait in it (threads of another team
     * placed on this stream, ULTs of the program), spinning would hold them up. */
    ABT_pool pool = ABT_POOL_NULL;
    bool ult = ABT_self_get_last_pool(&pool) == ABT_SUCCESS && pool != ABT_POOL_NULL;
    /* help-first: a team of several threads, on weft-omp's own streams */
    bool helps = ult && t->nthreads > 1 && wo_help_ns != UINT64_MAX;
    uint64_t since = 0;
    int rank = -1;
    for (;;) {
        for (uint64_t i = 0;; i++) {
            if (ready(arg))
                return;
            if (run_tasks && wo_task_run_one(me, parent, group)) {
                i = 0;
                continue;
            }
            if (helps && ((i & 15) == 15 || i >= spin) && help_step(me, &since, &rank)) {
                i = 0; /* its stand-in is in this stream's pool: the yield below runs it */
                ABT_thread_yield();
                continue;
            }
            if (i >= spin && since == 0)
                break; /* park (not while a share waits for its help time) */
            weft_cpu_relax();
            if ((i & 15) == 15) {
                size_t waiting = 0;
                if (ult && ABT_pool_get_size(pool, &waiting) == ABT_SUCCESS && waiting > 0)
                    wo_yield();
                else if ((i & 4095) == 4095 && !ult)
                    sched_yield();
            }
        }
        wo_team_park(t, run_tasks ? ready_or_tasks : ready, run_tasks ? (void *)&w : arg);
    }
}

struct bar_arg {
    wo_team *t;
    unsigned gen;
};

static bool bar_can_release(wo_team *t)
{
    return weft_atomic_load_seq_cst(&t->bar_arrived) == t->nthreads &&
           weft_atomic_load_seq_cst(&t->ntasks) == 0;
}

static bool try_release(wo_team *t, unsigned gen)
{
    if (!bar_can_release(t))
        return false;
    /* A thread late out of an older barrier (a worker whose share of the next region a
     * stand-in runs meanwhile) may see the next barrier's arrivals: those happen after
     * that barrier's release, so this load then sees gen moved. */
    if (weft_atomic_load_acquire(&t->bar_gen) != gen)
        return false;
    unsigned e = t->nthreads;
    if (!weft_atomic_cas_strong_acq_rel(&t->bar_arrived, &e, 0))
        return false;
    if (WEFT_UNLIKELY(weft_atomic_load_acquire(&t->bar_gen) != gen)) {
        /* the count reached n again in the next barrier between the check and the CAS:
         * those arrivals are not this barrier's; give them back */
        weft_atomic_fetch_add_seq_cst(&t->bar_arrived, e);
        wo_team_wake(t);
        return false;
    }
    if (!weft_atomic_load_acquire(&t->ws_head.next)) {
        /* no construct since the last reclaim: thread 0's is the chain's head (never
         * freed), and there is nothing to reclaim */
        t->bar_ws_cancelled = weft_atomic_load_acquire(&t->ws_head.cancelled);
    } else {
        weft_spin_lock(&t->ws_lock); /* thr[0].ws: a cancelled region's end may reclaim */
        t->bar_ws_cancelled = weft_atomic_load_acquire(&t->thr[0].ws->cancelled);
        weft_spin_unlock(&t->ws_lock);
        wo_ws_reclaim(t, false);
    }
    weft_atomic_store_release(&t->bar_gen, gen + 1);
    wo_team_wake(t);
    return true;
}

static bool bar_ready(void *a)
{
    struct bar_arg *b = a;
    wo_team *t = b->t;
    if (weft_atomic_load_acquire(&t->bar_gen) != b->gen)
        return true;
    if (weft_atomic_load_relaxed(&t->cancelled) & CANCEL_PARALLEL)
        return true;
    return bar_can_release(t);
}

bool wo_barrier(wo_thr *me)
{
    wo_team *t = me->team;
    if (!t)
        return false;
    unsigned gen = weft_atomic_load_acquire(&t->bar_gen);
    weft_atomic_fetch_add_seq_cst(&t->bar_arrived, 1);
    struct bar_arg b = { t, gen };
    for (;;) {
        if (try_release(t, gen))
            break;
        if (weft_atomic_load_acquire(&t->bar_gen) != gen)
            break;
        if (weft_atomic_load_acquire(&t->cancelled) & CANCEL_PARALLEL)
            break;
        wo_wait(me, bar_ready, &b, true, NULL, NULL);
    }
    /* a released barrier reclaimed the chain and reset every team->thr[] position to its
     * head; a stand-in's thread is not among them */
    if (WEFT_UNLIKELY(me->standin) && weft_atomic_load_acquire(&t->bar_gen) != gen)
        weft_atomic_store_relaxed(&me->ws, &t->ws_head);
    return (weft_atomic_load_acquire(&t->cancelled) & CANCEL_PARALLEL) != 0;
}

WO_API void GOMP_barrier(void) { wo_barrier(wo_self()); }

/* sched_yield from a thread of an OpenMP team (a ULT whose OpenMP thread is in a team)
 * is a ULT yield: the team threads that share its stream run (a spin-wait on a flag
 * another team thread sets, with sched_yield in its loop, finishes).  Everyone else (an
 * external thread, a scheduler, a ULT outside any team) gets the system call. */
WO_API int sched_yield(void)
{
    if (weft_atomic_load_acquire(&wo_rt_state) == 2 && weft_face_self_ult() != NULL) {
        void *v = NULL;
        if (ABT_self_get_specific(wo_key, &v) == ABT_SUCCESS && v && (*(wo_thr **)v)->team) {
            wo_yield();
            return 0;
        }
    }
    return (int)syscall(SYS_sched_yield);
}

WO_API bool GOMP_barrier_cancel(void) { return wo_barrier(wo_self()); }

/* The innermost taskgroup that binds the current task. */
static wo_taskgroup *cur_group(wo_thr *me)
{
    wo_task *k = me->task;
    return k->tg_open ? k->tg_open : k->group;
}

WO_API bool GOMP_cancellation_point(int which)
{
    if (!g_env.cancel)
        return false;
    wo_thr *me = wo_self();
    wo_team *t = me->team;
    if (which & CANCEL_TASKGROUP) {
        wo_taskgroup *g = cur_group(me);
        return g && weft_atomic_load_acquire(&g->cancelled);
    }
    if (!t)
        return false;
    int c = weft_atomic_load_acquire(&t->cancelled);
    if (which & (CANCEL_LOOP | CANCEL_SECTIONS))
        return (me->ws && weft_atomic_load_acquire(&me->ws->cancelled)) || (c & CANCEL_PARALLEL);
    return (c & which) != 0;
}

WO_API bool GOMP_cancel(int which, bool do_cancel)
{
    if (!g_env.cancel)
        return false;
    if (!do_cancel)
        return GOMP_cancellation_point(which);
    wo_thr *me = wo_self();
    wo_team *t = me->team;
    if (which & CANCEL_TASKGROUP) {
        wo_taskgroup *g = cur_group(me);
        if (!g)
            return false;
        weft_atomic_store_release(&g->cancelled, 1);
        return true;
    }
    if (!t)
        return false; /* cancelling the implicit region of an initial thread: nothing */
    if (which & (CANCEL_LOOP | CANCEL_SECTIONS)) {
        weft_atomic_store_release(&me->ws->cancelled, 1);
        return true;
    }
    weft_atomic_fetch_or_seq_cst(&t->cancelled, CANCEL_PARALLEL);
    wo_team_wake(t);
    return true;
}
