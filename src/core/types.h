/* src/core/types.h - the main structures of the runtime and their invariants.
 *
 * Map (one line each; details at each struct):
 *   weft_unit     a work unit: a ULT (has or will have a stack) or a tasklet (runs on the
 *                 scheduler's stack).  ABT_thread, ABT_task and, for built-in pools,
 *                 ABT_unit handles all name one: its address and a generation tag
 *                 (core/handle.h is the only converter).
 *   weft_waiter   one blocked waiter (a parked ULT, or a futex word for a tasklet or an
 *                 external thread); lives on the waiter's stack.
 *   weft_pool     a queue of ready units with a kind (FIFO, FIFO_WAIT, ...) and an access
 *                 mode; built-in FIFO pools are intrusive lists through weft_unit.next/prev.
 *   weft_sched    a scheduler: pools plus a run loop; owns the context units switch back to.
 *   weft_xstream  an execution stream: one OS thread, its running unit and scheduler, its
 *                 caches of descriptors and stacks.
 *   weft_global   the runtime: configuration, the list of streams, counters.
 *
 * Who owns a unit, by state (field `state`):
 *   READY       in exactly one pool (its `pool`), or being handed over by a stream that
 *               removed it from a pool; only the pool's consumer may touch its links.
 *   RUNNING     the stream in `xs` runs it; only that stream touches its hot fields.
 *   BLOCKED     parked on some waiter list; the waker makes it READY (push to `pool`) or
 *               runs it directly (hand-off).
 *   TERMINATED  finished; its stack has been given back; a named unit's descriptor stays
 *               until ABT_thread_free.  An unnamed unit is freed at termination.
 * State transitions that other streams observe are published with release stores; the
 * hand-over of a unit through a pool is ordered by the pool's lock.
 */
#ifndef WEFT_CORE_TYPES_H
#define WEFT_CORE_TYPES_H

#include <abt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/atomic.h"
#include "arch/compiler.h"
#include "arch/context.h"
#include "arch/cpu.h"
#include "arch/spinlock.h"
#include "mem/mem.h"

#if WEFT_ASAN && WEFT_TSAN
#error "ASan and TSan cannot be combined (weft_unit shares one slot between them)"
#endif

typedef struct weft_unit weft_unit;
typedef struct weft_waiter weft_waiter;
typedef struct weft_pool weft_pool;
typedef struct weft_pool_ops weft_pool_ops;
typedef struct weft_sched weft_sched;
typedef struct weft_xstream weft_xstream;

/* ---- work units ---- */
enum weft_unit_state {
    WEFT_READY = ABT_THREAD_STATE_READY,
    WEFT_RUNNING = ABT_THREAD_STATE_RUNNING,
    WEFT_BLOCKED = ABT_THREAD_STATE_BLOCKED,
    WEFT_TERMINATED = ABT_THREAD_STATE_TERMINATED,
};

/* What a unit is (semantics).  How its memory was obtained is kept apart, in `stack_kind`
 * and `desc_kind`. */
enum weft_unit_flags {
    WEFT_U_ULT = 1u << 0,        /* has (or will get) its own stack; else a tasklet */
    WEFT_U_NAMED = 1u << 1,      /* a handle was returned: freed by ABT_thread_free */
    WEFT_U_MAIN = 1u << 2,       /* the primary ULT (runs on the OS thread's stack) */
    WEFT_U_MIGRATABLE = 1u << 3, /* may be migrated to another pool */
    WEFT_U_SCHED = 1u << 4,      /* runs a stacked scheduler */
    WEFT_U_CANCELLED = 1u << 5,  /* cancel requested before it started */
    WEFT_U_MAIN_SCHED = 1u << 6, /* stands for a main scheduler's ULT (weft_sched.self_unit) */
    /* the fork-join technique of a ULT (core/unit/fork.h): what it does, then which one */
    WEFT_U_F_CF = 1u << 7,   /* child-first: ABT_thread_create runs it at once */
    WEFT_U_F_KEEP = 1u << 8, /* stack taken at creation, kept until the unit is freed */
    WEFT_U_F_ROC = 1u << 9,  /* return on completion to whoever started it */
    /* bits 10-13: the weft_fork_t value (WEFT_U_FORK_SHIFT) */
    WEFT_U_F_SS = 1u << 14, /* stack separation: a predefined loop starts it unsaved */
    WEFT_U_F_SC = 1u << 15, /* scheduler creation: a predefined loop calls it on its own
                             * stack, and gives it that stack at its first deviation */
};
#define WEFT_U_FORK_SHIFT 10
#define WEFT_U_FORK_MASK  (0xfu << WEFT_U_FORK_SHIFT)
#define WEFT_U_FORK_BITS \
    (WEFT_U_F_CF | WEFT_U_F_KEEP | WEFT_U_F_ROC | WEFT_U_F_SS | WEFT_U_F_SC | WEFT_U_FORK_MASK)

