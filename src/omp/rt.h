/* src/omp/rt.h - the OpenMP face's types and the calls its files share.
 *
 * Map of the structs (docs/design/omp.md):
 *   wo_icv   - the ICVs of one data environment (a task): copied into each new task.
 *   wo_thr   - one OpenMP thread: its team, number, level, current task, worksharing
 *              position and its queue of ready tasks.  Worker threads live inside their
 *              team (team->thr[i]); the initial thread of an OS thread or of a foreign
 *              ULT lives on its own.  Which wo_thr the caller is: the identity cell in
 *              the ULT-local key wo_key (a ULT; cached per OS thread, see wo_self),
 *              else the OS-thread variable wo_tls_cur (an external thread).
 *   wo_team  - a parallel region: nthreads wo_thr, a barrier, the worksharing chain,
 *              the region's fields the workers set themselves up from.  Owned by the
 *              thread that created it (its master's parent thread caches it in
 *              wo_thr.child for the next region).
 *   wo_ws    - one worksharing construct (loop, sections, single) in the team's chain;
 *              every thread walks the chain in the same order, the first to reach a
 *              link creates it (team->ws_lock).  Reclaimed by the barrier that follows.
 *   wo_task  - an explicit task (or the implicit task embedded in wo_thr).
 *
 * Every OpenMP thread of every team is a weft ULT (the master's share runs on the
 * encountering ULT or OS thread).  Waits (barrier, taskwait, taskgroup, single copy,
 * region end) spin briefly, run queued tasks, and then park the ULT on the team's
 * ABT_cond: the stream runs other ULTs or sleeps.
 *
 * Names.  omp_* and OMP_* belong to omp.h (the API and its environment variables) and
 * GOMP_* to the libgomp ABI; the face's own names carry wo_ (WO_ for macros and
 * constants), as libweft-mpi's carry wm_.  Core is reached through core/face.h only. */
#ifndef WEFT_OMP_RT_H
#define WEFT_OMP_RT_H

#include <abt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/atomic.h"
#include "arch/cpu.h"
#include "arch/spinlock.h"
#include "core/face.h"

#define WO_API __attribute__((visibility("default")))

/* Schedule kinds (omp_sched_t values; GOMP_loop_start's `sched` uses the same numbers,
 * 0 = runtime). */
enum {
    WO_S_RUNTIME = 0,
    WO_S_STATIC = 1,
    WO_S_DYNAMIC = 2,
    WO_S_GUIDED = 3,
    WO_S_AUTO = 4,
    WO_S_MONOTONIC = (int)0x80000000u,
};

struct wo_icv {
    int nthreads;        /* nthreads-var (first element for the next level) */
    int nt_pos;          /* index in g_env.nt_list of nthreads, -1 when set by API */
    int dyn;             /* dyn-var */
    int run_sched;       /* run-sched-var kind (with WO_S_MONOTONIC bit) */
    long run_chunk;      /* run-sched-var chunk (0: default) */
    int bind;            /* bind-var (omp_proc_bind_t) */
    int default_device;  /* default-device-var */
    int thread_limit;    /* thread-limit-var */
    uintptr_t def_alloc; /* def-allocator-var: an omp_allocator_handle_t, never 0 */
};

