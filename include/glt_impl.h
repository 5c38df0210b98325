/* glt_impl.h - the definitions of every glt_* function, written once for both builds of
 * GLT on weft.  Not for direct inclusion: <fast_glt.h> includes it with GLT_FN = static
 * inline (header-only build), weft's src/glt/glt.c with GLT_FN = an exported definition
 * (libweft-glt).  The API and its contracts are documented in <glt.h>.
 *
 * State.  One struct glt_state_s (glt_state_) holds the team, the per-rank pool tables
 * read by the create paths, the malleability flags and the event table; a thread-local
 * pool (glt_tls_pool_) caches "the pool glt_ult_create uses on this OS thread".  The
 * includer defines both before including this file: libweft-glt as hidden symbols of the
 * library, fast_glt.h as weak symbols (one copy per linked executable or shared object,
 * however many translation units include it).
 *
 * Hot paths (what the 2% / 10% instruction budgets are spent on):
 *   glt_ult_create     load the TLS pool, test it, ABT_thread_create (first call on an OS
 *                      thread: ABT_xstream_self_rank and the table, then cached);
 *   glt_ult_create_to  compare dest with the team size, load to_pool[dest],
 *                      ABT_thread_create;
 *   glt_ult_join/free  NULL test, ABT_thread_join / ABT_thread_free.
 * The TLS cache stays valid for the life of the OS thread: a GLT thread's OS thread ends
 * when the thread is disabled or finalized (ABT_xstream_join), a revived or new stream
 * starts a new OS thread, and glt_finalize clears the caller's entry.  A ULT that resumes
 * on another OS thread may, with compilers that keep a TLS address across a call, read the
 * cache of the thread it left: its next glt_ult_create then goes to that thread's pool,
 * which is a valid pool of the team (placement only, never a stale pool). */
#ifndef GLT_IMPL_H_INCLUDED
#define GLT_IMPL_H_INCLUDED

#ifndef GLT_FN
#error "glt_impl.h is included by <fast_glt.h> or by libweft-glt, not directly"
#endif

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GLT_LIKELY_(x)   __builtin_expect(!!(x), 1)
#define GLT_UNLIKELY_(x) __builtin_expect(!!(x), 0)
#define GLT_COLD_        static __attribute__((noinline, cold, unused))
#define GLT_HELPER_      static inline __attribute__((unused))

#define GLT_EV_SLOTS_ 32 /* = GLT_EVENT_MAX_CALLBACKS */

struct glt_ev_slot_ {
    int used;
    int kind;
    GLT_bool (*ask)(void *, void *);
    void *ask_arg;
    GLT_bool (*act)(void *, void *);
    void *act_arg;
};

struct glt_state_s {
    int n;                   /* threads of the team; 0 when GLT is not initialised */
    ABT_pool *here_pool;     /* [n]: where create() pushes when called on thread rank */
    unsigned char *off;      /* [n]: 1 while thread rank is disabled (malleability) */
    ABT_mutex lock;          /* malleability and event-table changes */
    glt_team_t team;         /* what glt_get_team / main_team show */
    pthread_mutex_t ev_lock; /* event table: the tool bridge, add/del, raising (pthread_rwlock_t
                              * would need _POSIX_C_SOURCE, which a header cannot set) */
    uint64_t tool_mask;      /* ABT_TOOL_EVENT_THREAD_* bits registered with weft */
    struct glt_ev_slot_ ev[GLT_EV_SLOTS_];
    /* [GLT_MAX_THREADS]: where create_to(rank) and migrate_self_to(rank) push.  A fixed
     * table (not a pointer) so that create_to costs one load more than a native program's
     * pools[rank]: the 2% budget of the header-only build. */
    ABT_pool to_pool[GLT_MAX_THREADS];
};

/* The definitions, with the includer's linkage attributes (see the top of this file). */
GLT_STATE_ATTR_ struct glt_state_s glt_state_;
GLT_STATE_ATTR_ __thread ABT_pool glt_tls_pool_ __attribute__((tls_model("initial-exec")));
GLT_TEAM_ATTR_ glt_team_t *main_team;

/* ------------------------------------------------------------------------------------- */
/* Internal helpers                                                                      */
/* ------------------------------------------------------------------------------------- */

/* The pool glt_ult_create uses on this OS thread, found once: rank -> here_pool[rank]. */
GLT_COLD_ int glt_here_slow_(ABT_pool *pool)
{
    int rank, r;
    if (glt_state_.n == 0)
        return ABT_ERR_UNINITIALIZED;
    if ((r = ABT_xstream_self_rank(&rank)) != ABT_SUCCESS)
        return r;
    if (rank < 0 || rank >= glt_state_.n)
        return ABT_ERR_INV_XSTREAM;
    *pool = glt_state_.here_pool[rank];
    glt_tls_pool_ = *pool;
    return ABT_SUCCESS;
}

