/* src/core/runtime.h - the runtime singleton: configuration read at ABT_init, the registry
 * of streams, pools and schedulers, and the calling thread's stream.
 *
 * Concurrency: `weft_g.lock` (a pthread mutex: these paths are rare) protects the
 * registries and stream creation/free.  Configuration is written once in ABT_init before
 * any stream starts and is read-only afterwards. */
#ifndef WEFT_CORE_RUNTIME_H
#define WEFT_CORE_RUNTIME_H

#include "core/types.h"

struct weft_config {
    size_t thread_stacksize;     /* ABT_THREAD_STACKSIZE */
    size_t sched_stacksize;      /* ABT_SCHED_STACKSIZE */
    uint32_t sched_event_freq;   /* ABT_SCHED_EVENT_FREQ */
    uint64_t sched_sleep_nsec;   /* ABT_SCHED_SLEEP_NSEC */
    uint64_t sched_spin_nsec;    /* ABT_SCHED_SPIN_NSEC: an idle scheduler spins so long */
    uint32_t sched_max_spinners; /* ABT_SCHED_MAX_SPINNERS: streams spinning at once */
    bool tool;                   /* WEFT_ENABLE_TOOL: the tool interface answers */
    bool affinity;               /* WEFT_ENABLE_AFFINITY: CPU binding is available */
    bool set_affinity;           /* ABT_SET_AFFINITY: streams bound by rank (affinity on) */
    int *affinity_list;          /* ABT_SET_AFFINITY CPU-id lists, flattened, or NULL */
    int *affinity_off;           /* list i: affinity_list[off[i] .. off[i+1]) (affinity.c) */
    int affinity_len;            /* number of lists (0: the default, one CPU per rank) */
    int *affinity_init;          /* the CPUs the process could use at ABT_init */
    int affinity_ninit;
    int max_xstreams;             /* ABT_MAX_NUM_XSTREAMS */
    uint32_t key_table_size;      /* ABT_KEY_TABLE_SIZE, a power of two */
    uint32_t mem_max_stacks;      /* ABT_MEM_MAX_NUM_STACKS: per-stream stack cache bound */
    uint32_t mem_max_descs;       /* ABT_MEM_MAX_NUM_DESCS: per-stream descriptor cache */
    int lp_alloc;                 /* enum weft_lp_alloc (ABT_MEM_LP_ALLOC) */
    size_t huge_page_size;        /* ABT_HUGE_PAGE_SIZE */
    size_t sys_page_size;         /* ABT_SYS_PAGE_SIZE */
    size_t mem_page_size;         /* ABT_MEM_PAGE_SIZE */
    size_t mem_stack_page_size;   /* ABT_MEM_STACK_PAGE_SIZE */
    uint64_t mem_trim_ms;         /* ABT_MEM_TRIM_MS: trim period (mem/trim.c), 0 off */
    int stack_overflow_check;     /* ABT_STACK_OVERFLOW_CHECK: 0 none, 1 canary, 2/3 guard */
    bool lend_stacks;             /* a joiner may lend its stack to a fresh unit (unit/lend.c): not
                                   * when ABT_STACK_OVERFLOW_CHECK names mprotect(_strict) */
    bool guard_in_stack;          /* the guard page is the lowest page of a ULT's stack, a
                                   * user-given one too (mem/stack.c, core/tool/overflow.h): when
                                   * ABT_STACK_OVERFLOW_CHECK names mprotect(_strict) */
    bool lend_canary;             /* a lent unit gets a canary at its nominal stack's low end
                                   * (a check other than none, not under valgrind) */
    bool print_config;            /* ABT_PRINT_CONFIG */
    uint32_t mutex_max_handovers; /* ABT_MUTEX_MAX_HANDOVERS */
    uint32_t mutex_max_wakeups;   /* ABT_MUTEX_MAX_WAKEUPS */
    uint16_t fork_flags;          /* WEFT_FORK: the default technique's unit flags (fork.h) */
    uint64_t preempt_ns;          /* WEFT_PREEMPT: every unit's time slice (0: none) */
    uint64_t blocking_handoff_ns; /* WEFT_BLOCKING_HANDOFF_US: a stream in a blocking call
                                   * this long with work waiting gets a spare (0: never) */
};