/* Global settings read from the environment once (env.c). */
struct wo_env {
    struct wo_icv icv;     /* initial ICVs */
    int max_active_levels; /* max-active-levels-var (one per device since 5.0) */
    int *nt_list;          /* OMP_NUM_THREADS list */
    int nt_len;
    int *bind_list; /* OMP_PROC_BIND list */
    int bind_len;
    bool cancel;            /* OMP_CANCELLATION */
    int max_task_priority;  /* OMP_MAX_TASK_PRIORITY */
    int nteams;             /* nteams-var (OMP_NUM_TEAMS, omp_set_num_teams), 0: default */
    int teams_thread_limit; /* teams-thread-limit-var (OMP_TEAMS_THREAD_LIMIT), 0: none */
    size_t stacksize;       /* OMP_STACKSIZE, 0: unset */
    size_t thread_stack;    /* the stack of a worker ULT (env.c, wo_thread_stack) */
    int wait_policy;        /* -1 unset, 0 passive, 1 active */
    uint64_t spin;          /* busy-wait iterations before parking */
    bool display_env;       /* OMP_DISPLAY_ENV=true/verbose */
    bool display_verbose;
    bool display_affinity; /* OMP_DISPLAY_AFFINITY */
    int num_procs;         /* CPUs of the process affinity mask */
    char *places;          /* OMP_PLACES as given (NULL: unset) */
    int nplaces;           /* number of places (1 per CPU by default) */
    int *place_off;        /* place i's CPUs: place_cpus[place_off[i] .. place_off[i+1]) */
    int *place_cpus;
};
extern struct wo_env g_env __attribute__((visibility("hidden")));

typedef struct wo_taskgroup wo_taskgroup;
typedef struct wo_task wo_task;
typedef struct wo_team wo_team;
typedef struct wo_thr wo_thr;
typedef struct wo_ws wo_ws;
struct wo_deps;

struct wo_taskgroup {
    wo_taskgroup *prev; /* enclosing group of the same task */
    _Atomic long count; /* tasks of the group (and descendants) not finished */
    _Atomic int cancelled;
    uintptr_t *reductions; /* task reductions registered on this group (chain) */
};

struct wo_task {
    wo_task *next, *prev; /* links in a thread's ready queue (its q_lock) */
    void (*fn)(void *);
    void *data;
    wo_task *parent;       /* the generating task; kept alive by refs */
    wo_taskgroup *group;   /* the group this task counts in, or NULL */
    wo_taskgroup *tg_open; /* innermost taskgroup this task opened, or NULL */
    wo_thr *thr;           /* the thread running it (NULL until it starts) */
    wo_team *team;         /* the team it belongs to (NULL: outside any team) */
    _Atomic int pending;   /* 1, or 2 with a detach event: body and fulfill */
    _Atomic long children; /* children not finished (taskwait) */
    _Atomic long refs;     /* 1 while unfinished + 1 per unfinished child + deps */
    _Atomic long npred;    /* predecessors not finished (+1 while being created) */
    weft_spinlock lock;    /* guards succ, nsucc, finished */
    wo_task **succ;        /* tasks that depend on this one */
    int nsucc, succ_cap;
    bool finished;
    bool implicit;        /* embedded in wo_thr: never freed */
    bool final;           /* final task: descendants are included */
    bool linked;          /* has dependences or a detach event: other threads may read
                             its lock, successors and pending count (else only its runner) */
    bool pooled;          /* its block (TASK_BLOCK bytes) is home's, recycled (task.c) */
    wo_thr *home;         /* pooled: the thread whose blocks it came from */
    struct wo_deps *deps; /* dependence table of this task's children */
    struct wo_icv icv;
};

struct wo_ws {
    wo_ws *_Atomic next;        /* the next construct; NULL until someone reaches it */
    uint64_t n;                 /* iterations (sections: count) */
    _Atomic uint64_t next_iter; /* dynamic/guided: first iteration not handed out */
    uint64_t chunk;             /* chunk size in iterations (0: default) */
    int sched;                  /* WO_S_STATIC / DYNAMIC / GUIDED */
    bool ull;
    long lstart, lend, lincr;               /* long loops */
    unsigned long long ustart, uend, uincr; /* ull loops (uincr negative-as-unsigned when down) */
    _Atomic uint64_t ord_next;              /* ordered: the iteration allowed in next */
    _Atomic int cancelled;
    void *mem;                /* GOMP_loop_start / sections2 team memory */
    void *red_mem, *red_end;  /* task reductions: the team's blocks (thread 0 frees them) */
    uint64_t ncounts;         /* doacross: dimensions */
    _Atomic uint64_t *posted; /* doacross: per-iteration flags (n entries) */
    uint64_t *dims;           /* doacross: iterations of each dimension */
};