GLT_COLD_ int glt_bad_dest_(void *handle_out, int is_task)
{
    if (handle_out)
        *(ABT_thread *)handle_out = is_task ? ABT_TASK_NULL : ABT_THREAD_NULL;
    return glt_state_.n == 0 ? ABT_ERR_UNINITIALIZED : ABT_ERR_INV_ARG;
}

/* A positive integer from the environment: 0 absent, 1 read, -1 malformed. */
GLT_HELPER_ int glt_env_int_(const char *name, int *out)
{
    const char *s = getenv(name);
    if (!s)
        return 0;
    char *end;
    long v = strtol(s, &end, 10);
    while (*end == ' ' || *end == '\t')
        end++;
    if (end == s || *end != '\0' || v <= 0 || v > INT_MAX)
        return -1;
    *out = (int)v;
    return 1;
}

GLT_HELPER_ void glt_free_tables_(void)
{
    free(glt_state_.here_pool);
    free(glt_state_.off);
    free(glt_state_.team.team);
    free(glt_state_.team.pools);
    free(glt_state_.team.spools);
    free(glt_state_.team.sched);
    glt_state_.here_pool = NULL;
    memset(glt_state_.to_pool, 0, sizeof glt_state_.to_pool);
    glt_state_.off = NULL;
    memset(&glt_state_.team, 0, sizeof glt_state_.team);
}

/* ------------------------------------------------------------------------------------- */
/* 1. Setup                                                                              */
/* ------------------------------------------------------------------------------------- */

GLT_FN void glt_start(void) {}
GLT_FN void glt_end(void) {}

