/* src/mpi/progress.c - the ULT-level wait of libweft-mpi and the poll that ends it.
 *
 * Per stream (per OS thread) one table (struct table) of what its parked ULTs wait for:
 *   - requests (MPI_Wait, MPI_Waitall, and every call turned into a nonblocking start):
 *     parallel arrays req[i] / who[i] (the waiter) / k[i] (the index in the waiter's
 *     array), tested all at once by one PMPI_Testsome per poll;
 *   - "custom" waiters that a Testsome cannot serve: MPI_Waitany (PMPI_Testany on its own
 *     array, so that exactly one of its requests completes) and MPI_Probe (PMPI_Iprobe).
 * The protocol of a wait (wait_reqs): test each request once (most eager sends and
 * already-arrived receives end here, with no park); register the rest in the table;
 * ABT_self_suspend.  The poll (core/sched/poll_hook.h, run by the stream's scheduler loop)
 * copies each completion into the waiter (the request handle written back, the status,
 * the error), and ABT_thread_resume's a waiter when its last request is done.  Both run
 * on the table's OS thread, one at a time (layer.h): no lock, no atomic; the resume is
 * the release that publishes the waiter's results to wherever the ULT runs next.
 *
 * Idle (idle_ns): while a table holds waiters, its stream
 *   - does not sleep at all for WEFT_MPI_SPIN_US (default 200) after the last activity (a
 *     completion, or a ULT that just parked): an exchange in full flow is polled on every
 *     loop of the scheduler, as a blocking MPI call spins, instead of paying a futex
 *     sleep and a wake-up (tens of microseconds, milliseconds on a loaded machine) per
 *     message;
 *   - then sleeps only naps, starting at WEFT_MPI_NAP_US's minimum (20 us) and doubling up
 *     to its maximum (100 us), reset by the next activity: a long wait costs a wake-up
 *     every ~100 us instead of a hot spin.
 * The thread's timer slack is set to 1 us at its first wait (prctl), so that a 20 us nap
 * is not stretched to the default 50 us slack.
 *
 * Busy (poll_eager): while a table holds waiters, its stream also polls between the
 * units it runs (core/sched/poll_hook.h weft_poll_hook_eager, switched by eager_update), at
 * most once per WEFT_MPI_POLL_GAP_US (50): a halo message that needs several progress
 * calls (rendezvous, fragments) then moves while the interior ULTs compute, instead of
 * once per event_freq (50) units or when the stream runs dry.
 *
 * Rejected: one progress ULT per stream (it is runnable all the time, so the stream never
 * sleeps, or it sleeps without being woken by completions); MPI_Waitany's requests in the
 * shared Testsome (a batch may complete two of them, and Waitany must complete one);
 * a lock per table (the single-thread ownership makes it unnecessary).
 *
 * The layer's lock (layer.h) is taken here with wm_lock_moved: these waits park and yield,
 * and a ULT may go on on another OS thread.
 *
 * Failure: a table that cannot grow, a wait that cannot park (a main scheduler cannot
 * suspend: ABT_ERR_INV_THREAD) - the caller tests and yields until done instead. */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/face.h"
#include "mpi/layer.h"

/* ---- counters (weft_mpi_stats): written by the table's thread, read by anyone ---- */
enum {
    C_CALLS,
    C_IMMEDIATE,
    C_PARKED,
    C_POLLS,
    C_TESTSOME,
    C_COMPLETED,
    C_NAPS,
    C_FALLBACK,
    C_DIRECT,
    C_QUICK, /* calls done at their first test: counted here only (a call and immediate) */
    C_N
};

struct waiter;

struct table {
    int n, cap;            /* requests in the table; room for cap */
    MPI_Request *req;      /* [cap] the requests, tested by one Testsome */
    struct waiter **who;   /* [cap] whose request it is */
    int *k;                /* [cap] its index in the waiter's array */
    int *idx;              /* [cap] Testsome's array_of_indices */
    MPI_Status *st;        /* [cap] Testsome's statuses */
    struct waiter *custom; /* Waitany and Probe waiters (doubly linked) */
    unsigned nap_ns;       /* the next idle bound; 0: start from nap_min */
    uint64_t active_ns;    /* last completion or park (CLOCK_MONOTONIC) */
    bool polling;          /* a poll runs (an error handler calling MPI from inside) */
    bool eager;            /* weft_poll_hook_eager(true) is on for this stream */
    uint64_t eager_ns;     /* the last between-units poll (CLOCK_MONOTONIC) */
    unsigned eager_every;  /* look at the clock every so many units (1..64, adaptive) */
    unsigned eager_skip;   /* units since the last look */
    uint64_t eager_gap_ns; /* the gap now: WEFT_MPI_POLL_GAP_US, or 10x the last poll's
                            * duration if longer (a big table: polling stays under ~10%) */
    _Atomic unsigned long long c[C_N];
    struct table *gnext, *gprev; /* every live table (stats), under reg_lock */
};