struct wo_thr {
    wo_team *team;  /* NULL for an initial thread */
    unsigned tid;   /* omp_get_thread_num */
    wo_thr *parent; /* the thread that encountered the region (NULL: initial) */
    unsigned level, active_level;
    wo_task *task;           /* the task this thread runs now */
    uint64_t st_trip;        /* static schedule: chunks taken in the current loop */
    unsigned long singles;   /* single constructs met in this region */
    uint64_t it_lo, it_hi;   /* ordered: the chunk being run, iteration indices */
    uint64_t ord_cur;        /* ordered: the iteration index of the next ordered region */
    wo_team *child;          /* cached team for this thread's next parallel region */
    ABT_thread ult;          /* a worker's ULT, joined by the master at the region's end */
    unsigned team_num;       /* teams construct: this initial thread's team in the league */
    unsigned num_teams;      /* teams construct: size of the league (0: not in teams) */
    wo_task itask;           /* the implicit task */
    wo_taskgroup *red_group; /* GOMP_parallel_reductions: the next team's shared group */
    wo_ws *lone;             /* an initial thread's (orphaned) construct, made on first use */
    wo_thr *ident;           /* an initial thread: the identity cell of its ULT (team.c) */
    bool standin;            /* a stand-in's thread (parallel.c): not in team->thr[] */
    /* The last worksharing construct entered.  Atomic: the barrier's releaser resets
     * every thread's (wo_ws_reclaim), and in a cancelled region (threads leave barriers
     * unreleased, so one can complete early) that may meet a worker setting itself up. */
    wo_ws *_Atomic ws;
    /* Padding around the fields other threads write (the queue, blk_remote), so that the
     * lines that hold them hold nothing else: not this thread's hot fields above, nor the
     * start of the next wo_thr of the team (whatever the alignment). */
    char pad_q[64];
    /* The ready tasks this thread made or released (task.c): it pushes and pops at the
     * head (LIFO), the other threads of its team steal at the tail (the oldest). */
    weft_spinlock q_lock;
    wo_task *q_head, *q_tail; /* q_lock */
    _Atomic long q_len;       /* written under q_lock, read without it */
    /* Task blocks this thread allocated, recycled (task.c): its own free list, and the
     * blocks other threads freed, pushed onto blk_remote (taken all at once). */
    void *blk_local;
    void *_Atomic blk_remote;
    char pad_end[64];
};

/* A worker ULT of a team, kept between regions (a "hot team"): it waits in its dock for
 * the master to bump `go`, sets up its own wo_thr from the team's region fields, runs
 * the region, and docks again (done = go).  Fields other than go/done are written only
 * by the master while the worker is docked (done == go) or absent. */
struct wo_dock {
    _Atomic unsigned go;   /* bumped by the master (release) to start a region or exit */
    _Atomic unsigned done; /* the last `go` whose region the worker finished (release) */
    /* The last `go` whose share someone took: the worker or a stand-in made by a waiting
     * thread of the team (wo_team_help), both by a CAS from `go - 1` to `go`, so it only
     * moves forward.  A share is run once, by whoever moved `claimed` to its `go`; that
     * one stores done.  A dismissing `go` is never claimed. */
    _Atomic unsigned claimed;
    unsigned standin_go; /* the share a stand-in runs (written by its claimer) */
    /* The stand-in's own wo_thr (made on first use, freed with the team): not thr[idx],
     * which the worker of the last region may still use on its way out of that region's
     * barrier.  Its queue is its own (nobody steals from it; it runs its tasks when it
     * waits).  standin_busy: a stand-in of this dock runs (one at a time; a claimer
     * takes it by CAS before it claims the share, the stand-in clears it when done). */
    wo_thr *sthr;
    _Atomic int standin_busy;
    int rank;          /* the stream whose pool the worker ULT was created in */
    _Atomic bool exit; /* with the next go: leave (stored before that go, release) */
    bool exists;       /* the ULT was created and has not been joined */
    wo_thr *ident;     /* the worker ULT's identity cell (team.c): its wo_thr now */
    wo_team *team;
    unsigned idx;
    ABT_thread ult;
};