GLT_FN int glt_init(int argc, char *argv[])
{
    if (glt_state_.n != 0)
        return ABT_ERR_OTHER;
    int n = 0, np = 0, glto = 0, e;
    if ((e = glt_env_int_("GLTO_NUM_THREADS", &n)) < 0)
        return ABT_ERR_INV_ARG;
    if (e > 0) {
        glto = 1;
        np = n;
    } else {
        if ((e = glt_env_int_("GLT_NUM_THREADS", &n)) < 0)
            return ABT_ERR_INV_ARG;
        if (e == 0) {
            long c = sysconf(_SC_NPROCESSORS_ONLN);
            n = c > 0 && c < INT_MAX ? (int)c : 1;
        }
        if ((e = glt_env_int_("GLT_NUM_POOLS", &np)) < 0)
            return ABT_ERR_INV_ARG;
        if (e == 0 || np > n)
            np = n;
    }
    if (n > GLT_MAX_THREADS)
        return ABT_ERR_INV_ARG;
    int r = ABT_init(argc, argv);
    if (r != ABT_SUCCESS)
        return r;
    int self_rank = -1;
    if ((r = ABT_xstream_self_rank(&self_rank)) != ABT_SUCCESS || self_rank != 0) {
        ABT_finalize();
        return r != ABT_SUCCESS ? r : ABT_ERR_INV_XSTREAM;
    }
    glt_team_t *t = &glt_state_.team;
    size_t un = (size_t)n;
    glt_state_.here_pool = (ABT_pool *)calloc(un, sizeof(ABT_pool));
    glt_state_.off = (unsigned char *)calloc(un, 1);
    t->team = (ABT_xstream *)calloc(un, sizeof(ABT_xstream));
    t->pools = (ABT_pool *)calloc(un, sizeof(ABT_pool));
    t->sched = (ABT_sched *)calloc(un, sizeof(ABT_sched));
    t->spools = glto ? (ABT_pool *)calloc(un, sizeof(ABT_pool)) : NULL;
    ABT_pool *list = glto ? (ABT_pool *)calloc(un + 1, sizeof(ABT_pool)) : NULL;
    if (!glt_state_.here_pool || !glt_state_.off || !t->team || !t->pools || !t->sched ||
        (glto && (!t->spools || !list))) {
        free(list);
        glt_free_tables_();
        ABT_finalize();
        return ABT_ERR_MEM;
    }
    t->num_xstreams = n;
    t->num_pools = np;
    t->max_elem = n;
    t->glto = glto;
    for (int i = 0; i < n; i++)
        t->team[i] = ABT_XSTREAM_NULL;

    /* Pools and schedulers.  Each pool is handed to a scheduler right after it is made
     * (automatic pools go with their last scheduler), so a failure frees the schedulers
     * made so far and the one pool not yet handed over. */
    int ns = 0; /* schedulers made: t->sched[0..ns-1] */
    if (!glto) {
        for (int i = 0; i < n && r == ABT_SUCCESS; i++) {
            int fresh = i < np;
            if (fresh && (r = ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE,
                                                    &t->pools[i])) != ABT_SUCCESS)
                break;
            r = ABT_sched_create_basic(ABT_SCHED_DEFAULT, 1, &t->pools[i % np],
                                       ABT_SCHED_CONFIG_NULL, &t->sched[i]);
            if (r != ABT_SUCCESS) {
                if (fresh)
                    ABT_pool_free(&t->pools[i]);
                break;
            }
            ns++;
            glt_state_.to_pool[i] = glt_state_.here_pool[i] = t->pools[i % np];
        }
    } else {
        int made = 0; /* pools made and not yet handed to a scheduler */
        for (int i = 0; i < n; i++, made++)
            if ((r = ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE,
                                           &t->spools[i])) != ABT_SUCCESS)
                break;
        /* The private pools are MPMC although only thread i's scheduler lists pool i: a
         * spare that serves thread i while it blocks (weft_blocking_begin) pops only the
         * pools that several streams may pop, and runs their units with rank i. */
        int priv0 = 0;
        if (r == ABT_SUCCESS) {
            r = ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &t->pools[0]);
            priv0 = r == ABT_SUCCESS;
        }
        for (int i = 0; i < n && r == ABT_SUCCESS; i++) {
            if (i > 0 && (r = ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE,
                                                    &t->pools[i])) != ABT_SUCCESS)
                break;
            list[0] = t->pools[i];
            for (int k = 0; k < n; k++)
                list[1 + k] = t->spools[(i + k) % n];
            r = ABT_sched_create_basic(ABT_SCHED_RANDWS, n + 1, list, ABT_SCHED_CONFIG_NULL,
                                       &t->sched[i]);
            if (r != ABT_SUCCESS) {
                if (i > 0)
                    ABT_pool_free(&t->pools[i]);
                break;
            }
            ns++;
            glt_state_.to_pool[i] = t->pools[i];
            glt_state_.here_pool[i] = t->spools[i];
        }
        if (ns == 0) { /* nothing handed over: the shared pools and pools[0] are ours */
            for (int i = 0; i < made; i++)
                ABT_pool_free(&t->spools[i]);
            if (priv0)
                ABT_pool_free(&t->pools[0]);
        }
    }
    free(list);

    /* Streams 1..n-1 with ranks 1..n-1, then thread 0's main scheduler. */
    int nx = 1; /* streams made: team[1..nx-1] */
    if (r == ABT_SUCCESS) {
        for (; nx < n; nx++)
            if ((r = ABT_xstream_create_with_rank(t->sched[nx], nx, &t->team[nx])) != ABT_SUCCESS)
                break;
    }
    if (r == ABT_SUCCESS) {
        ABT_xstream_self(&t->team[0]);
        r = ABT_xstream_set_main_sched(t->team[0], t->sched[0]);
    }
    if (r != ABT_SUCCESS) {
        for (int i = 1; i < nx; i++)
            ABT_xstream_free(&t->team[i]);
        for (int i = (nx > 1 ? nx : 0); i < ns; i++)
            ABT_sched_free(&t->sched[i]);
        if (nx > 1 && ns > 0)
            ABT_sched_free(&t->sched[0]);
        glt_free_tables_();
        ABT_finalize();
        return r;
    }
    if ((r = ABT_mutex_create(&glt_state_.lock)) != ABT_SUCCESS)
        goto fail_started;
    if (pthread_mutex_init(&glt_state_.ev_lock, NULL) != 0) {
        ABT_mutex_free(&glt_state_.lock);
        r = ABT_ERR_SYS;
        goto fail_started;
    }
    memset(glt_state_.ev, 0, sizeof glt_state_.ev);
    glt_state_.tool_mask = 0;
    t->master = t->team[0];
    glt_tls_pool_ = glt_state_.here_pool[0];
    main_team = t;
    __atomic_store_n(&glt_state_.n, n, __ATOMIC_RELEASE);
    return ABT_SUCCESS;

fail_started:
    for (int i = 1; i < n; i++)
        ABT_xstream_free(&t->team[i]);
    glt_free_tables_();
    ABT_finalize();
    return r;
}

