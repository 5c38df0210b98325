/* src/pthread/runtime.c - the runtime of the Pthreads layer, and program threads as ULTs.
 *
 * Start.  The runtime starts on the first call that needs it (pthread_create, the first
 * use of a mutex, condition variable, rwlock or barrier), on the calling thread - the
 * main thread in a program whose threads come from pthread_create - which becomes the
 * primary ULT: ABT_init, one shared MPMC FIFO pool, the primary stream's scheduler
 * replaced by a BASIC_WAIT one over that pool, and WEFT_PTHREAD_STREAMS - 1 more streams
 * (default: the CPUs the process may use) with the same scheduler and pool; idle streams
 * sleep.  Not in a constructor: a preloaded process that never uses threads (a shell, a
 * `timeout` wrapper relying on signals to its single thread) must stay single-threaded.
 * The main thread's id is the same before and after (main_rec).  The runtime is never
 * finalized while program threads may run (a process ends as with Pthreads: exit() ends
 * every thread); the destructor finalizes it when the main thread exits with no thread
 * left.
 *
 * Threads.  pthread_create from one of our ULTs (the main thread included) makes a ULT
 * running ult_main over a `pth_thread` record; from a thread that is not a ULT it is the
 * real pthread_create (that thread is outside the runtime).  The record's `state` bits:
 *   DETACHED   set by pthread_detach, or at creation by a detached attribute;
 *   FINISHED   set by the thread as its very last access to the record;
 *   PUBLISHED  set by the creator once ABT_thread_create stored the ULT handle;
 *   JOINING    set by the one joiner (a second joiner, or joining a detached thread,
 *              gets EINVAL).
 * Each bit is set by one fetch_or (DETACHED and JOINING by a CAS that also checks the
 * generation, so a stale id never changes a recycled record); whoever completes
 * DETACHED|FINISHED|PUBLISHED pushes the record on the reap list, so a detached record
 * is recycled exactly once, and never before its handle exists.  A joiner waits in
 * ABT_thread_free (which returns when the ULT has terminated), reads `ret` and recycles
 * the record.  The reap list is drained by pthread_create and pthread_join
 * (ABT_thread_free of a detached ULT that is finishing waits the few instructions it has
 * left).
 *
 * Records are never freed: a recycled one moves to the next generation (the top 16 bits
 * of `state` and of the ids, face.h; never 0) and goes on a free list that
 * pthread_create takes from.  So an id kept after its thread was joined - a second
 * join, a detach, a pthread_kill - reads a live record whose generation differs and
 * gets ESRCH, as glibc answers, where freeing would be a use after free.  An id is
 * recognised as stale until its record has been reused 65535 times.
 *
 * pthread_exit from a ULT runs the cleanup handlers (cleanup.c) and key destructors, then
 * ends the ULT with ABT_thread_exit.  From the main thread it waits until no program
 * thread is left and exits the process with status 0, as a process whose last thread
 * ends.  Detach never cancels anything; cancellation is not supported (ENOTSUP). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <weft.h>

#include "pthread/face.h"

enum { RUN_NONE, RUN_STARTING, RUN_READY, RUN_FAILED };
static _Atomic int run_state;

static ABT_pool *pools;      /* pools[i]: where stream of rank i pushes */
static ABT_xstream *streams; /* the secondary streams (streams[0] unused) */
static int num_streams;      /* WEFT_PTHREAD_STREAMS */
static bool main_is_primary; /* the runtime was started by the main thread */
static const ABT_thread_attr dflt_attr = ABT_THREAD_ATTR_NULL; /* weft default stack */
static size_t dflt_stacksize;                                  /* WEFT_PTHREAD_STACKSIZE */
static size_t glibc_stacksize; /* glibc's default: an attribute at it asks for ours */
/* The main thread (the primary ULT once the runtime runs; its id before as well). */
static pth_thread main_rec = { .magic = PTH_MAGIC, .state = 1u << PTH_GEN_SHIFT | PTH_F_PUBLISHED };
static _Atomic long live;             /* program ULTs created and not finished */
static pth_thread *_Atomic reap_head; /* detached, finished, published records */
static pth_thread *free_recs;         /* recycled records (free_lock) */
static pth_thread *all_recs;          /* every record made (free_lock) */
static pthread_mutex_t free_lock = PTHREAD_MUTEX_INITIALIZER; /* glibc's: never blocks long */
static unsigned fork_epoch; /* children of fork down to this process (kept runtime) */
static void **ghosts;       /* the parent's ready units, taken out of the pools */
static size_t num_ghosts;
static bool creating_stream;        /* start_runtime creates a stream: record its thread */
static pthread_t created_os_thread; /* the OS thread of the stream just created */