struct wo_team {
    unsigned nthreads;
    unsigned prev_n;      /* the size of the team's last region */
    struct wo_dock *dock; /* cap entries; [0] unused (the master) */
    unsigned cap;         /* thr[] capacity */
    void (*fn)(void *);
    void *data;
    /* the region's threads, set by the master before `go`, read by each worker as it
     * sets up its wo_thr (the master does not touch a worker's wo_thr: a worker of
     * the last region may still be leaving its barrier) */
    wo_thr *parent;        /* the encountering thread */
    struct wo_icv icv;     /* the implicit tasks' ICVs */
    wo_taskgroup *red_grp; /* reduction(task) on the region, or NULL */
    wo_ws *ws_first;       /* a combined construct's worksharing part, or NULL */
    unsigned level, active_level;
    /* barrier */
    _Atomic unsigned bar_arrived;
    _Atomic unsigned bar_gen;
    _Atomic int nsleep; /* threads parked on cond */
    ABT_mutex mtx;      /* handles of the two below (no *_create: nothing to free) */
    ABT_cond cond;
    ABT_mutex_memory mtx_mem;
    ABT_cond_memory cond_mem;
    _Atomic int cancelled;
    int bar_ws_cancelled; /* the construct before the last barrier was cancelled */
    /* region end */
    /* worksharing */
    weft_spinlock ws_lock;
    wo_ws ws_head;                 /* the chain's dummy head */
    wo_ws *ws_free;                /* recycled constructs (ws_lock) */
    void *_Atomic ws_mem_kept;     /* the last reclaimed construct's `mem` (ws_lock) */
    void *copy_ptr;                /* single copyprivate */
    _Atomic unsigned long singles; /* single constructs won in this region */
    /* tasks (queued in the threads' own queues: wo_thr.q_*) */
    _Atomic long ntasks; /* explicit tasks created and not finished */
    char pad_thr[64];    /* ntasks is written by every thread: keep thr[0] off its line */
    wo_thr thr[];
};

/* ---- runtime (team.c) ---- */
extern ABT_key wo_key __attribute__((visibility("hidden")));
extern _Atomic int wo_rt_state __attribute__((visibility("hidden"))); /* 2 = running */
extern __thread wo_thr *wo_tls_cur __attribute__((visibility("hidden")));

/* The attribute worker ULTs (and league members) are created with: g_env.thread_stack. */
extern ABT_thread_attr wo_thread_attr __attribute__((visibility("hidden")));

/* The streams' pools (pool i feeds stream i), and whether the program owns weft. */
extern ABT_pool *wo_pools __attribute__((visibility("hidden")));
extern int wo_npools __attribute__((visibility("hidden")));
extern bool wo_join_workers __attribute__((visibility("hidden")));

/* Entry points the face also calls itself. */
void GOMP_taskgroup_start(void);
void GOMP_taskgroup_end(void);
void GOMP_taskwait_depend(void **depend);

/* Identity.  A ULT's wo_key value is its identity cell (a wo_thr * that holds the
 * OpenMP thread it is now), set once for the ULT's life: a master entering or leaving a
 * team rewrites the cell, not the key.  Each OS thread caches the last (unit, cell) it
 * looked up, valid while wo_id_gen has not moved; wo_id_gen moves whenever a unit
 * that had a cell ends (or the runtime starts or stops), so a unit made later at the
 * same address never hits an old entry.  The common wo_self is then a TLS load, two
 * compares and a load, not a key lookup. */
struct wo_id_cache {
    const void *unit;
    uint64_t gen;
    wo_thr **cell;
};
extern _Atomic uint64_t wo_id_gen __attribute__((visibility("hidden")));
extern __thread struct wo_id_cache wo_tls_id
    __attribute__((tls_model("initial-exec"), visibility("hidden")));
/* A unit with a cell ends (its key was cleared, or its initial thread is freed). */
static inline void wo_id_changed(void) { weft_atomic_fetch_add_release(&wo_id_gen, 1); }