GLT_FN int glt_finalize(void)
{
    int n = glt_state_.n, rank = -1, r;
    if (n == 0)
        return ABT_ERR_UNINITIALIZED;
    if ((r = ABT_xstream_self_rank(&rank)) != ABT_SUCCESS)
        return r;
    if (rank != 0) {
        /* With GLT_NUM_POOLS < threads, pool 0 is shared: a runtime may let another thread
         * run the primary ULT after it yielded or blocked.  The primary ULT waits for
         * thread 0 to run it again (pool 0 is always served by thread 0); any other unit
         * is refused. */
        ABT_bool primary = ABT_FALSE;
        if (ABT_self_is_primary(&primary) != ABT_SUCCESS || !primary)
            return ABT_ERR_INV_XSTREAM;
        while (rank != 0) {
            ABT_thread_yield();
            if ((r = ABT_xstream_self_rank(&rank)) != ABT_SUCCESS)
                return r;
        }
    }
    int first = ABT_SUCCESS;
    if (glt_state_.tool_mask) {
        ABT_tool_register_thread_callback(NULL, 0, NULL);
        glt_state_.tool_mask = 0;
    }
    for (int i = 1; i < n; i++) {
        r = ABT_xstream_free(&glt_state_.team.team[i]);
        if (r != ABT_SUCCESS && first == ABT_SUCCESS)
            first = r;
    }
    ABT_mutex_free(&glt_state_.lock);
    pthread_mutex_destroy(&glt_state_.ev_lock);
    __atomic_store_n(&glt_state_.n, 0, __ATOMIC_RELEASE);
    main_team = NULL;
    glt_tls_pool_ = (ABT_pool)0;
    glt_free_tables_();
    r = ABT_finalize();
    return first != ABT_SUCCESS ? first : r;
}

GLT_FN glt_team_t *glt_get_team(void) { return glt_state_.n ? &glt_state_.team : NULL; }

/* ------------------------------------------------------------------------------------- */
/* 2. Work units                                                                         */
/* ------------------------------------------------------------------------------------- */

GLT_FN GLT_ult *glt_ult_malloc(int number_of_ult)
{
    return number_of_ult > 0 ? (GLT_ult *)malloc(sizeof(GLT_ult) * (size_t)number_of_ult) : NULL;
}

GLT_FN GLT_tasklet *glt_tasklet_malloc(int number_of_tasklets)
{
    return number_of_tasklets > 0
               ? (GLT_tasklet *)malloc(sizeof(GLT_tasklet) * (size_t)number_of_tasklets)
               : NULL;
}

GLT_FN int glt_ult_create(void (*thread_func)(void *), void *arg, GLT_ult *new_ult)
{
    ABT_pool pool = glt_tls_pool_;
    if (GLT_UNLIKELY_(pool == (ABT_pool)0)) {
        int r = glt_here_slow_(&pool);
        if (r != ABT_SUCCESS) {
            if (new_ult)
                *new_ult = ABT_THREAD_NULL;
            return r;
        }
    }
    return ABT_thread_create(pool, thread_func, arg, ABT_THREAD_ATTR_NULL, new_ult);
}

GLT_FN int glt_ult_create_to(void (*thread_func)(void *), void *arg, GLT_ult *new_ult, int dest)
{
    if (GLT_UNLIKELY_((unsigned)dest >= (unsigned)glt_state_.n))
        return glt_bad_dest_(new_ult, 0);
    return ABT_thread_create(glt_state_.to_pool[dest], thread_func, arg, ABT_THREAD_ATTR_NULL,
                             new_ult);
}

GLT_FN int glt_tasklet_create(void (*thread_func)(void *), void *arg, GLT_tasklet *new_ult)
{
    ABT_pool pool = glt_tls_pool_;
    if (GLT_UNLIKELY_(pool == (ABT_pool)0)) {
        int r = glt_here_slow_(&pool);
        if (r != ABT_SUCCESS) {
            if (new_ult)
                *new_ult = ABT_TASK_NULL;
            return r;
        }
    }
    return ABT_task_create(pool, thread_func, arg, new_ult);
}

GLT_FN int glt_tasklet_create_to(void (*thread_func)(void *), void *arg, GLT_tasklet *new_ult,
                                 int dest)
{
    if (GLT_UNLIKELY_((unsigned)dest >= (unsigned)glt_state_.n))
        return glt_bad_dest_(new_ult, 1);
    return ABT_task_create(glt_state_.to_pool[dest], thread_func, arg, new_ult);
}

GLT_FN int glt_yield(void) { return ABT_thread_yield(); }
GLT_FN int glt_yield_to(GLT_ult ult) { return ABT_thread_yield_to(ult); }

GLT_FN int glt_ult_join(GLT_ult *ult)
{
    if (GLT_UNLIKELY_(!ult))
        return ABT_ERR_INV_ARG;
    return ABT_thread_join(*ult);
}

GLT_FN int glt_tasklet_join(GLT_tasklet *tasklet)
{
    if (GLT_UNLIKELY_(!tasklet))
        return ABT_ERR_INV_ARG;
    return ABT_task_join(*tasklet);
}

GLT_FN int glt_ult_free(GLT_ult *ult) { return ABT_thread_free(ult); }
GLT_FN int glt_tasklet_free(GLT_tasklet *tasklet) { return ABT_task_free(tasklet); }
GLT_FN int glt_ult_get_id(GLT_ult_id *id, GLT_ult ult) { return ABT_thread_get_id(ult, id); }
GLT_FN int glt_workunit_get_thread_id(GLT_thread_id *id) { return ABT_xstream_self_rank(id); }