/* The identity of a thread that is not one of our ULTs: the address of its word. */
static __thread char ext_identity;

static long env_long(const char *name, long dflt, long min, long max)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    long v = strtol(s, &end, 0);
    if (*end == 'k' || *end == 'K')
        v <<= 10, end++;
    else if (*end == 'm' || *end == 'M')
        v <<= 20, end++;
    if (*end || v < min || v > max) {
        fprintf(stderr, "libweft-pthread: ignoring %s=%s (expected %ld..%ld)\n", name, s, min, max);
        return dflt;
    }
    return v;
}

static int cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static bool is_main_thread(void) { return gettid() == getpid(); }

/* Start weft on the calling thread (internal is set: weft's own pthread calls are real). */
static bool start_runtime(void)
{
    num_streams = (int)env_long("WEFT_PTHREAD_STREAMS", cpus(), 1, 4096);
    dflt_stacksize = (size_t)env_long("WEFT_PTHREAD_STACKSIZE", 256 << 10, 16 << 10, 1L << 30);
    pthread_attr_t a;
    if (pthread_attr_init(&a) == 0) {
        pthread_attr_getstacksize(&a, &glibc_stacksize);
        pthread_attr_destroy(&a);
    }
    /* The default stack size is weft's default (ABT_THREAD_STACKSIZE), so that stacks
     * come from weft's arenas and caches: per-size stacks are mapped one by one.  Set
     * only for ABT_init, then the environment is restored. */
    const char *abt_env = getenv("ABT_THREAD_STACKSIZE");
    char *saved = abt_env ? strdup(abt_env) : NULL;
    bool ours = getenv("WEFT_PTHREAD_STACKSIZE") || !abt_env;
    if (ours) {
        char buf[32];
        snprintf(buf, sizeof buf, "%zu", dflt_stacksize);
        setenv("ABT_THREAD_STACKSIZE", buf, 1);
    } else {
        dflt_stacksize = (size_t)strtoull(abt_env, NULL, 0);
    }
    ABT_pool *order = NULL; /* the pools of one scheduler, its own first */
    const char *what = "ABT_init";
    int rc = ABT_init(0, NULL);
    if (ours) {
        if (saved)
            setenv("ABT_THREAD_STACKSIZE", saved, 1);
        else
            unsetenv("ABT_THREAD_STACKSIZE");
    }
    free(saved);
    if (rc != ABT_SUCCESS)
        goto fail;
    what = "the pools";
    pools = calloc((size_t)num_streams, sizeof *pools);
    streams = calloc((size_t)num_streams, sizeof *streams);
    order = calloc((size_t)num_streams, sizeof *order);
    if (!pools || !streams || !order) {
        rc = ABT_ERR_MEM;
        goto fail_init;
    }
    for (int i = 0; i < num_streams; i++)
        if ((rc = ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE,
                                        &pools[i])) != ABT_SUCCESS)
            goto fail_init;
    /* Threads are preemptive: one that spins waiting for another must not hold its stream
     * for good.  A time slice on the pools (WEFT_PTHREAD_PREEMPT_US, 10 ms, 0: none), unless
     * WEFT_PREEMPT gives every pool one (weft.h, weft_pool_set_preempt). */
    long slice = env_long("WEFT_PTHREAD_PREEMPT_US", 10000, 0, WEFT_PREEMPT_MAX_US);
    const char *global_slice = getenv("WEFT_PREEMPT");
    for (int i = 0; slice > 0 && !(global_slice && *global_slice) && i < num_streams; i++)
        weft_pool_set_preempt(pools[i], (unsigned)slice);
    ABT_xstream primary;
    ABT_xstream_self(&primary);
    what = "the primary scheduler";
    for (int k = 0; k < num_streams; k++)
        order[k] = pools[k];
    rc = ABT_xstream_set_main_sched_basic(primary, ABT_SCHED_BASIC_WAIT, num_streams, order);
    if (rc != ABT_SUCCESS)
        goto fail_init;
    main_is_primary = is_main_thread();
    what = "the keys";
    if ((rc = pth_keys_init()) != 0)
        goto fail_init;
    main_rec.ult = ABT_THREAD_NULL;
    if (main_is_primary)
        ABT_self_get_thread(&main_rec.ult); /* the primary ULT: its state, for signals */
    main_rec.stacksize = glibc_stacksize;
    pth_sig_stream(0, pth_real(pthread_self)(), primary);
    what = "the streams";
    for (int i = 1; i < num_streams; i++) {
        for (int k = 0; k < num_streams; k++) /* its own pool first, then the others' */
            order[k] = pools[(i + k) % num_streams];
        creating_stream = true;
        created_os_thread = 0;
        rc = ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, num_streams, order,
                                      ABT_SCHED_CONFIG_NULL, &streams[i]);
        creating_stream = false;
        int rank;
        if (rc == ABT_SUCCESS && created_os_thread &&
            ABT_xstream_get_rank(streams[i], &rank) == ABT_SUCCESS)
            pth_sig_stream(rank, created_os_thread, streams[i]);
        if (rc != ABT_SUCCESS) {
            fprintf(stderr, "libweft-pthread: %d of %d streams (ABT_xstream_create: %d)\n", i,
                    num_streams, rc);
            num_streams = i; /* run on those we have */
            break;
        }
    }
    free(order);
    pth_sig_streams(num_streams);
    return true;