/* The largest stack size weft accepts (an attribute, ABT_THREAD_STACKSIZE): 1 TiB, far
 * above any real stack, and small enough that a stack's size plus a bound never wraps. */
#define WEFT_STACKSIZE_MAX ((size_t)1 << 40)

enum weft_stack_kind {
    WEFT_STACK_NONE = 0, /* no stack yet (lazy) or a tasklet */
    WEFT_STACK_CACHED,   /* default-size stack from the stream caches */
    WEFT_STACK_OWNED,    /* non-default size: mapped for this unit, unmapped at release */
    WEFT_STACK_USER,     /* supplied through ABT_thread_attr_set_stack: never released */
    WEFT_STACK_OS,       /* the OS thread's stack (primary ULT) */
    /* The kinds below are in this order so that one comparison tells each group: from
     * BORROWED, an exit goes back to a joiner's frame or to the loop (weft_ult_exit); from
     * SC, a unit has not left its stack yet and is promoted when it first does
     * (leave_check).  A BORROWED unit left it already: its leaves cost what a primary
     * ULT's do. */
    WEFT_STACK_BORROWED, /* a LENT unit (below) that left its joiner's stack once: it keeps
                          * running on it, its joiner waiting beneath; user_stack holds the
                          * lend record, stack the bottom stack's descriptor when it has
                          * one (canary checks) */
    WEFT_STACK_SC,       /* an SC unit on its scheduler's loop stack, not promoted yet */
    WEFT_STACK_LENT,     /* an SC or RoC-L unit called by its joiner on the joiner's stack,
                          * that has not left it (core/unit/lend.c, "a fresh unit on its joiner's
                          * stack"): user_stack holds the lend record, stack is NULL */
};

/* unit->request bits */
#define WEFT_REQ_SUSPENDED      1u  /* parked by ABT_self_suspend: ABT_thread_resume may wake */
#define WEFT_REQ_SUSPENDING     4u  /* suspending, still on its stack (see weft_unit_resume) */
#define WEFT_REQ_RESUME_PENDING 8u  /* resumed while SUSPENDING: the post wakes it at once */
#define WEFT_REQ_CANCEL         16u /* ABT_thread_cancel: terminate instead of running next */

/* joiner sentinel: the unit has terminated and no joiner can register any more */
#define WEFT_JOIN_DONE ((weft_waiter *)(uintptr_t)1)