GLT_FN int glt_ult_migrate_self_to(GLT_thread_id id)
{
    if ((unsigned)id >= (unsigned)glt_state_.n)
        return glt_state_.n == 0 ? ABT_ERR_UNINITIALIZED : ABT_ERR_INV_ARG;
    ABT_thread self;
    int r = ABT_thread_self(&self);
    if (r != ABT_SUCCESS)
        return r;
    return ABT_thread_migrate_to_pool(self, glt_state_.to_pool[id]);
}

GLT_FN int glt_ult_self(GLT_ult *ult) { return ABT_thread_self(ult); }
GLT_FN int glt_tasklet_self(GLT_tasklet *tasklet) { return ABT_task_self(tasklet); }
GLT_FN int glt_ult_cancel(GLT_ult ult) { return ABT_thread_cancel(ult); }
GLT_FN int glt_tasklet_cancel(GLT_tasklet tasklet) { return ABT_task_cancel(tasklet); }
GLT_FN int glt_ult_exit(void) { return ABT_thread_exit(); }

/* ------------------------------------------------------------------------------------- */
/* 3-5. Mutex, barrier, condition                                                        */
/* ------------------------------------------------------------------------------------- */

GLT_FN int glt_mutex_create(GLT_mutex *mutex) { return ABT_mutex_create(mutex); }
GLT_FN int glt_mutex_free(GLT_mutex *mutex) { return ABT_mutex_free(mutex); }
GLT_FN int glt_mutex_lock(GLT_mutex mutex) { return ABT_mutex_lock(mutex); }
GLT_FN int glt_mutex_unlock(GLT_mutex mutex) { return ABT_mutex_unlock(mutex); }
GLT_FN int glt_mutex_trylock(GLT_mutex mutex) { return ABT_mutex_trylock(mutex); }
GLT_FN int glt_mutex_spinlock(GLT_mutex mutex) { return ABT_mutex_spinlock(mutex); }

GLT_FN int glt_barrier_create(int num_waiters, GLT_barrier *barrier)
{
    if (num_waiters <= 0) {
        if (barrier)
            *barrier = ABT_BARRIER_NULL;
        return ABT_ERR_INV_ARG;
    }
    return ABT_barrier_create((uint32_t)num_waiters, barrier);
}

GLT_FN int glt_barrier_free(GLT_barrier *barrier) { return ABT_barrier_free(barrier); }

GLT_FN int glt_barrier_wait(GLT_barrier *barrier)
{
    if (GLT_UNLIKELY_(!barrier))
        return ABT_ERR_INV_ARG;
    return ABT_barrier_wait(*barrier);
}

GLT_FN int glt_cond_create(GLT_cond *cond) { return ABT_cond_create(cond); }
GLT_FN int glt_cond_free(GLT_cond *cond) { return ABT_cond_free(cond); }
GLT_FN int glt_cond_signal(GLT_cond cond) { return ABT_cond_signal(cond); }
GLT_FN int glt_cond_wait(GLT_cond cond, GLT_mutex mutex) { return ABT_cond_wait(cond, mutex); }
GLT_FN int glt_cond_broadcast(GLT_cond cond) { return ABT_cond_broadcast(cond); }

/* ------------------------------------------------------------------------------------- */
/* 6-7. Util, timer, keys                                                                */
/* ------------------------------------------------------------------------------------- */

GLT_FN int glt_get_thread_num(void)
{
    int rank, r = ABT_xstream_self_rank(&rank);
    return r == ABT_SUCCESS ? rank : -r;
}

GLT_FN int glt_get_num_threads(void)
{
    int n = glt_state_.n;
    return n ? n : -ABT_ERR_UNINITIALIZED;
}

GLT_FN double glt_get_wtime(void) { return ABT_get_wtime(); }
GLT_FN int glt_timer_create(GLT_timer *timer) { return ABT_timer_create(timer); }
GLT_FN int glt_timer_free(GLT_timer *timer) { return ABT_timer_free(timer); }
GLT_FN int glt_timer_start(GLT_timer timer) { return ABT_timer_start(timer); }
GLT_FN int glt_timer_stop(GLT_timer timer) { return ABT_timer_stop(timer); }
GLT_FN int glt_timer_get_secs(GLT_timer timer, double *secs) { return ABT_timer_read(timer, secs); }

GLT_FN int glt_key_create(void (*destructor)(void *value), GLT_key *newkey)
{
    return ABT_key_create(destructor, newkey);
}
GLT_FN int glt_key_free(GLT_key *key) { return ABT_key_free(key); }
GLT_FN int glt_key_set(GLT_key key, void *value) { return ABT_key_set(key, value); }
GLT_FN int glt_key_get(GLT_key key, void **value) { return ABT_key_get(key, value); }