fail_init:
    free(order);
    free(pools);
    free(streams);
    pools = NULL;
    streams = NULL;
    ABT_finalize(); /* frees the pools and schedulers made so far */
fail:
    fprintf(stderr,
            "libweft-pthread: could not start weft (%s: error %d); threads are OS threads\n", what,
            rc);
    return false;
}

bool pth_ready(void)
{
    int s = weft_atomic_load_acquire(&run_state);
    if (WEFT_LIKELY(s == RUN_READY))
        return true;
    if (s == RUN_NONE && weft_atomic_cas_strong_acq_rel(&run_state, &s, RUN_STARTING)) {
        int was = pth_internal();
        pth_enter();
        bool ok = start_runtime();
        pth_set_internal(was);
        weft_atomic_store_release(&run_state, ok ? RUN_READY : RUN_FAILED);
        return ok;
    }
    while ((s = weft_atomic_load_acquire(&run_state)) == RUN_STARTING)
        pth_real(sched_yield)();
    return s == RUN_READY;
}

bool pth_started(void) { return weft_atomic_load_acquire(&run_state) == RUN_READY; }

static void reap(void);

__attribute__((destructor)) static void pth_destructor(void)
{
    /* Finalize only from the main thread with no program thread left: otherwise exit()
     * ends the threads as it does with Pthreads, and the runtime stays. */
    if (weft_atomic_load_acquire(&run_state) != RUN_READY || pth_internal())
        return;
    if (pth_self() != &main_rec || weft_atomic_load_acquire(&live) != 0 || fork_epoch != 0)
        return; /* (a child of fork: the parent's threads are kept aside, not finalized) */
    reap();
    pth_enter();
    weft_atomic_store_release(&run_state, RUN_FAILED); /* later calls go to glibc */
    for (int i = 1; i < num_streams; i++) {
        ABT_xstream_join(streams[i]);
        ABT_xstream_free(&streams[i]);
    }
    free(streams);
    ABT_finalize();
}

static void ult_main(void *p);

pth_thread *pth_self(void)
{
    if (weft_atomic_load_acquire(&run_state) != RUN_READY)
        return is_main_thread() ? &main_rec : NULL; /* the same id before and after */
    /* Our ULTs run ult_main over their record; the main thread is the primary ULT.  (No
     * ABT_key: setting one per ULT allocates its key table and runs its destructors.) */
    ABT_thread t;
    void (*fn)(void *);
    void *arg;
    if (ABT_self_get_thread(&t) != ABT_SUCCESS || ABT_thread_get_thread_func(t, &fn) != ABT_SUCCESS)
        return NULL;
    if (fn == ult_main)
        return ABT_thread_get_arg(t, &arg) == ABT_SUCCESS ? arg : NULL;
    ABT_bool primary;
    return ABT_self_is_primary(&primary) == ABT_SUCCESS && primary && main_is_primary ? &main_rec
                                                                                      : NULL;
}