enum wkind { W_REQS, W_ANY, W_PROBE };

struct waiter {
    ABT_thread ult;
    enum wkind kind;
    bool one;             /* MPI_Wait: return the error itself, keep status's MPI_ERROR */
    int pending;          /* W_REQS: requests still in the table */
    int nfail, first_err; /* W_REQS: completed with an error */
    MPI_Request *reqs;    /* the caller's handles */
    MPI_Status *statuses; /* the caller's statuses, NULL to ignore */
    /* W_ANY / W_PROBE */
    int n, *index, source, tag, rc;
    MPI_Comm comm;
    MPI_Status *status;
    bool done;
    struct waiter *next, *prev, *wake_next;
};

/* initial-exec: the library is loaded at start-up (linked, or LD_PRELOAD), and the poll
 * reads this on every scheduler event check of every stream. */
static __thread struct table *tls_tbl __attribute__((tls_model("initial-exec")));
static pthread_key_t tbl_key;
static pthread_once_t tbl_once = PTHREAD_ONCE_INIT;
static bool key_ok;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct table *tables;            /* under reg_lock */
static unsigned long long retired[C_N]; /* counters of freed tables, under reg_lock */

static inline void count(struct table *t, int i)
{
    unsigned long long v = atomic_load_explicit(&t->c[i], memory_order_relaxed);
    atomic_store_explicit(&t->c[i], v + 1, memory_order_relaxed); /* only t's thread writes */
}

static void table_free(void *p)
{
    struct table *t = p;
    pthread_mutex_lock(&reg_lock);
    for (int i = 0; i < C_N; i++)
        retired[i] += atomic_load_explicit(&t->c[i], memory_order_relaxed);
    if (t->gprev)
        t->gprev->gnext = t->gnext;
    else
        tables = t->gnext;
    if (t->gnext)
        t->gnext->gprev = t->gprev;
    pthread_mutex_unlock(&reg_lock);
    if (t->n || t->custom)
        fprintf(stderr, "weft-mpi: a stream ended with %d MPI requests still waited for\n",
                t->n + (t->custom != NULL));
    free(t->req);
    free(t->who);
    free(t->k);
    free(t->idx);
    free(t->st);
    free(t);
}

static void key_init(void) { key_ok = pthread_key_create(&tbl_key, table_free) == 0; }

/* The calling thread's table, created at its first wait; NULL when out of memory.
 * noinline: a ULT may continue on another OS thread after a park, so no caller may keep
 * a TLS address across one (the compiler would cache it). */
static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static __attribute__((noinline)) struct table *table_self(void)
{
    struct table *t = tls_tbl;
    if (__builtin_expect(t != NULL, 1))
        return t;
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0); /* naps of 20 us are 20 us (see above) */
    pthread_once(&tbl_once, key_init);
    if (!key_ok || !(t = calloc(1, sizeof(*t))))
        return NULL;
    if (pthread_setspecific(tbl_key, t) != 0) {
        free(t);
        return NULL;
    }
    pthread_mutex_lock(&reg_lock);
    t->gnext = tables;
    if (tables)
        tables->gprev = t;
    tables = t;
    pthread_mutex_unlock(&reg_lock);
    tls_tbl = t;
    return t;
}

/* Count a blocking call done at its first test, with no park (direct: a small send made
 * by PMPI_Send): one counter, and the table's pointer read here, not through table_self's
 * call, once the table exists.  noinline for the reason of table_self. */
static __attribute__((noinline)) void count_quick(bool direct)
{
    struct table *t = tls_tbl;
    if (__builtin_expect(t == NULL, 0) && (t = table_self()) == NULL)
        return;
    count(t, C_QUICK);
    if (direct)
        count(t, C_DIRECT);
}