#ifndef CORE
/* ------------------------------------------------------------------------------------- */
/* Capability queries                                                                    */
/* ------------------------------------------------------------------------------------- */

GLT_FN int glt_can_event_functions(void) { return 1; }
GLT_FN int glt_can_future_functions(void) { return 1; }
GLT_FN int glt_can_manage_scheduler(void) { return 1; }
GLT_FN int glt_can_malleability(void) { return 1; }
GLT_FN int glt_can_scheduler(void) { return 1; }

/* ------------------------------------------------------------------------------------- */
/* Extras: scheduler                                                                     */
/* ------------------------------------------------------------------------------------- */

/* The first pool of each listed thread, in a malloc'ed array the caller frees. */
GLT_HELPER_ int glt_pools_of_(int num_threads, const int *threads_id, ABT_sched *newsched,
                              ABT_pool **out)
{
    if (newsched)
        *newsched = ABT_SCHED_NULL;
    if (!newsched || num_threads <= 0 || !threads_id)
        return ABT_ERR_INV_ARG;
    if (glt_state_.n == 0)
        return ABT_ERR_UNINITIALIZED;
    ABT_pool *p = (ABT_pool *)malloc(sizeof(ABT_pool) * (size_t)num_threads);
    if (!p)
        return ABT_ERR_MEM;
    for (int i = 0; i < num_threads; i++) {
        if ((unsigned)threads_id[i] >= (unsigned)glt_state_.n) {
            free(p);
            return ABT_ERR_INV_ARG;
        }
        p[i] = glt_state_.to_pool[threads_id[i]];
    }
    *out = p;
    return ABT_SUCCESS;
}

GLT_FN int glt_scheduler_config_free(GLT_sched_config *config)
{
    return ABT_sched_config_free(config);
}

GLT_FN int glt_scheduler_create(GLT_sched_def *def, int num_threads, int *threads_id,
                                GLT_sched_config config, GLT_sched *newsched)
{
    ABT_pool *p;
    int r = glt_pools_of_(num_threads, threads_id, newsched, &p);
    if (r != ABT_SUCCESS)
        return r;
    r = ABT_sched_create(def, num_threads, p, config, newsched);
    free(p);
    return r;
}

GLT_FN int glt_schededuler_create_basic(GLT_sched_predef predef, int num_threads, int *threads_id,
                                        GLT_sched_config config, GLT_sched *newsched)
{
    ABT_pool *p;
    int r = glt_pools_of_(num_threads, threads_id, newsched, &p);
    if (r != ABT_SUCCESS)
        return r;
    r = ABT_sched_create_basic(predef, num_threads, p, config, newsched);
    free(p);
    return r;
}

GLT_FN int glt_scheduler_create_basic(GLT_sched_predef predef, int num_threads, int *threads_id,
                                      GLT_sched_config config, GLT_sched *newsched)
{
    return glt_schededuler_create_basic(predef, num_threads, threads_id, config, newsched);
}

GLT_FN int glt_scheduler_free(GLT_sched *sched) { return ABT_sched_free(sched); }
GLT_FN int glt_scheduler_finish(GLT_sched sched) { return ABT_sched_finish(sched); }
GLT_FN int glt_scheduler_exit(GLT_sched sched) { return ABT_sched_exit(sched); }
GLT_FN int glt_scheduler_has_to_stop(GLT_sched sched, GLT_bool *stop)
{
    return ABT_sched_has_to_stop(sched, stop);
}
GLT_FN int glt_scheduler_set_data(GLT_sched sched, void *data)
{
    return ABT_sched_set_data(sched, data);
}
GLT_FN int glt_scheduler_get_data(GLT_sched sched, void **data)
{
    return ABT_sched_get_data(sched, data);
}
GLT_FN int glt_scheduler_get_size(GLT_sched sched, size_t *size)
{
    return ABT_sched_get_size(sched, size);
}
GLT_FN int glt_scheduler_get_total_size(GLT_sched sched, size_t *size)
{
    return ABT_sched_get_total_size(sched, size);
}

/* ------------------------------------------------------------------------------------- */
/* Extras: error string, future                                                          */
/* ------------------------------------------------------------------------------------- */

GLT_FN int glt_get_error_str(int err, char *str, size_t *len)
{
    return ABT_error_get_str(err, str, len);
}

GLT_FN int glt_future_create(int nbytes, GLT_future *newfuture)
{
    return ABT_eventual_create(nbytes, newfuture);
}
GLT_FN int glt_future_free(GLT_future *future) { return ABT_eventual_free(future); }
GLT_FN int glt_future_wait(GLT_future future, void **value)
{
    return ABT_eventual_wait(future, value);
}
GLT_FN int glt_future_set(GLT_future future, void *value, int nbytes)
{
    return ABT_eventual_set(future, value, nbytes);
}