const void *pth_identity(void)
{
    pth_thread *s = pth_self();
    return s ? (const void *)s : (const void *)&ext_identity;
}

void pth_yield(void)
{
    pth_enter();
    int rc = ABT_thread_yield();
    pth_leave();
    if (rc != ABT_SUCCESS)
        pth_real(sched_yield)();
}

/* ---- the record's life ---- */

void pth_records_lock(void) { pth_real(pthread_mutex_lock)(&free_lock); }
void pth_records_unlock(void) { pth_real(pthread_mutex_unlock)(&free_lock); }
/* The child of fork.  When the main thread forked the runtime goes on with one stream
 * (weft's "fork()"), and the forking thread must be the only thread: the units ready in
 * the pools are taken out and kept aside (never run: their OS-level history is the
 * parent's), and a thread of the parent that the child wakes (it was parked on an object
 * the child then signals, or in a timed wait) ends when it comes back into the layer,
 * before any program code (pth_leave: the records carry the fork generation they belong
 * to).  Such a thread ends holding what weft gave it on waking - the mutex of a condition
 * wait, a mutex it waited for - as the parent's threads in a child of fork hold what they
 * held at the fork. */
void pth_after_fork_child(void)
{
    pth_real(pthread_mutex_init)(&free_lock, NULL);
    int rank = -1;
    int was = pth_internal();
    pth_enter();
    bool kept = weft_atomic_load_acquire(&run_state) == RUN_READY &&
                ABT_self_get_xstream_rank(&rank) == ABT_SUCCESS; /* else: no runtime */
    pth_thread *self = kept ? pth_self() : NULL;
    if (self) {
        fork_epoch++;
        self->epoch = fork_epoch;
        for (int i = 0; i < num_streams; i++) {
            ABT_unit u;
            while (ABT_pool_pop(pools[i], &u) == ABT_SUCCESS && u != ABT_UNIT_NULL) {
                void **g = realloc(ghosts, (num_ghosts + 1) * sizeof *g);
                if (!g)
                    break; /* out of memory in a fresh child: it may run */
                ghosts = g;
                ghosts[num_ghosts++] = u;
            }
        }
        weft_atomic_store_relaxed(&live, self == &main_rec ? 0 : 1);
        pth_sig_attend(true); /* pth_leave looks, for good */
    }
    pth_set_internal(was);
    pth_sig_fork_child(rank);
}

void pth_ghost_check(pth_thread *self)
{
    if (WEFT_LIKELY(self->epoch == fork_epoch))
        return;
    pth_enter();
    ABT_thread_exit(); /* no record, no count: the thread is the parent's */
    abort();
}

/* A record for a new thread, in a new generation; NULL when out of memory. */
static pth_thread *rec_take(void)
{
    pth_records_lock();
    pth_thread *r = free_recs;
    if (r)
        free_recs = r->reap_next;
    pth_records_unlock();
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r)
            return NULL;
        r->magic = PTH_MAGIC;
        weft_atomic_store_relaxed(&r->state, 1u << PTH_GEN_SHIFT);
        pth_records_lock();
        r->all_next = all_recs;
        all_recs = r;
        pth_records_unlock();
    }
    return r;
}

/* Give a record back once its thread is joined or reaped: its ids become stale. */
static void rec_give(pth_thread *r)
{
    unsigned gen = (weft_atomic_load_relaxed(&r->state) >> PTH_GEN_SHIFT) + 1;
    if (gen > 0xffff)
        gen = 1;
    uint64_t lost = weft_atomic_exchange_relaxed(&r->sigpending, 0);
    if (lost) /* sent while it did not run, and it never ran program code again */
        weft_atomic_fetch_sub_relaxed(&pth_sig_waiting, __builtin_popcountll(lost));
    weft_atomic_store_relaxed(&r->sigqueued, 0);
    r->ult = ABT_THREAD_NULL;
    r->start = NULL;
    r->arg = r->ret = NULL;
    r->values = NULL;
    r->cleanup = NULL;
    r->stacksize = 0;
    r->name[0] = 0;
    weft_atomic_store_release(&r->state, gen << PTH_GEN_SHIFT);
    pth_records_lock();
    r->reap_next = free_recs;
    free_recs = r;
    pth_records_unlock();
}