/* Room for `more` requests; false when out of memory (the table is unchanged). */
static bool reserve(struct table *t, int more)
{
    if (t->n + more <= t->cap)
        return true;
    int cap = t->cap ? t->cap : 16;
    while (cap < t->n + more)
        cap *= 2;
    MPI_Request *req = malloc(sizeof(*req) * (size_t)cap);
    struct waiter **who = malloc(sizeof(*who) * (size_t)cap);
    int *k = malloc(sizeof(*k) * (size_t)cap);
    int *idx = malloc(sizeof(*idx) * (size_t)cap);
    MPI_Status *st = malloc(sizeof(*st) * (size_t)cap);
    if (!req || !who || !k || !idx || !st) {
        free(req);
        free(who);
        free(k);
        free(idx);
        free(st);
        return false;
    }
    if (t->n) {
        memcpy(req, t->req, sizeof(*req) * (size_t)t->n);
        memcpy(who, t->who, sizeof(*who) * (size_t)t->n);
        memcpy(k, t->k, sizeof(*k) * (size_t)t->n);
    }
    free(t->req);
    free(t->who);
    free(t->k);
    free(t->idx);
    free(t->st);
    t->req = req;
    t->who = who;
    t->k = k;
    t->idx = idx;
    t->st = st;
    t->cap = cap;
    return true;
}

/* Request k of w is complete: `req` is its handle now (MPI_REQUEST_NULL, or the same
 * inactive persistent request), s its status, err its error. */
static void record(struct waiter *w, int k, MPI_Request req, const MPI_Status *s, int err)
{
    w->reqs[k] = req;
    if (w->statuses) {
        int keep = w->statuses[k].MPI_ERROR;
        w->statuses[k] = *s;
        w->statuses[k].MPI_ERROR = w->one ? keep : err;
    }
    if (err != MPI_SUCCESS && w->nfail++ == 0)
        w->first_err = err;
}

/* Remove the entries whose waiter was cleared, keeping the others' order. */
static void compact(struct table *t)
{
    int j = 0;
    for (int i = 0; i < t->n; i++) {
        if (t->who[i]) {
            t->req[j] = t->req[i];
            t->who[j] = t->who[i];
            t->k[j] = t->k[i];
            j++;
        }
    }
    t->n = j;
}

/* Eager polling (core/sched/poll_hook.h) is on exactly while the table holds waiters. */
static void eager_update(struct table *t)
{
    bool want = t->n > 0 || t->custom != NULL;
    if (want != t->eager && weft_poll_hook_eager(want))
        t->eager = want;
}

static void custom_unlink(struct table *t, struct waiter *w)
{
    if (w->prev)
        w->prev->next = w->next;
    else
        t->custom = w->next;
    if (w->next)
        w->next->prev = w->prev;
}

/* Test a custom waiter once (under the lock); true when its wait is over. */
static bool custom_test(struct waiter *w)
{
    int flag = 0;
    int h = wm_lock_moved();
    if (w->kind == W_ANY)
        w->rc = PMPI_Testany(w->n, w->reqs, w->index, &flag, w->status);
    else
        w->rc = PMPI_Iprobe(w->source, w->tag, w->comm, &flag, w->status);
    wm_unlock(h);
    return w->rc != MPI_SUCCESS || flag;
}

/* The request entry i is complete (status s): record it, clear the entry, queue the
 * waiter for waking when that was its last request. */
static void complete(struct table *t, int i, const MPI_Status *s, struct waiter **wake)
{
    struct waiter *w = t->who[i];
    record(w, t->k[i], t->req[i], s, s->MPI_ERROR);
    t->who[i] = NULL;
    count(t, C_COMPLETED);
    if (--w->pending == 0) {
        w->wake_next = *wake;
        *wake = w;
    }
}