__attribute__((visibility("hidden"))) wo_thr *wo_self_slow(void);
__attribute__((visibility("hidden"))) wo_thr **wo_self_lookup(void);
__attribute__((visibility("hidden"))) void wo_rt_init(void);
/* A team larger than the streams is starting: give the pools their time slice (team.c). */
__attribute__((visibility("hidden"))) void wo_preempt_on(void);

/* The caller's identity cell, or NULL outside weft (an external thread: wo_tls_cur). */
static inline wo_thr **wo_self_cell(void)
{
    const void *u = weft_face_self_unit();
    if (WEFT_LIKELY(u != NULL && u == wo_tls_id.unit &&
                    wo_tls_id.gen == weft_atomic_load_acquire(&wo_id_gen)))
        return wo_tls_id.cell;
    return wo_self_lookup();
}

/* The OpenMP thread the caller is. */
static inline wo_thr *wo_self(void)
{
    wo_thr **cell = wo_self_cell();
    if (WEFT_LIKELY(cell != NULL))
        return *cell;
    wo_thr *t = wo_tls_cur;
    return t ? t : wo_self_slow();
}

/* Make `t` the caller's OpenMP thread (a master entering/leaving its team). */
__attribute__((visibility("hidden"))) void wo_set_self(wo_thr *t);
/* (Re)initialize t for a region or as an initial thread; keeps its cached team and its
 * task queue (empty between regions; other threads of the team may look at it). */
__attribute__((visibility("hidden"))) void wo_thr_init(wo_thr *t, wo_team *team, unsigned tid,
                                                       wo_thr *parent, const struct wo_icv *icv);
__attribute__((visibility("hidden"))) void wo_team_free(wo_team *t);
__attribute__((visibility("hidden"))) void wo_thr_drop_lone(wo_thr *t);
/* Let every docked worker of the team leave, and join it (team free, foreign runtime). */
__attribute__((visibility("hidden"))) void wo_team_dismiss(wo_team *t);

/* Help-first (parallel.c).  A waiting team thread that finds a member whose share of the
 * region nobody has started (its worker ULT's stream has not run it: preempted or
 * blocked) for wo_help_ns runs that share itself, on a stand-in ULT in its own pool.
 * unstarted: whether such a member (on another stream than `rank`) exists; help: claim
 * one and start its stand-in (true if one was started). */
extern uint64_t wo_help_ns __attribute__((visibility("hidden"))); /* UINT64_MAX: off */
__attribute__((visibility("hidden"))) bool wo_team_unstarted(wo_team *t, int rank);
__attribute__((visibility("hidden"))) bool wo_team_help(wo_thr *me, int rank);

/* The executable's TLS (gcc's threadprivate) seen by a stand-in (team.c).  A stand-in
 * runs member i's share on another OS thread than member i's own: while it is on the
 * CPU, that OS thread's block of the executable's TLS module holds member i's values
 * (copied in from member i's stream's block, `home`), and the values the block had
 * (`save`) are put back whenever the stand-in leaves the CPU inside the face
 * (wo_off_cpu ... wo_on_cpu around every yield, park and join of a team thread) and when
 * it ends, member i's values going back home.  wo_tls_swap_cur: the stand-in now on the
 * CPU of this OS thread with its values in the block, or NULL (every other ULT). */
struct wo_tls_swap {
    void *home; /* member i's stream's block */
    void *save; /* the block's values while the stand-in runs */
};
extern size_t wo_tls_size __attribute__((visibility("hidden"))); /* 0: no TLS in the executable */
extern __thread struct wo_tls_swap *wo_tls_swap_cur
    __attribute__((tls_model("initial-exec"), visibility("hidden")));
/* Stream r's block of the executable's TLS (wo_stream_tls[r], r < wo_npools), recorded by
 * a ULT on that stream when weft-omp starts weft; NULL until then, or without TLS. */