static void reap_push(pth_thread *r)
{
    pth_thread *h = weft_atomic_load_relaxed(&reap_head);
    do
        r->reap_next = h;
    while (!weft_atomic_cas_weak_release(&reap_head, &h, r));
}

/* Set `bit`; the one that completes DETACHED|FINISHED|PUBLISHED hands the record over. */
static unsigned set_bit(pth_thread *r, unsigned bit)
{
    const unsigned all = PTH_F_DETACHED | PTH_F_FINISHED | PTH_F_PUBLISHED;
    unsigned old = weft_atomic_fetch_or_acq_rel(&r->state, bit);
    if ((old & all) != all && ((old | bit) & all) == all)
        reap_push(r);
    return old;
}

/* Free the records of detached threads that finished.  Internal: weft calls only. */
static void reap(void)
{
    if (!weft_atomic_load_relaxed(&reap_head))
        return;
    pth_thread *r = weft_atomic_exchange_acquire(&reap_head, NULL);
    pth_enter();
    while (r) {
        pth_thread *next = r->reap_next;
        ABT_thread ult = r->ult; /* r->ult stays for a concurrent pthread_kill (release) */
        ABT_thread_free(&ult);
        rec_give(r);
        r = next;
    }
    pth_leave();
}

void pth_finish(pth_thread *self, void *ret)
{
    self->ret = ret;
    pth_values_destroy(&self->values);
}

/* The last steps of a ULT: after the FINISHED bit the record belongs to its joiner or
 * to the reaper.  Called with internal set. */
static void finished(pth_thread *self)
{
    weft_atomic_fetch_sub_release(&live, 1);
    set_bit(self, PTH_F_FINISHED);
}

static void ult_main(void *p)
{
    pth_thread *self = p;
    if (WEFT_UNLIKELY(weft_atomic_load_relaxed(&pth_streams_unknown) > 0))
        pth_sig_stream_self(); /* weft made the stream without us (sanitized program) */
    pth_leave();
    void *ret = self->start(self->arg);
    pth_finish(self, ret);
    pth_enter();
    finished(self);
}

/* A thread weft creates for itself (a stream): it runs weft, so its word is set. */
struct os_start {
    void *(*fn)(void *);
    void *arg;
};

static void *os_trampoline(void *p)
{
    struct os_start s = *(struct os_start *)p;
    free(p);
    pth_enter();
    return s.fn(s.arg);
}

static int create_os_thread(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
                            void *arg)
{
    struct os_start *s = malloc(sizeof *s);
    if (!s)
        return EAGAIN;
    s->fn = fn;
    s->arg = arg;
    int rc = pth_real(pthread_create)(t, attr, os_trampoline, s);
    if (rc != 0)
        free(s);
    else if (creating_stream)
        created_os_thread = *t;
    return rc;
}

/* The weft attribute for a pthread attribute: the default one, or a new one (*made) for
 * a stack size other than glibc's default or a stack of the program's. */
static int ult_attr(const pthread_attr_t *attr, ABT_thread_attr *out, bool *made, size_t *stacksize)
{
    *out = dflt_attr;
    *made = false;
    *stacksize = dflt_stacksize;
    if (!attr)
        return 0;
    size_t size = 0, ssize = 0;
    void *lo = NULL;
    pthread_attr_getstacksize(attr, &size);
    /* glibc keeps the top of a program-given stack (NULL if none) and reports top - size */
    pthread_attr_getstack(attr, &lo, &ssize);
    char *addr = (uintptr_t)lo + ssize == 0 ? NULL : (char *)lo;
    if (!addr && (size == glibc_stacksize || size == 0))
        return 0;
    if (ABT_thread_attr_create(out) != ABT_SUCCESS)
        return EAGAIN;
    int rc;
    if (addr)
        rc = ABT_thread_attr_set_stack(*out, addr, ssize), size = ssize;
    else
        rc = ABT_thread_attr_set_stacksize(*out, size);
    if (rc != ABT_SUCCESS) {
        ABT_thread_attr_free(out);
        *out = dflt_attr;
        return EINVAL;
    }
    *made = true;
    *stacksize = size;
    return 0;
}