/* core/sched/poll_hook.h poll: the calling stream's completions. */
static bool poll(void)
{
    struct table *t = tls_tbl;
    if (__builtin_expect(!t || (t->n == 0 && !t->custom), 1) || t->polling)
        return false;
    if (atomic_load_explicit(&wm_g.phase, memory_order_acquire) != WM_ACTIVE)
        return false; /* MPI_Finalize has begun: MPI may no longer be called */
    t->polling = true;
    count(t, C_POLLS);
    struct waiter *wake = NULL;
    if (t->n) {
        for (int i = 0; i < t->n; i++)
            t->st[i].MPI_ERROR = MPI_SUCCESS; /* Testsome sets it only on MPI_ERR_IN_STATUS */
        int out = 0;
        int h = wm_lock_moved();
        int rc = PMPI_Testsome(t->n, t->req, &out, t->idx, t->st);
        wm_unlock(h);
        count(t, C_TESTSOME);
        if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) {
            for (int j = 0; out != MPI_UNDEFINED && j < out; j++)
                complete(t, t->idx[j], &t->st[j], &wake);
        } else {
            /* An error Testsome could not attribute: test one by one, so each waiter gets
             * its own request's error and the others go on. */
            for (int i = 0; i < t->n; i++) {
                MPI_Status s;
                s.MPI_ERROR = MPI_SUCCESS;
                int f = 0;
                int h = wm_lock_moved();
                int r = PMPI_Test(&t->req[i], &f, &s);
                wm_unlock(h);
                if (r != MPI_SUCCESS) {
                    s.MPI_ERROR = r;
                    f = 1;
                }
                if (f)
                    complete(t, i, &s, &wake);
            }
        }
        compact(t);
    }
    for (struct waiter *w = t->custom, *nx; w; w = nx) {
        nx = w->next;
        if (custom_test(w)) {
            custom_unlink(t, w);
            w->done = true;
            w->wake_next = wake;
            wake = w;
        }
    }
    t->polling = false;
    eager_update(t);
    if (!wake)
        return false;
    t->nap_ns = 0;
    t->active_ns = now_ns();
    for (struct waiter *w = wake, *nx; w; w = nx) {
        nx = w->wake_next; /* w lives on its ULT's stack: read before the resume */
        if (ABT_thread_resume(w->ult) != ABT_SUCCESS)
            fprintf(stderr, "weft-mpi: could not resume a ULT waiting in MPI\n");
    }
    return true;
}

/* core/sched/poll_hook.h poll_eager: after a unit ran on a stream with waiters.  A poll (one
 * Testsome over every waiting request, and MPI's progress) per unit would cost as much as
 * a short unit itself when ULTs exchange small messages back to back (64 ULTs: ~1 us per
 * poll against ~0.1 us per message); at most one per WEFT_MPI_POLL_GAP_US (50 us) keeps
 * that under ~2% and still polls after every unit of a stream whose units compute for
 * longer (a stencil's interior rows: ~130 us each, bench/mpi). */
static bool poll_eager(void)
{
    struct table *t = tls_tbl;
    if (!t || (t->n == 0 && !t->custom))
        return false;
    if (!wm_g.poll_gap_ns)
        return poll();
    /* The clock is read every eager_every units only: that count doubles while the units
     * are shorter than the gap (messages back to back: one clock read per up to 64 units)
     * and halves when they are longer (computation: a poll per unit). */
    if (++t->eager_skip < t->eager_every)
        return false;
    t->eager_skip = 0;
    uint64_t now = now_ns(), dt = now - t->eager_ns;
    uint64_t gap = t->eager_gap_ns > wm_g.poll_gap_ns ? t->eager_gap_ns : wm_g.poll_gap_ns;
    if (dt < gap) {
        if (t->eager_every < 64)
            t->eager_every = t->eager_every ? t->eager_every * 2 : 1;
        return false;
    }
    if (dt > 2 * gap && t->eager_every > 1)
        t->eager_every /= 2;
    bool woke = poll();
    t->eager_ns = now_ns();
    t->eager_gap_ns = 10 * (t->eager_ns - now); /* a poll over 1,000 requests: ~15 us */
    return woke;
}

/* core/sched/poll_hook.h idle_ns: how long this stream may sleep without a poll. */
static uint64_t idle_ns(void)
{
    struct table *t = tls_tbl;
    if (!t || (t->n == 0 && !t->custom))
        return UINT64_MAX; /* WEFT_NO_DEADLINE: nothing of ours in flight here */
    if (wm_g.spin_ns && now_ns() - t->active_ns < wm_g.spin_ns)
        return 0; /* core/sched/poll_hook.h: poll again without sleeping */
    unsigned ns = t->nap_ns ? t->nap_ns : wm_g.nap_min_ns;
    t->nap_ns = ns * 2 > wm_g.nap_max_ns ? wm_g.nap_max_ns : ns * 2;
    count(t, C_NAPS);
    return ns;
}