struct weft_unit {
    /* --- first cache line: everything create, push/pop, run and join touch --- */
    weft_unit *next, *prev; /* pool links; owned by the pool that holds the unit */
    weft_pool *pool;        /* associated (last) pool: where yield/wake push it */
    void (*fn)(void *);     /* the body */
    void *arg;
    weft_ctx ctx;           /* saved context while suspended; NULL = never run */
    weft_stack *stack;      /* NULL until the first run (lazy allocation) */
    uint16_t flags;         /* enum weft_unit_flags */
    uint8_t stack_kind;     /* enum weft_stack_kind */
    uint8_t in_pool;        /* linked in `pool`; protected by the pool lock */
    _Atomic uint32_t state; /* enum weft_unit_state */
    /* --- second line: less frequent --- */
    weft_xstream *xs;              /* stream that ran it last (NULL before the first run) */
    _Atomic(weft_waiter *) joiner; /* NULL, a waiter blocked in join, or WEFT_JOIN_DONE */
    size_t stack_size;             /* usable stack size */
    /* this life's handle: address | generation << 48 (core/handle.h); bumped when freed */
    _Atomic uintptr_t handle;
    _Atomic uint64_t id;              /* 0 until first asked for (no atomic on create) */
    _Atomic(struct weft_ktab *) keys; /* work-unit-local values, lazily made (key.c) */
    _Atomic uint32_t request;         /* WEFT_REQ_* bits: set by others, or after a switch */
    uint8_t prio;                     /* priority pools (pool/prio.c): level + 1, 0 = none */
    /* a field of the third line was set (migr_cb, sched, uunit), or `keys`: the release
     * resets them.  While it is 0 they are NULL, so freeing a unit touches two lines, not
     * three, and tests one byte for all of them. */
    _Atomic uint8_t cold;
    _Atomic(weft_pool *) migr_to; /* pending migration target, applied at the next push */
    void (*migr_cb)(ABT_thread, void *);
    void *migr_cb_arg;
    void *user_stack; /* base of a user-supplied stack (WEFT_STACK_USER); the floor of the
                       * primary OS thread's stack (WEFT_STACK_OS, runtime.c); the lend record
                       * of a unit on its joiner's stack (WEFT_STACK_LENT, _BORROWED) */
    union {
        weft_sched *sched;   /* for WEFT_U_SCHED units: the scheduler it runs */
        weft_unit *cf_child; /* a ULT that started a child-first child and may get it
                              * back (core/unit/create.c, cf_spawn); NULL otherwise */
    };
    union {                    /* ASan and TSan never share a build (#error above) */
        void *tsan_fiber;      /* ThreadSanitizer fiber (TSan builds only) */
        void *asan_fake_stack; /* AddressSanitizer fake-stack cookie (ASan builds) */
    };
    /* user-defined pools (pool/user.c): the ABT_unit that the user's pool `upool` made
     * for this unit, NULL when none, and the chain link of its entry in the unit table.
     * The entry lives here, so making one never allocates.  All three are written under
     * the lock of the table shard of `uunit`; see user.c for who may read them unlocked. */
    _Atomic(ABT_unit) uunit;
    _Atomic(weft_pool *) upool;
    weft_unit *unext;
} __attribute__((aligned(WEFT_CACHE_LINE)));

_Static_assert(sizeof(struct weft_unit) == 3 * WEFT_CACHE_LINE, "weft_unit: three cache lines");
/* Words that creation and the release write whole (unit/unit.h, unit_set_flags_word and
 * weft_unit_release_fields): flags, stack_kind and in_pool; request, prio and cold. */
_Static_assert(offsetof(struct weft_unit, stack_kind) == offsetof(struct weft_unit, flags) + 2 &&
                   offsetof(struct weft_unit, in_pool) == offsetof(struct weft_unit, flags) + 3 &&
                   WEFT_STACK_NONE == 0,
               "flags, stack_kind and in_pool share one 32-bit word");
_Static_assert(offsetof(struct weft_unit, prio) == offsetof(struct weft_unit, request) + 4 &&
                   offsetof(struct weft_unit, cold) == offsetof(struct weft_unit, request) + 5 &&
                   offsetof(struct weft_unit, migr_to) == offsetof(struct weft_unit, request) + 8,
               "request, prio and cold share one 64-bit word");

/* A blocked waiter.  For a ULT, `ult` is set and waking means making it ready.  For a
 * tasklet or an external thread, `ult` is NULL and the waiter sleeps on `futex`: 0 while it
 * waits, 1 once woken (the waker is still in its futex_wake on the word), 2 when the
 * waker is done with it (core/wait.h); the sleeper leaves at 2 only.  Lives on the
 * waiter's stack: the waker touches it no more after storing 2. */
struct weft_waiter {
    weft_waiter *next;
    weft_unit *ult;
    _Atomic uint32_t futex;
    uint16_t counted_blocked; /* the ULT was counted in its pool's num_blocked */
    uint16_t join_chain;      /* a join_many joiner: `data` is its weft_join_chain (join.c) */
    void *data;               /* per-object payload (e.g. requested lock mode) */
};