/* The pool of the caller's stream: a new thread starts where its creator runs (and a
 * join finds it there, not started, and runs it at once); idle streams take from the
 * others' pools. */
static ABT_pool my_pool(void)
{
    int rank = 0;
    ABT_self_get_xstream_rank(&rank);
    return pools[rank >= 0 && rank < num_streams ? rank : 0];
}

/* ---- the interposed functions ---- */

PTH_API int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    if (pth_internal())
        return create_os_thread(t, attr, fn, arg);
    if (!pth_self() || !pth_ready() || !pth_self())
        return pth_real(pthread_create)(t, attr, fn, arg);
    reap();
    int detached = PTHREAD_CREATE_JOINABLE;
    if (attr)
        pthread_attr_getdetachstate(attr, &detached);
    pth_thread *r = rec_take();
    if (!r)
        return EAGAIN;
    r->start = fn;
    r->arg = arg;
    r->epoch = fork_epoch;
    if (detached == PTHREAD_CREATE_DETACHED)
        weft_atomic_fetch_or_relaxed(&r->state, PTH_F_DETACHED);
    ABT_thread_attr a;
    bool made;
    int rc = ult_attr(attr, &a, &made, &r->stacksize);
    if (rc != 0) {
        rec_give(r);
        return rc;
    }
    weft_atomic_fetch_add_relaxed(&live, 1);
    pth_enter();
    int arc = ABT_thread_create(my_pool(), ult_main, r, a, &r->ult);
    if (made)
        ABT_thread_attr_free(&a);
    pth_leave();
    if (arc != ABT_SUCCESS) {
        weft_atomic_fetch_sub_relaxed(&live, 1);
        rec_give(r);
        return EAGAIN;
    }
    *t = pth_id(r);
    set_bit(r, PTH_F_PUBLISHED); /* the record may be gone after this */
    return 0;
}

static unsigned gen_of(pthread_t t) { return (unsigned)(t >> PTH_ID_SHIFT); }

/* Claim r (named by t) for joining: 0, or the error of pthread_join. */
static int claim(pth_thread *r, pthread_t t)
{
    if (r == pth_self())
        return EDEADLK;
    if (r == &main_rec)
        return EINVAL; /* the main thread is not joinable here (documented) */
    unsigned old = weft_atomic_load_relaxed(&r->state);
    do {
        if (old >> PTH_GEN_SHIFT != gen_of(t))
            return ESRCH; /* joined (or reaped) meanwhile */
        if (old & (PTH_F_DETACHED | PTH_F_JOINING))
            return EINVAL;
    } while (!weft_atomic_cas_weak_acq_rel(&r->state, &old, old | PTH_F_JOINING));
    return 0;
}

static void *release(pth_thread *r)
{
    while (!(weft_atomic_load_acquire(&r->state) & PTH_F_PUBLISHED))
        pth_yield(); /* joined through its own pthread_self before create returned */
    pth_enter();
    /* through a copy: r->ult keeps its value, which a concurrent pthread_kill of this
     * (finished, not yet joined) thread reads (signal.c), until the record is recycled */
    ABT_thread ult = r->ult;
    ABT_thread_free(&ult); /* returns once the ULT has terminated */
    pth_leave();
    void *ret = r->ret;
    rec_give(r);
    return ret;
}

PTH_API int pthread_join(pthread_t t, void **ret)
{
    pth_thread *r;
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_join)(t, ret);
    if (!(r = pth_live(t)))
        return ESRCH;
    int rc = claim(r, t);
    if (rc != 0)
        return rc;
    void *v = release(r);
    if (ret)
        *ret = v;
    reap();
    return 0;
}