/* ------------------------------------------------------------------------------------- */
/* Extras: events                                                                        */
/*                                                                                       */
/* A table of GLT_EV_SLOTS_ registrations under ev_lock.  The XSTREAM kinds are raised   */
/* by the malleability functions below; the ULT kinds by one weft tool callback (the     */
/* bridge), registered with the union of the ULT kinds' bits whenever the table changes. */
/* add, del, the bridge and the raising all hold ev_lock, so once del returns its        */
/* callbacks are not running and will not run.  (Events of different streams serialise  */
/* on it while a ULT kind is registered: a tool's cost, never the plain paths'.)         */
/* ------------------------------------------------------------------------------------- */

GLT_HELPER_ uint64_t glt_ev_bit_(int kind)
{
    return kind >= GLT_EVENT_ULT_CREATE && kind <= GLT_EVENT_ULT_RESUME
               ? (uint64_t)1 << (kind - GLT_EVENT_ULT_CREATE)
               : 0;
}

GLT_HELPER_ void glt_ev_bridge_(ABT_thread thread, ABT_xstream xstream, uint64_t event,
                                ABT_tool_context context, void *user_arg)
{
    (void)xstream;
    (void)context;
    (void)user_arg;
    pthread_mutex_lock(&glt_state_.ev_lock);
    for (int i = 0; i < GLT_EV_SLOTS_; i++) {
        struct glt_ev_slot_ *s = &glt_state_.ev[i];
        if (!s->used || glt_ev_bit_(s->kind) != event)
            continue;
        if (s->ask && !s->ask(s->ask_arg, (void *)thread))
            continue;
        if (s->act)
            s->act(s->act_arg, (void *)thread);
    }
    pthread_mutex_unlock(&glt_state_.ev_lock);
}

/* ev_lock held for writing: register the bridge for the ULT kinds in the table. */
GLT_HELPER_ int glt_ev_sync_tool_(void)
{
    uint64_t mask = 0;
    for (int i = 0; i < GLT_EV_SLOTS_; i++)
        if (glt_state_.ev[i].used)
            mask |= glt_ev_bit_(glt_state_.ev[i].kind);
    if (mask == glt_state_.tool_mask)
        return ABT_SUCCESS;
    int r = ABT_tool_register_thread_callback(mask ? glt_ev_bridge_ : NULL, mask, NULL);
    if (r == ABT_SUCCESS)
        glt_state_.tool_mask = mask;
    return r;
}

/* Raise an XSTREAM kind: 1 if every ask callback agreed (ask pass), act pass returns 1. */
GLT_HELPER_ int glt_ev_raise_(int kind, int rank, int ask_pass)
{
    int ok = 1;
    pthread_mutex_lock(&glt_state_.ev_lock);
    for (int i = 0; i < GLT_EV_SLOTS_ && ok; i++) {
        struct glt_ev_slot_ *s = &glt_state_.ev[i];
        if (!s->used || s->kind != kind)
            continue;
        if (ask_pass) {
            if (s->ask && !s->ask(s->ask_arg, (void *)(intptr_t)rank))
                ok = 0;
        } else if (s->act) {
            s->act(s->act_arg, (void *)(intptr_t)rank);
        }
    }
    pthread_mutex_unlock(&glt_state_.ev_lock);
    return ok;
}

GLT_FN int glt_event_add_callbac(GLT_event_kind event, GLT_event_cb_fn ask_cb, void *ask_user_arg,
                                 GLT_event_cb_fn act_cb, void *act_user_arg, int *cb_id)
{
    if (cb_id)
        *cb_id = -1;
    if (!cb_id || (!ask_cb && !act_cb) || (int)event < 0 || (int)event > GLT_EVENT_ULT_RESUME)
        return ABT_ERR_INV_ARG;
    if (glt_state_.n == 0)
        return ABT_ERR_UNINITIALIZED;
    if (glt_ev_bit_((int)event)) {
        int on = ABT_FALSE;
        if (ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_TOOL, &on) != ABT_SUCCESS || !on)
            return GLT_ERR_NOT_SUPPORTED;
    }
    pthread_mutex_lock(&glt_state_.ev_lock);
    int slot = -1, r = ABT_SUCCESS;
    for (int i = 0; i < GLT_EV_SLOTS_ && slot < 0; i++)
        if (!glt_state_.ev[i].used)
            slot = i;
    if (slot < 0) {
        r = ABT_ERR_MEM;
    } else {
        struct glt_ev_slot_ *s = &glt_state_.ev[slot];
        s->kind = (int)event;
        s->ask = ask_cb;
        s->ask_arg = ask_user_arg;
        s->act = act_cb;
        s->act_arg = act_user_arg;
        s->used = 1;
        if ((r = glt_ev_sync_tool_()) != ABT_SUCCESS)
            s->used = 0;
        else
            *cb_id = slot;
    }
    pthread_mutex_unlock(&glt_state_.ev_lock);
    return r == ABT_ERR_FEATURE_NA ? GLT_ERR_NOT_SUPPORTED : r;
}