/* ---- pools ---- */
/* What a pool kind implements (core/pool/pool.h explains the interface).  Every pool has
 * a table; entries a kind lacks are NULL and the generic code (pool.c) gives the
 * documented answer instead (ABT_ERR_POOL, a polling wait, ...).  The thread-level
 * entries are what schedulers and the runtime use; the unit-level ones exist only for
 * pools that hand out ABT_unit values of the user's own (user-defined pools). */
struct weft_pool_ops {
    const char *name; /* ABT_info_print_pool */
    void (*push)(weft_pool *p, weft_unit *u, ABT_pool_context ctx);
    /* WEFT_POOL_CAP_BIND pools: make what a push of u needs (core/pool/pool.h). */
    int (*bind)(weft_pool *p, weft_unit *u);
    weft_unit *(*pop)(weft_pool *p, ABT_pool_context ctx);
    /* Block up to timeout_ns (0: no limit) for a unit; NULL on time-out or wake-up. */
    weft_unit *(*pop_wait)(weft_pool *p, uint64_t timeout_ns, ABT_pool_context ctx);
    /* ABT_pool_pop_wait_thread(_ex) of a pool whose own callback takes seconds (a 1.2
     * user-defined pool): the time exactly as the caller gave it.  NULL: pop_wait. */
    weft_unit *(*pop_wait_secs)(weft_pool *p, double secs, ABT_pool_context ctx);
    int (*remove)(weft_pool *p, weft_unit *u); /* ABT_SUCCESS or ABT_ERR_POOL */
    /* Remove u if it is queued here and never ran (join bypass): true if the caller now
     * owns it.  NULL: remove() when u never ran. */
    bool (*take_fresh)(weft_pool *p, weft_unit *u);
    size_t (*size)(weft_pool *p);
    bool (*is_empty)(weft_pool *p); /* NULL: size() == 0 */
    void (*wake)(weft_pool *p);     /* wake blocked pop_wait callers */
    void (*print_all)(weft_pool *p, void *arg, void (*fn)(void *, ABT_thread));
    void (*destroy)(weft_pool *p);
    /* unit level (ABT_pool_pop/pop_wait/pop_timedwait/remove/print_all and the bulk
     * thread operations), for pools whose ABT_unit is not the thread itself */
    int (*pop_unit)(weft_pool *p, ABT_unit *unit, int how, double secs);
    int (*remove_unit)(weft_pool *p, ABT_unit unit);
    int (*print_units)(weft_pool *p, void *arg, void (*fn)(void *, ABT_unit));
    int (*pop_many)(weft_pool *p, ABT_thread *threads, size_t len, size_t *num,
                    ABT_pool_context ctx);
    int (*push_many)(weft_pool *p, const ABT_thread *threads, size_t num, ABT_pool_context ctx);
};

struct weft_pool {
    /* --- hot: the built-in FIFO queue --- */
    weft_unit *head, *tail; /* protected by `lock` (or owner-only when PRIV) */
    _Atomic size_t size;    /* written under `lock`, read racily for emptiness */
    weft_spinlock lock;     /* taken unless access == PRIV */
    uint8_t locked;         /* access != PRIV */
    uint8_t caps;           /* enum weft_pool_cap (core/pool/pool.h) */
    uint8_t automatic;
    uint8_t notify;             /* WEFT_POOL_SIGNAL | WEFT_POOL_IDLERS (pool.h); under
                                 * `lock` (constant in a PRIV pool) */
    _Atomic uint32_t seq;       /* FIFO_WAIT: bumped on every push/wake (futex word) */
    _Atomic uint32_t nsleepers; /* FIFO_WAIT: callers inside pop_wait */
    /* --- cold --- */
    const weft_pool_ops *ops;
    ABT_pool_kind kind;
    ABT_pool_access access;
    int id;
    _Atomic int num_scheds;         /* schedulers that use this pool */
    _Atomic long num_blocked;       /* units associated with the pool that are blocked */
    _Atomic uint64_t preempt_ns;    /* weft_pool_set_preempt: the time slice of its units, 0 none */
    void *data;                     /* ABT_pool_set_data */
    void *impl;                     /* user-defined pools: their own state */
    weft_pool *all_next, *all_prev; /* registry of every pool (freed by ABT_finalize) */
    struct weft_idle_node *idlers;  /* sleeping schedulers over this pool (core/sched/idle.h);
                                     * under `lock`, mirrored by WEFT_POOL_IDLERS in notify */
};