/* Wait for r to finish until abs_rt (NULL: do not wait); ETIMEDOUT / EBUSY otherwise. */
static int join_until(pth_thread *r, pthread_t t, void **ret, const struct timespec *abs_rt)
{
    unsigned st;
    while (!((st = weft_atomic_load_acquire(&r->state)) & PTH_F_FINISHED)) {
        if (st >> PTH_GEN_SHIFT != gen_of(t))
            return ESRCH;
        if (!abs_rt)
            return EBUSY;
        if (pth_passed(abs_rt))
            return ETIMEDOUT;
        if (pth_self()) {
            pth_enter();
            weft_thread_sleep(50e-6);
            pth_leave();
        } else {
            struct timespec d = { 0, 50000 };
            nanosleep(&d, NULL);
        }
    }
    int rc = claim(r, t);
    if (rc != 0)
        return rc;
    void *v = release(r);
    if (ret)
        *ret = v;
    return 0;
}

PTH_API int pthread_tryjoin_np(pthread_t t, void **ret)
{
    pth_thread *r;
    if (pth_internal() || !pth_is_ours(t)) {
        __typeof__(&pthread_tryjoin_np) f = pth_real(pthread_tryjoin_np);
        return f ? f(t, ret) : ENOSYS;
    }
    if (!(r = pth_live(t)))
        return ESRCH;
    return join_until(r, t, ret, NULL);
}

PTH_API int pthread_timedjoin_np(pthread_t t, void **ret, const struct timespec *abs)
{
    pth_thread *r;
    if (pth_internal() || !pth_is_ours(t)) {
        __typeof__(&pthread_timedjoin_np) f = pth_real(pthread_timedjoin_np);
        return f ? f(t, ret, abs) : ENOSYS;
    }
    if (!(r = pth_live(t)))
        return ESRCH;
    if (!pth_ts_valid(abs))
        return EINVAL;
    return join_until(r, t, ret, abs);
}

PTH_API int pthread_detach(pthread_t t)
{
    pth_thread *r;
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_detach)(t);
    if (!(r = pth_live(t)))
        return ESRCH;
    if (r == &main_rec)
        return 0; /* the main thread is never joined here: nothing to free */
    /* Not when a joiner claimed it (it recycles the record) or it is detached already;
     * ESRCH when the id went stale meanwhile. */
    unsigned old = weft_atomic_load_relaxed(&r->state);
    do {
        if (old >> PTH_GEN_SHIFT != gen_of(t))
            return ESRCH;
        if (old & (PTH_F_DETACHED | PTH_F_JOINING))
            return EINVAL;
    } while (!weft_atomic_cas_weak_acq_rel(&r->state, &old, old | PTH_F_DETACHED));
    const unsigned all = PTH_F_DETACHED | PTH_F_FINISHED | PTH_F_PUBLISHED;
    if (((old | PTH_F_DETACHED) & all) == all)
        reap_push(r); /* it had finished: ours to hand over */
    return 0;
}

void pth_exit_rest(pth_thread *self)
{
    pth_finish(self, self->ret);
    if (self == &main_rec) {
        /* The process ends when its last thread does. */
        while (weft_atomic_load_acquire(&live) > 0) {
            pth_enter();
            weft_thread_sleep(200e-6);
            pth_leave();
        }
        exit(0);
    }
    pth_enter();
    finished(self);
    ABT_thread_exit();
    abort(); /* ABT_thread_exit does not return for a ULT */
}

PTH_API void pthread_exit(void *ret)
{
    pth_thread *self;
    if (pth_internal() || !(self = pth_self()))
        pth_real(pthread_exit)(ret);
    self->ret = ret;
    pth_cleanup_unwind(self); /* returns if no handler is pending */
    pth_exit_rest(self);
}

PTH_API pthread_t pthread_self(void)
{
    pth_thread *s;
    if (pth_internal() || !(s = pth_self()))
        return pth_real(pthread_self)();
    return pth_id(s);
}

PTH_API int pthread_equal(pthread_t a, pthread_t b) { return a == b; }

PTH_API int sched_yield(void)
{
    if (pth_internal() || weft_atomic_load_acquire(&run_state) != RUN_READY || !pth_self())
        return pth_real(sched_yield)();
    pth_enter();
    ABT_thread_yield();
    pth_leave();
    return 0;
}

/* ---- functions that take a pthread_t: what they mean for a ULT ---- */