static const struct weft_poll_hook hook = {
    .name = "mpi",
    .poll = poll,
    .idle_ns = idle_ns,
    .sleep = NULL,
    .poll_eager = poll_eager,
};

bool wm_progress_start(void) { return weft_poll_hook_add(&hook) == 0; }

/* Park the calling ULT registered as w; false if it cannot (a main scheduler): the
 * caller unregisters and waits another way. */
static bool park(struct table *t, struct waiter *w)
{
    if (ABT_self_get_thread(&w->ult) != ABT_SUCCESS)
        return false;
    count(t, C_PARKED);
    t->active_ns = now_ns(); /* an answer is expected soon: spin before napping */
    t->nap_ns = 0;
    eager_update(t); /* its stream polls between units until the table is empty */
    return ABT_self_suspend() == ABT_SUCCESS;
}

/* Yield the caller a little between two tests of a fallback wait. */
static void pause_caller(enum wm_route route)
{
    if (route == WM_ULT)
        ABT_thread_yield();
    else
        sched_yield();
}

/* MPI_Waitall's answer from a waiter's tally. */
static int reqs_result(struct waiter *w)
{
    if (w->nfail == 0)
        return MPI_SUCCESS;
    if (w->one)
        return w->first_err;
    return MPI_ERR_IN_STATUS; /* every status's MPI_ERROR was set by record() */
}

/* Test-and-yield until every request of the array is done (no table): PMPI_Testall. */
static int spin_all(enum wm_route route, int n, MPI_Request *reqs, MPI_Status *statuses, bool one)
{
    for (;;) {
        int flag = 0;
        int h = wm_lock_moved();
        int rc = one ? PMPI_Test(reqs, &flag, statuses) : PMPI_Testall(n, reqs, &flag, statuses);
        wm_unlock(h);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        pause_caller(route);
    }
}

/* The wait of MPI_Wait (one) and MPI_Waitall (see the file's comment). */
static int wait_reqs(enum wm_route route, int n, MPI_Request *reqs, MPI_Status *statuses, bool one,
                     bool tested)
{
    if (route != WM_ULT)
        return spin_all(route, n, reqs, statuses, one);
    if (n < 0 || (n > 0 && !reqs)) {
        int h = wm_lock_moved();
        int rc = PMPI_Waitall(n, reqs, statuses); /* MPI reports the bad argument */
        wm_unlock(h);
        return rc;
    }
    if (one && !tested) { /* the common case first: one request, often complete at once */
        int flag = 0;
        int h = wm_lock_moved();
        int rc = PMPI_Test(reqs, &flag, statuses);
        wm_unlock(h);
        if (rc != MPI_SUCCESS || flag) {
            count_quick(false);
            return rc;
        }
    }
    struct table *t = table_self();
    int stack_todo[32];
    int *todo = n <= 32 ? stack_todo : malloc(sizeof(int) * (size_t)n);
    if (!t || !todo || !reserve(t, n)) {
        if (todo != stack_todo)
            free(todo);
        if (t)
            count(t, C_FALLBACK);
        return spin_all(route, n, reqs, statuses, one);
    }
    count(t, C_CALLS);
    struct waiter w = { .kind = W_REQS, .one = one, .reqs = reqs, .first_err = MPI_SUCCESS };
    w.statuses = statuses == MPI_STATUSES_IGNORE ? NULL : statuses;
    int ntodo = 0;
    if (one)
        todo[ntodo++] = 0; /* tested above: not complete */
    for (int k = 0; k < n && !one; k++) {
        MPI_Status s;
        s.MPI_ERROR = MPI_SUCCESS;
        int flag = 0;
        int h = wm_lock_moved();
        int rc = PMPI_Test(&reqs[k], &flag, &s);
        wm_unlock(h);
        if (rc != MPI_SUCCESS)
            record(&w, k, reqs[k], &s, rc);
        else if (flag)
            record(&w, k, reqs[k], &s, MPI_SUCCESS);
        else
            todo[ntodo++] = k;
    }
    if (ntodo == 0) {
        count(t, C_IMMEDIATE);
    } else {
        for (int j = 0; j < ntodo; j++) {
            t->req[t->n] = reqs[todo[j]];
            t->who[t->n] = &w;
            t->k[t->n] = todo[j];
            t->n++;
        }
        w.pending = ntodo;
        if (!park(t, &w)) {
            /* Not parked, so no poll ran since the registration: take the entries back
             * and test the remaining requests here. */
            for (int i = 0; i < t->n; i++)
                if (t->who[i] == &w)
                    t->who[i] = NULL;
            compact(t);
            eager_update(t);
            count(t, C_FALLBACK);
            while (ntodo > 0) {
                for (int j = 0; j < ntodo;) {
                    MPI_Status s;
                    s.MPI_ERROR = MPI_SUCCESS;
                    int flag = 0, k = todo[j];
                    int h = wm_lock_moved();
                    int rc = PMPI_Test(&reqs[k], &flag, &s);
                    wm_unlock(h);
                    if (rc != MPI_SUCCESS || flag) {
                        record(&w, k, reqs[k], &s, rc);
                        todo[j] = todo[--ntodo];
                    } else {
                        j++;
                    }
                }
                if (ntodo)
                    pause_caller(route);
            }
        }
        /* here every request of w was recorded (by the poll, or above) */
    }
    if (todo != stack_todo)
        free(todo);
    return reqs_result(&w);
}