/* xs->blk: the monitor handed the stream, blocked in a call, to a spare (stream/handoff.c) */
#define WEFT_BLK_HANDED ((uint64_t)1 << 63)

/* ---- schedulers ---- */
enum weft_sched_request {
    /* bits: a FINISH requested while an EXIT is pending must survive the EXIT, which only
     * ends the current run() (weft_xstream_should_stop clears the EXIT bit alone) */
    WEFT_SCHED_REQ_NONE = 0,
    WEFT_SCHED_REQ_FINISH = 1, /* stop once its pools are empty */
    WEFT_SCHED_REQ_EXIT = 2,   /* stop at the next check */
};

enum weft_sched_use {
    WEFT_SCHED_UNUSED = 0,
    WEFT_SCHED_MAIN,    /* main scheduler of a stream */
    WEFT_SCHED_IN_POOL, /* pushed into a pool as a stacked scheduler */
};

struct weft_sched {
    weft_ctx ctx; /* where units switch back to (saved when it runs one); NULL while it
                   * runs an SS unit unsaved: going back restarts its loop */
    /* while a predefined loop runs (sched/loop.h): where and what restarts it, and where
     * it returns when it ends; NULL otherwise */
    void *restart_top;
    void (*restart_fn)(void *);
    weft_ctx loop_exit;
    void *loop_fake;     /* ASan: the fake stack of the frame that entered the loop */
    const void *loop_lo; /* ASan: the stack of the frame that entered the loop */
    void *loop_fiber;    /* TSan: the fiber that entered the loop */
    size_t loop_size;
    uint32_t loop_n; /* units run since the last event check (kept across restarts) */
    /* the stack the loop runs on (weft_sched_loop_enter), NULL when it runs on the stack
     * that entered it; an SC unit borrows it and keeps it at its first deviation */
    weft_stack *body_stack;
    weft_unit *sc_unit;   /* the SC unit running on body_stack, not promoted yet */
    weft_stack *sc_spare; /* the loop's next stack, taken before an SC unit starts */
    weft_pool **pools;
    int num_pools;
    /* the first num_join_pools pools may hand a fresh target to its joiner (join bypass,
     * core/unit/switch.h): num_pools for a predefined scheduler, 0 for a user-defined one */
    int num_join_pools;
    uint32_t event_freq;      /* check events every this many pops */
    weft_pool *bypass_pool;   /* the pool it pops first, when yields, parks and joins may
                               * bypass it there (sched.c sets it; core/unit/yield.c) */
    _Atomic uint32_t request; /* enum weft_sched_request */
    uint8_t automatic;
    uint8_t use;       /* enum weft_sched_use */
    int predef;        /* ABT_sched_predef, or -1 for user-defined */
    ABT_sched_def def; /* run/init/free callbacks (predefined ones too) */
    void *data;
    weft_xstream *xs;  /* stream running it (main schedulers) */
    weft_stack *stack; /* own stack when it does not run on an OS stack */
    weft_unit *unit;   /* stacked scheduler: the ULT that runs it */
    /* What Argobots programs see as the scheduler's ULT while it runs as a main scheduler
     * (xs->cur is NULL then): ABT_self_get_thread & co. answer with it.  Never runs, is
     * in no pool and no slab; made with the scheduler, freed with it. */
    weft_unit *self_unit;
    weft_sched *parent;                /* the scheduler it returns to when stacked */
    weft_sched *retire_next;           /* xs->sched_retire's list (xstream.c) */
    struct weft_idle_node *idle_nodes; /* one per pool: its sleeps register there (idle.c) */
    bool idle_forever;                 /* every pool wakes its sleepers: sleeps need no bound */
    void *tsan_fiber;
    void *asan_fake_stack;
    weft_sched *all_next, *all_prev;
};