PTH_API int pthread_getattr_np(pthread_t t, pthread_attr_t *attr)
{
    pth_thread *r;
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_getattr_np)(t, attr);
    if (!(r = pth_live(t)))
        return ESRCH;
    int rc = pthread_attr_init(attr);
    if (rc != 0)
        return rc;
    pthread_attr_setstacksize(attr, r->stacksize);
    unsigned st = weft_atomic_load_acquire(&r->state);
    pthread_attr_setdetachstate(attr, st & PTH_F_DETACHED ? PTHREAD_CREATE_DETACHED
                                                          : PTHREAD_CREATE_JOINABLE);
    return 0;
}

PTH_API int pthread_cancel(pthread_t t)
{
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_cancel)(t);
    if (!pth_live(t))
        return ESRCH;
    return ENOTSUP; /* cancellation of a ULT: not supported (documented) */
}

PTH_API int pthread_setname_np(pthread_t t, const char *name)
{
    pth_thread *r;
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_setname_np)(t, name);
    if (!(r = pth_live(t)))
        return ESRCH;
    if (strlen(name) >= sizeof r->name)
        return ERANGE;
    memcpy(r->name, name, strlen(name) + 1);
    return 0;
}

PTH_API int pthread_getname_np(pthread_t t, char *buf, size_t len)
{
    pth_thread *r;
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_getname_np)(t, buf, len);
    if (!(r = pth_live(t)))
        return ESRCH;
    size_t n = strnlen(r->name, sizeof r->name);
    if (len <= n)
        return ERANGE;
    memcpy(buf, r->name, n);
    buf[n] = 0;
    return 0;
}

PTH_API int pthread_getschedparam(pthread_t t, int *policy, struct sched_param *param)
{
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_getschedparam)(t, policy, param);
    if (!pth_live(t))
        return ESRCH;
    *policy = SCHED_OTHER; /* ULTs are scheduled by weft, in FIFO order */
    param->sched_priority = 0;
    return 0;
}

PTH_API int pthread_setschedparam(pthread_t t, int policy, const struct sched_param *param)
{
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_setschedparam)(t, policy, param);
    if (!pth_live(t))
        return ESRCH;
    return ENOTSUP;
}

PTH_API int pthread_setschedprio(pthread_t t, int prio)
{
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_setschedprio)(t, prio);
    if (!pth_live(t))
        return ESRCH;
    return ENOTSUP;
}

PTH_API int pthread_getcpuclockid(pthread_t t, clockid_t *clock)
{
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_getcpuclockid)(t, clock);
    if (!pth_live(t))
        return ESRCH;
    return ENOENT; /* a ULT has no CPU-time clock of its own */
}

PTH_API int pthread_setaffinity_np(pthread_t t, size_t size, const cpu_set_t *set)
{
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_setaffinity_np)(t, size, set);
    if (!pth_live(t))
        return ESRCH;
    return ENOTSUP; /* a ULT runs on any stream of the pool */
}

PTH_API int pthread_getaffinity_np(pthread_t t, size_t size, cpu_set_t *set)
{
    if (pth_internal() || !pth_is_ours(t))
        return pth_real(pthread_getaffinity_np)(t, size, set);
    if (!pth_live(t))
        return ESRCH;
    return sched_getaffinity(0, size, set) == 0 ? 0 : errno; /* any CPU of the process */
}

/* The same functions under weft_<name> (include/weft_pthread.h). */
PTH_ALIAS(pthread_cancel)
PTH_ALIAS(pthread_create)
PTH_ALIAS(pthread_detach)
PTH_ALIAS(pthread_equal)
PTH_ALIAS(pthread_exit)
PTH_ALIAS(pthread_getaffinity_np)
PTH_ALIAS(pthread_getattr_np)
PTH_ALIAS(pthread_getcpuclockid)
PTH_ALIAS(pthread_getname_np)
PTH_ALIAS(pthread_getschedparam)
PTH_ALIAS(pthread_join)
PTH_ALIAS(pthread_self)
PTH_ALIAS(pthread_setaffinity_np)
PTH_ALIAS(pthread_setname_np)
PTH_ALIAS(pthread_setschedparam)
PTH_ALIAS(pthread_setschedprio)
PTH_ALIAS(pthread_timedjoin_np)
PTH_ALIAS(pthread_tryjoin_np)
PTH_ALIAS(sched_yield)