extern void *_Atomic *wo_stream_tls __attribute__((visibility("hidden")));
/* This OS thread's block of the executable's TLS (NULL when it has none). */
__attribute__((visibility("hidden"))) void *wo_tls_block(void);
__attribute__((visibility("hidden"))) void wo_tls_in(struct wo_tls_swap *s);
__attribute__((visibility("hidden"))) void wo_tls_out(struct wo_tls_swap *s);
/* Around a point where a team thread may leave the CPU (yield, park, join). */
static inline struct wo_tls_swap *wo_off_cpu(void)
{
    struct wo_tls_swap *s = wo_tls_swap_cur;
    if (WEFT_UNLIKELY(s != NULL))
        wo_tls_out(s);
    return s;
}
static inline void wo_on_cpu(struct wo_tls_swap *s)
{
    if (WEFT_UNLIKELY(s != NULL))
        wo_tls_in(s);
}
/* ABT_thread_yield for face code: a stand-in's TLS values leave and come back with it. */
static inline int wo_yield(void)
{
    struct wo_tls_swap *s = wo_off_cpu();
    int r = ABT_thread_yield();
    wo_on_cpu(s);
    return r;
}

/* The size of the team the caller's next region gets for num_threads(req) (parallel.c). */
__attribute__((visibility("hidden"))) unsigned wo_resolve_nthreads(wo_thr *me, unsigned req);
/* Run a parallel region: fn(data) on n threads (parallel.c). */
__attribute__((visibility("hidden"))) void wo_parallel(void (*fn)(void *), void *data, unsigned n,
                                                       unsigned flags);
__attribute__((visibility("hidden"))) wo_team *wo_team_begin(void (*fn)(void *), void *data,
                                                             unsigned num_threads, unsigned flags);
__attribute__((visibility("hidden"))) wo_team *
wo_team_begin_ws(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags,
                 void (*ws_init)(wo_ws *, void *), void *ws_arg);
__attribute__((visibility("hidden"))) void wo_team_end(void);

/* ---- waiting (barrier.c) ---- */
/* Park on the team until ready(arg) (checked under the team mutex) or a wake. */
__attribute__((visibility("hidden"))) void wo_team_park(wo_team *t, bool (*ready)(void *),
                                                        void *arg);
/* Wake every thread parked on the team, for an event published before.  The read of
 * nsleep is a read-modify-write: it is ordered with the parker's increment in nsleep's
 * own modification order, so either the parker's re-check sees the event or this sees
 * the parker (no fence needed, which ThreadSanitizer could not follow). */
static inline void wo_team_wake(wo_team *t)
{
    if (weft_atomic_fetch_add_acq_rel(&t->nsleep, 0) > 0) {
        struct wo_tls_swap *s = wo_off_cpu();
        ABT_mutex_lock(t->mtx);
        ABT_cond_broadcast(t->cond);
        ABT_mutex_unlock(t->mtx);
        wo_on_cpu(s);
    }
}
/* The same for an event published by a seq_cst read-modify-write (a task queued): the
 * parker's seq_cst increment of nsleep and re-check, and the publisher's seq_cst RMW and
 * this seq_cst load of nsleep, are four operations of the single total order: either
 * this load sees the parker, or the parker's re-check sees the event.  A plain load on
 * x86, where the RMW above costs a locked instruction on a line parkers write. */
static inline void wo_team_wake_sc(wo_team *t)
{
    if (weft_atomic_load_seq_cst(&t->nsleep) > 0) {
        struct wo_tls_swap *s = wo_off_cpu();
        ABT_mutex_lock(t->mtx);
        ABT_cond_broadcast(t->cond);
        ABT_mutex_unlock(t->mtx);
        wo_on_cpu(s);
    }
}
/* Wait until ready(arg): spin (running queued tasks if run_tasks: only children of
 * parent / members of group when not NULL), then park. */
__attribute__((visibility("hidden"))) void wo_wait(wo_thr *me, bool (*ready)(void *), void *arg,
                                                   bool run_tasks, wo_task *parent,
                                                   wo_taskgroup *group);