/* ---- streams ---- */

typedef enum {
    WEFT_XS_CREATED = 0, /* ABT_xstream_create returned; thread starting */
    WEFT_XS_RUNNING,
    WEFT_XS_TERMINATED, /* scheduler returned; thread exited or exiting */
} weft_xs_state;

struct weft_xstream {
    /* --- hot: read on every switch --- */
    weft_unit *cur;                          /* running unit, NULL while the scheduler runs */
    weft_sched *sched;                       /* innermost running scheduler: units return to it */
    void (*post_fn)(weft_xstream *, void *); /* action to run right after the next switch */
    void *post_arg;
    int yield_budget; /* yields left before the scheduler must run (core/unit/switch.h) */
    /* Bumped by every switch except the starts that may be returned from and those
     * returns (return on completion, core/unit/exit.c): a unit started with weft_ctx_call
     * may return to its starter only if it finishes on the same stream with the same
     * epoch. */
    uint64_t epoch;
    /* only this stream touches it: no atomics (its trimming fields at the end are cold) */
    struct weft_mem_cache cache;
    uint32_t poll_eager; /* faces asking a poll after every unit (core/sched/poll_hook.h); only
                          * this stream's thread touches it */
    /* --- cold --- */
    weft_sched *main_sched;   /* written by this stream's own ULTs (ABT_xstream_set_main_sched),
                               * read by other streams (relaxed plain accesses) */
    weft_sched *sched_retire; /* pending main schedulers replaced before they ran, retired
                               * by the stream's loop once the running one returns (only
                               * this stream's thread touches the list) */
    int rank;
    bool primary;
    _Atomic int state; /* weft_xs_state */
    pthread_t thread;
    bool thread_started;
    bool joined;
    _Atomic bool cancelled;  /* ABT_xstream_cancel / ABT_xstream_exit */
    weft_waiter *joiner;     /* protected by join_lock */
    weft_spinlock join_lock; /* joiner + the TERMINATED transition; a parking joiner
                              * releases it only once off its stack (post action) */
    int cpubind;             /* -1 when not bound */
    int *affinity;
    int num_affinity;
    weft_unit *main_unit;              /* primary stream: the primary ULT */
    _Atomic(weft_unit *) main_handoff; /* primary ULT popped by another stream, sent home */
    _Atomic uint32_t idle;             /* futex word of its sleeping scheduler (sched/idle.h) */
    /* blocking calls (stream/handoff.c) */
    int blocking_depth;               /* weft_blocking_begin pairs open; own thread only */
    _Atomic uint64_t blk;             /* odd: in a blocking call; WEFT_BLK_HANDED: a spare serves */
    uint64_t blk_seen;                /* the monitor's last sample of blk (monitor only) */
    struct weft_spare *_Atomic spare; /* the spare of the current hand-off */
    weft_xstream *served;             /* a spare's record: the stream it serves, or NULL */
    void *_Atomic timerq;             /* its thread's timer queue (sync, core/sched/timer_hook.h) */
    /* preemption (stream/handoff.c): the monitor's last sample of the running unit, when it
     * was taken, and the spare serving while that unit holds the stream (monitor only) */
    const weft_unit *pre_cur;
    uint64_t pre_epoch;
    int pre_budget;
    uint64_t pre_since;
    struct weft_spare *pre_spare;
    _Atomic int idle_cpu;   /* the CPU it last went to sleep on, -1: unknown */
    uint64_t idle_moved_ns; /* when its idle scheduler last left a CPU (idle.c) */
    void *tsan_os_fiber;    /* TSan: the OS thread's own fiber */
    void *os_stack_lo;      /* the OS thread's stack (ASan bounds) */
    size_t os_stack_size;
    struct weft_trace_buf *trace; /* its event buffer while WEFT_TRACE records (trace.c);
                                   * only this stream uses it */
    weft_xstream *all_next;
};

#endif