#define WEFT_IDLE_CPU_SLOTS 64

struct weft_global {
    _Atomic int init_count; /* ABT_init nesting depth; 0 = not initialized */
    pthread_mutex_t lock;
    struct weft_config cfg;
    weft_xstream *primary;
    weft_xstream **by_rank; /* rank_cap slots; grows past ABT_MAX_NUM_XSTREAMS */
    int rank_cap;
    int num_xstreams;   /* streams created and not freed (incl. primary) */
    weft_pool *pools;   /* every live pool */
    weft_sched *scheds; /* every live scheduler */
    _Atomic uint64_t next_unit_id;
    _Atomic int next_pool_id;
    _Atomic uint32_t next_key_id;
    _Atomic int idle_spinners; /* idle schedulers spinning now (core/sched/idle.c) */
    /* streams woken out of their idle sleep that have not run yet, by the CPU they slept
     * on (modulo WEFT_IDLE_CPU_SLOTS; core/sched/idle.c) */
    _Atomic int idle_waking[WEFT_IDLE_CPU_SLOTS];
};

extern WEFT_INTERNAL struct weft_global weft_g;

/* The stream the calling OS thread runs, NULL for an external thread.  initial-exec: one
 * %fs-relative load.  After a context switch a ULT may be on another OS thread, so code
 * that spans a switch re-reads it through weft_xs_reload(). */
extern WEFT_INTERNAL __thread weft_xstream *weft_tls_xs __attribute__((tls_model("initial-exec")));

static inline weft_xstream *weft_xs_self(void) { return weft_tls_xs; }

/* The memory caches of a stream, NULL for "no stream" (an external thread). */
static inline struct weft_mem_cache *weft_xs_cache(weft_xstream *xs)
{
    return xs ? &xs->cache : NULL;
}
WEFT_INTERNAL weft_xstream *weft_xs_reload(void);

static inline bool weft_initialized(void) { return weft_atomic_gt0_acquire(&weft_g.init_count); }

static inline uint64_t weft_new_unit_id(void)
{
    return weft_atomic_fetch_add_relaxed(&weft_g.next_unit_id, 1);
}

/* Make by_rank hold index `rank` (weft_g.lock held).  False when out of memory. */
WEFT_INTERNAL bool weft_rank_reserve(int rank);

/* env parsing helpers (runtime.c) */
WEFT_INTERNAL void weft_config_load(struct weft_config *cfg);
WEFT_INTERNAL void weft_config_print(FILE *fp, const struct weft_config *cfg);

/* registries (runtime.c); caller holds weft_g.lock */
WEFT_INTERNAL void weft_registry_add_pool(weft_pool *p);
WEFT_INTERNAL void weft_registry_del_pool(weft_pool *p);
WEFT_INTERNAL void weft_registry_add_sched(weft_sched *s);
WEFT_INTERNAL void weft_registry_del_sched(weft_sched *s);

/* A higher layer's clean-up, run by the last ABT_finalize after every stream is gone
 * (sync/objmem.c frees the blocks it kept).  Idempotent per function; at most
 * WEFT_MAX_AT_FINALIZE functions, registered once per process (false when full). */
#define WEFT_MAX_AT_FINALIZE 4
WEFT_INTERNAL bool weft_at_finalize(void (*fn)(void));

/* One line on stderr, "weft: " first: for a failure nobody can be told of, whose policy
 * (retry, fall back) lets the program go on.  The caller decides how often. */
WEFT_INTERNAL __attribute__((format(printf, 1, 2))) void weft_warn(const char *fmt, ...);

/* Abort with a message: only for what cannot be reported (OS failures, corrupted state). */
WEFT_INTERNAL __attribute__((noreturn, format(printf, 1, 2))) void weft_fatal(const char *fmt, ...);

#endif