/* The team barrier (with task completion); returns the team's cancellation state. */
__attribute__((visibility("hidden"))) bool wo_barrier(wo_thr *me);

/* ---- worksharing (loop.c) ---- */
/* Enter the next construct; *created says whether this thread made it (then init ran). */
__attribute__((visibility("hidden"))) wo_ws *wo_ws_next(wo_thr *me, void (*init)(wo_ws *, void *),
                                                        void *arg, bool *created);
__attribute__((visibility("hidden"))) void wo_ws_reclaim(wo_team *t, bool region_end);
/* The construct of a thread outside any team (orphaned loop, sections, scope): emptied. */
__attribute__((visibility("hidden"))) wo_ws *wo_ws_lone(wo_thr *me);

/* ---- tasks (task.c) ---- */
#define TASK_BLOCK 512
/* Free the recycled task blocks of the team's threads (team free). */
__attribute__((visibility("hidden"))) void wo_task_blocks_free(wo_team *t);
/* Run one queued task of the team: the caller's own newest, else the oldest of another
 * thread's queue (filter: NULL any, else only children of `parent` or members of
 * `group`).  True if one ran. */
__attribute__((visibility("hidden"))) bool wo_task_run_one(wo_thr *me, wo_task *parent,
                                                           wo_taskgroup *group);
__attribute__((visibility("hidden"))) void wo_task_free_deps(wo_task *t);
/* Whether a thread of the team has a queued task (seq_cst loads: see wo_team_park). */
__attribute__((visibility("hidden"))) bool wo_tasks_queued(wo_team *t);
/* Task reductions (reduction.c).  register: on the innermost taskgroup, blocks for the
 * team; alloc: the team's blocks for descriptor `data` (a worksharing construct's
 * creator); ws_enter: a thread entering a worksharing construct with task reductions
 * opens its taskgroup and points its own descriptor at the construct's blocks. */
__attribute__((visibility("hidden"))) void wo_reduction_alloc(size_t nthr, const uintptr_t *data,
                                                              void **mem, void **end);
__attribute__((visibility("hidden"))) void wo_reduction_ws_enter(wo_thr *me, uintptr_t *data,
                                                                 void *mem, void *end);
__attribute__((visibility("hidden"))) void wo_reduction_register(wo_thr *me, uintptr_t *data);
__attribute__((visibility("hidden"))) void
wo_task_create(wo_thr *me, void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
               long arg_size, long arg_align, bool if_clause, unsigned flags, void **depend,
               int priority, void *range, size_t range_size, void *detach);

/* ---- ICVs (env.c) ---- */
__attribute__((visibility("hidden"))) void wo_env_init(void);
__attribute__((visibility("hidden"))) void wo_display_env_print(bool verbose);
__attribute__((visibility("hidden"))) void wo_affinity_auto(void);
__attribute__((visibility("hidden"))) void wo_affinity_env(void);

/* ---- locks (lock.c) ---- */
/* The word lock behind omp_lock_t, critical and atomic: 0 free, 1 held, 2 held with
 * waiters.  Waiters spin briefly, then park (ULTs) or sleep on the futex (OS threads). */
__attribute__((visibility("hidden"))) void wo_word_lock_slow(_Atomic uint32_t *w);
__attribute__((visibility("hidden"))) void wo_word_unlock_slow(_Atomic uint32_t *w);
static inline void wo_word_lock(_Atomic uint32_t *w)
{
    uint32_t e = 0;
    if (!weft_atomic_cas_strong_acquire(w, &e, 1))
        wo_word_lock_slow(w);
}
static inline void wo_word_unlock(_Atomic uint32_t *w)
{
    if (weft_atomic_exchange_release(w, 0) == 2)
        wo_word_unlock_slow(w);
}

/* Iteration counts of a loop (loop.c). */
__attribute__((visibility("hidden"))) uint64_t wo_iters_l(long start, long end, long incr);
__attribute__((visibility("hidden"))) uint64_t
wo_iters_ull(bool up, unsigned long long start, unsigned long long end, unsigned long long incr);

#endif