void wm_count_direct(void) { count_quick(true); }

int wm_wait_one(enum wm_route route, MPI_Request *req, MPI_Status *status)
{
    return wait_reqs(route, 1, req, status == MPI_STATUS_IGNORE ? NULL : status, true, false);
}

int wm_start_wait_one(enum wm_route route, int h, int rc, MPI_Request *req, MPI_Status *status)
{
    if (rc != MPI_SUCCESS) {
        wm_unlock(h);
        return rc;
    }
    MPI_Status *st = status == MPI_STATUS_IGNORE ? NULL : status;
    int flag = 0;
    rc = PMPI_Test(req, &flag, st);
    wm_unlock(h);
    if (rc != MPI_SUCCESS || flag) {
        count_quick(false);
        return rc;
    }
    return wait_reqs(route, 1, req, st, true, true);
}

int wm_wait_all(enum wm_route route, int n, MPI_Request *reqs, MPI_Status *statuses)
{
    return wait_reqs(route, n, reqs, statuses, false, false);
}

/* Park as a custom waiter (Waitany, Probe) until custom_test says done. */
static int wait_custom(enum wm_route route, struct waiter *w)
{
    if (custom_test(w))
        return w->rc;
    struct table *t = route == WM_ULT ? table_self() : NULL;
    if (t) {
        w->next = t->custom;
        w->prev = NULL;
        if (t->custom)
            t->custom->prev = w;
        t->custom = w;
        if (park(t, w))
            return w->rc; /* the poll saw it done */
        custom_unlink(t, w);
        eager_update(t);
        count(t, C_FALLBACK);
    }
    while (!custom_test(w))
        pause_caller(route);
    return w->rc;
}

int wm_wait_any(enum wm_route route, int n, MPI_Request *reqs, int *index, MPI_Status *status)
{
    struct waiter w = { .kind = W_ANY, .n = n, .reqs = reqs, .index = index, .status = status };
    return wait_custom(route, &w);
}

int wm_probe(enum wm_route route, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    struct waiter w = {
        .kind = W_PROBE, .source = source, .tag = tag, .comm = comm, .status = status
    };
    return wait_custom(route, &w);
}

int weft_mpi_get_stats(struct weft_mpi_stats *out)
{
    if (!out)
        return MPI_ERR_ARG;
    unsigned long long c[C_N];
    pthread_mutex_lock(&reg_lock);
    memcpy(c, retired, sizeof(c));
    for (struct table *t = tables; t; t = t->gnext)
        for (int i = 0; i < C_N; i++)
            c[i] += atomic_load_explicit(&t->c[i], memory_order_relaxed);
    pthread_mutex_unlock(&reg_lock);
    out->calls = c[C_CALLS] + c[C_QUICK];
    out->immediate = c[C_IMMEDIATE] + c[C_QUICK];
    out->parked = c[C_PARKED];
    out->polls = c[C_POLLS];
    out->testsome = c[C_TESTSOME];
    out->completed = c[C_COMPLETED];
    out->naps = c[C_NAPS];
    out->fallback = c[C_FALLBACK];
    out->direct = c[C_DIRECT];
    return MPI_SUCCESS;
}