GLT_FN int glt_event_add_callback(GLT_event_kind event, GLT_event_cb_fn ask_cb, void *ask_user_arg,
                                  GLT_event_cb_fn act_cb, void *act_user_arg, int *cb_id)
{
    return glt_event_add_callbac(event, ask_cb, ask_user_arg, act_cb, act_user_arg, cb_id);
}

GLT_FN int glt_event_del_callback(GLT_event_kind event, int cb_id)
{
    if (glt_state_.n == 0)
        return ABT_ERR_UNINITIALIZED;
    if (cb_id < 0 || cb_id >= GLT_EV_SLOTS_)
        return ABT_ERR_INV_ARG;
    pthread_mutex_lock(&glt_state_.ev_lock);
    struct glt_ev_slot_ *s = &glt_state_.ev[cb_id];
    int r = ABT_SUCCESS;
    if (!s->used || s->kind != (int)event) {
        r = ABT_ERR_INV_ARG;
    } else {
        s->used = 0;
        if ((r = glt_ev_sync_tool_()) != ABT_SUCCESS)
            s->used = 1;
    }
    pthread_mutex_unlock(&glt_state_.ev_lock);
    return r;
}

/* ------------------------------------------------------------------------------------- */
/* Extras: malleability                                                                  */
/*                                                                                       */
/* Disabling thread i joins its stream (it runs what is queued in its pools, then its OS */
/* thread ends; its scheduler and pools stay), enabling revives it (a new OS thread over */
/* the same scheduler and pools).  Handles and pools never change, so the create paths   */
/* need no check.  State changes are serialised by state.lock.                           */
/* ------------------------------------------------------------------------------------- */

GLT_FN int glt_thread_disable_id(int thread_id)
{
    int n = glt_state_.n, self = -1, r;
    if (n == 0)
        return ABT_ERR_UNINITIALIZED;
    if ((unsigned)thread_id >= (unsigned)n)
        return ABT_ERR_INV_ARG;
    if (thread_id == 0 || (ABT_xstream_self_rank(&self) == ABT_SUCCESS && self == thread_id))
        return ABT_ERR_INV_XSTREAM;
    if ((r = ABT_mutex_lock(glt_state_.lock)) != ABT_SUCCESS)
        return r;
    if (!glt_state_.off[thread_id]) {
        if (!glt_ev_raise_(GLT_EVENT_STOP_XSTREAM, thread_id, 1)) {
            r = ABT_ERR_XSTREAM;
        } else if ((r = ABT_xstream_join(glt_state_.team.team[thread_id])) == ABT_SUCCESS) {
            glt_state_.off[thread_id] = 1;
            glt_ev_raise_(GLT_EVENT_STOP_XSTREAM, thread_id, 0);
        }
    }
    ABT_mutex_unlock(glt_state_.lock);
    return r;
}

GLT_FN int glt_thread_enable_id(int thread_id)
{
    int n = glt_state_.n, r;
    if (n == 0)
        return ABT_ERR_UNINITIALIZED;
    if ((unsigned)thread_id >= (unsigned)n)
        return ABT_ERR_INV_ARG;
    if ((r = ABT_mutex_lock(glt_state_.lock)) != ABT_SUCCESS)
        return r;
    if (glt_state_.off[thread_id]) {
        if ((r = ABT_xstream_revive(glt_state_.team.team[thread_id])) == ABT_SUCCESS) {
            glt_state_.off[thread_id] = 0;
            glt_ev_raise_(GLT_EVENT_ADD_XSTREAM, thread_id, 0);
        }
    }
    ABT_mutex_unlock(glt_state_.lock);
    return r;
}

GLT_FN int glt_thread_enable(void)
{
    int n = glt_state_.n, r;
    if (n == 0)
        return ABT_ERR_UNINITIALIZED;
    for (int i = 1; i < n; i++)
        if ((r = glt_thread_enable_id(i)) != ABT_SUCCESS)
            return r;
    return ABT_SUCCESS;
}

GLT_FN int glt_thread_disable(void)
{
    int n = glt_state_.n, self = -1, r;
    if (n == 0)
        return ABT_ERR_UNINITIALIZED;
    ABT_xstream_self_rank(&self);
    for (int i = 1; i < n; i++)
        if (i != self && (r = glt_thread_disable_id(i)) != ABT_SUCCESS)
            return r;
    return ABT_SUCCESS;
}
#endif /* !CORE */

#endif /* GLT_IMPL_H_INCLUDED */
