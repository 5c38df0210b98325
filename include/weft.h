/**
 * @file weft.h
 * @brief What weft offers beyond the Argobots 1.2 API.
 *
 * Include <abt.h> for the Argobots-compatible interface; this header adds weft_*
 * extensions.  Every extension follows the Argobots conventions: functions return
 * ABT_SUCCESS or an ABT_ERR_* code, and handles are the ABT_* types. */
#ifndef WEFT_H_INCLUDED
#define WEFT_H_INCLUDED

#include <abt.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_VERSION       "1.2.0" /**< version of weft, as a string */
#define WEFT_VERSION_MAJOR 1       /**< major part of WEFT_VERSION */
#define WEFT_VERSION_MINOR 2       /**< minor part of WEFT_VERSION */
#define WEFT_VERSION_PATCH 0       /**< patch part of WEFT_VERSION */

/* ======================================================================== */
/* Synchronization extensions                                               */
/* ======================================================================== */

/**
 * @brief Suspend the caller for seconds.
 *
 * Suspend the caller for `seconds` (Argobots issue #29).
 *
 * A ULT is parked: its execution stream runs other work meanwhile, and a stream
 * with a BASIC_WAIT scheduler and nothing else to run sleeps in the kernel until
 * the deadline (no polling).  A tasklet or an external thread sleeps its OS
 * thread.  0 seconds yields (ULT) or returns at once.  The deadline is measured
 * on CLOCK_MONOTONIC.  The wake-up is driven by the scheduler of the stream the
 * ULT slept on: a stream busy with ULTs that never yield wakes it late.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG seconds is negative or NaN
 * @retval ABT_ERR_MEM the stream's timer queue could not be created
 * @undefined nothing.
 */
int weft_thread_sleep(double seconds) ABT_API_PUBLIC;

/**
 * @brief Wait until one of count eventuals is set.
 *
 * Wait until one of `count` eventuals is ready
 * (Argobots issue #167; the counterpart of MPI_Waitany).
 *
 * Sets *index to the index of a ready eventual and, if value is not NULL,
 * *value to its buffer (NULL for an eventual without one), like
 * ABT_eventual_wait.  If several are ready on entry, the lowest index is
 * returned; otherwise the first one set after the call.  ABT_EVENTUAL_NULL
 * entries are ignored, so a caller can null out the ones already consumed
 * (an eventual stays ready until ABT_eventual_reset).  The caller is blocked
 * like ABT_eventual_wait: a ULT parks, an external thread sleeps on a futex.
 * weft_eventual_timedwait_any takes an absolute CLOCK_REALTIME deadline, like
 * ABT_eventual_timedwait, and returns ABT_ERR_COND_TIMEDOUT when it passes.
 * @contexts a ULT or an external thread; not a tasklet.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG index NULL, eventuals NULL with count > 0, count > INT32_MAX
 * @retval ABT_ERR_INV_EVENTUAL no entry is a valid eventual
 * @retval ABT_ERR_EVENTUAL the caller is a tasklet
 * @retval ABT_ERR_MEM out of memory
 * @undefined an eventual freed while the call waits on it.
 */
int weft_eventual_wait_any(size_t count, const ABT_eventual *eventuals, size_t *index,
                           void **value) ABT_API_PUBLIC;
/**
 * @brief weft_eventual_wait_any() with an absolute CLOCK_REALTIME deadline.
 * @contexts as weft_eventual_wait_any().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_COND_TIMEDOUT the deadline passed
 * @retval ABT_ERR_INV_ARG as weft_eventual_wait_any(), or abstime NULL
 * @retval ABT_ERR_INV_EVENTUAL no entry is a valid eventual
 * @retval ABT_ERR_EVENTUAL the caller is a tasklet
 * @retval ABT_ERR_MEM out of memory
 * @undefined as weft_eventual_wait_any().
 */
int weft_eventual_timedwait_any(size_t count, const ABT_eventual *eventuals, size_t *index,
                                void **value, const struct timespec *abstime) ABT_API_PUBLIC;

/**
 * @name Statically initialised readers-writer locks
 *
 * Statically initialised readers-writer locks, in the style of
 * ABT_MUTEX_INITIALIZER:
 *
 *     static weft_rwlock_memory lk = WEFT_RWLOCK_INITIALIZER;
 *     ABT_rwlock_rdlock(WEFT_RWLOCK_MEMORY_GET_HANDLE(&lk));
 *
 * All-zero memory is an unlocked rwlock.  The handle lives as long as the
 * memory; it must not be passed to ABT_rwlock_free, and memory in use must
 * not be initialised again.
 * @{
 */
/** Storage for a statically initialised rwlock. */
typedef struct {
    int dummy[16]; /**< private */
} weft_rwlock_memory;

/** Initializer of a weft_rwlock_memory: an unlocked rwlock. */
#define WEFT_RWLOCK_INITIALIZER                            \
    {                                                      \
        {                                                  \
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 \
        }                                                  \
    }
/** The ABT_rwlock handle of a weft_rwlock_memory. */
#define WEFT_RWLOCK_MEMORY_GET_HANDLE(p_rwlock_memory) ((ABT_rwlock)(p_rwlock_memory))
/** @} */

/* ======================================================================== */
/* Priority pool (Argobots issue #355)                                      */
/* ======================================================================== */

/**
 * @brief Create a priority pool.
 *
 * A pool of num_levels FIFO queues; level 0 runs first.
 *
 * A pop takes the oldest unit of the highest-priority (lowest-numbered)
 * non-empty level, in constant time whatever num_levels.  Where a push goes:
 *   1. ABT_POOL_CONTEXT_PRIO_HIGH_PRIO / _LOW_PRIO in the push context
 *      (ABT_pool_push_thread_ex) put the unit in level 0 / the last level,
 *      for that push only;
 *   2. otherwise the unit's own priority (weft_thread_create_prio,
 *      weft_thread_set_prio), kept across yields and wake-ups and clamped to
 *      the pool's levels;
 *   3. otherwise level num_levels / 2 (units without a priority sit in the
 *      middle, leaving room above and below).
 * Within a level the order is FIFO; a yielding ULT goes to the tail of its
 * level.  The pool is usable by any scheduler, like a built-in pool; a
 * BASIC_WAIT scheduler (or ABT_pool_pop_wait_thread) sleeps until a push.
 * Pools of this kind list their units (ABT_pool_print_all_threads,
 * ABT_info_print_thread_stacks_in_pool) and support ABT_pool_remove.
 *
 * access and automatic mean what they mean for ABT_pool_create_basic.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newpool NULL, num_levels outside 1..64
 * @retval ABT_ERR_INV_POOL_ACCESS access is not an ABT_pool_access
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int weft_pool_create_prio(ABT_pool_access access, int num_levels, ABT_bool automatic,
                          ABT_pool *newpool) ABT_API_PUBLIC;

/* weft_pool_get_num_levels - the number of levels of a priority pool
 * (ABT_ERR_INV_POOL for any other pool). */
/**
 * @brief The number of levels of a priority pool.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is not a priority pool
 * @retval ABT_ERR_INV_ARG num_levels is NULL
 * @undefined nothing.
 */
int weft_pool_get_num_levels(ABT_pool pool, int *num_levels) ABT_API_PUBLIC;

/**
 * @brief ABT_thread_create() with a priority.
 *
 * ABT_thread_create into a priority pool, with the
 * ULT's priority `prio` (0 = highest) set before it is queued: it enters at
 * its level, and returns there whenever it yields or is woken.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is not a priority pool
 * @retval ABT_ERR_INV_ARG prio is not a level of the pool
 * @retval other as ABT_thread_create()
 * @undefined as ABT_thread_create().
 */
int weft_thread_create_prio(ABT_pool pool, void (*thread_func)(void *), void *arg,
                            ABT_thread_attr attr, int prio, ABT_thread *newthread) ABT_API_PUBLIC;

/**
 * @brief Set the priority of a work unit.
 *
 * A work unit's priority (0 =
 * highest, -1 = none).  A new priority applies from the unit's next push
 * (yield, wake-up, ABT_pool_push_thread); a unit already queued keeps its
 * place.  Other pools ignore it.  Errors: ABT_ERR_INV_THREAD,
 * ABT_ERR_INV_ARG (prio outside -1..63, or a NULL prio pointer).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG prio outside -1..63
 * @undefined nothing.
 */
int weft_thread_set_prio(ABT_thread thread, int prio) ABT_API_PUBLIC;
/**
 * @brief The priority of a work unit (-1: none).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG prio is NULL
 * @undefined nothing.
 */
int weft_thread_get_prio(ABT_thread thread, int *prio) ABT_API_PUBLIC;

/* ======================================================================== */
/* fork() (Argobots issue #403)                                             */
/* ======================================================================== */

/*
 * No function: the behaviour of the runtime in a child of fork().
 *
 * - fork() called by the primary ULT (on the primary execution stream): the
 *   child has a working runtime with one execution stream, the primary one,
 *   and the forking ULT is still its primary ULT.  The other execution
 *   streams are gone: they report ABT_XSTREAM_STATE_TERMINATED, and
 *   ABT_xstream_join / ABT_xstream_free on them return at once
 *   (ABT_xstream_revive gives one a new thread).  Pools, schedulers and work
 *   units are kept: ready ULTs stay in their pools and run when a stream of
 *   the child takes work from those pools.  Units that were running on
 *   another stream at the instant of the fork are lost (joining one never
 *   returns), as are timed waits held by another stream.
 * - fork() called from anywhere else while the runtime is initialized (a ULT
 *   or tasklet of another stream, a non-primary ULT, an external thread): the
 *   child starts with no runtime.  ABT_initialized() returns
 *   ABT_ERR_UNINITIALIZED, routines that need a runtime or a calling stream
 *   fail accordingly (handles from the parent must not be used), and the
 *   child may call ABT_init to start a new runtime.
 * Objects another stream was operating on at the instant of the fork (an
 * ABT_mutex being locked, ...) are undefined in the child, as POSIX says of
 * pthread objects.
 */

/* ======================================================================== */
/* Fork-join techniques (the user-level threads trade-off paper)            */
/* ======================================================================== */

/**
 * How a ULT is forked, run and joined.  Names and meaning follow the trade-off
 * paper (Iwasaki et al.); docs/design/fork.md says how weft builds each.
 *
 * Parent-first (ABT_thread_create pushes the new ULT and returns):
 * - WEFT_FORK_FULL: a stack taken at creation and kept until the ULT is freed;
 *   its completion resumes whoever ran it by restoring a saved context.
 * - WEFT_FORK_FULL_L: FULL with the stack taken when the ULT first runs and
 *   given back when it finishes (lazy stack allocation).
 * - WEFT_FORK_ROC: FULL, but a ULT that finishes without having deviated
 *   (yielded, blocked, migrated) returns to whoever ran it like a function
 *   (return on completion: nothing is restored).
 * - WEFT_FORK_ROC_L: ROC with the lazy stack.  The default.
 * - WEFT_FORK_SS: stack separation.  As ROC, but a predefined scheduler (whose
 *   loop keeps no state it cannot rebuild) starts it without saving its own
 *   context; if the ULT deviates, the scheduler's loop is started afresh.
 *   Started by a joiner or by a user-defined scheduler, it runs as ROC
 *   (ABT_info_print_thread says so).
 * - WEFT_FORK_SS_L: SS with the lazy stack.
 * - WEFT_FORK_SC: scheduler creation.  A predefined scheduler calls it on the
 *   scheduler's own stack, like a tasklet; the first time the ULT leaves that
 *   stack (yields, blocks, ...), the stack becomes the ULT's and the scheduler
 *   goes on with a new one.  Such a ULT may use the scheduler's stack size
 *   (ABT_SCHED_STACKSIZE) whatever its own.  Started by a joiner or a
 *   user-defined scheduler, it runs as ROC.
 *
 * Child-first (ABT_thread_create runs the new ULT at once; the creator is
 * queued in its own pool, where another stream may take it):
 * - WEFT_FORK_C_FULL: the child's stack is kept until it is freed; when the
 *   child finishes and its creator is still queued, it takes the creator back
 *   and resumes it by restoring its context.
 * - WEFT_FORK_C_FULL_E: C_FULL whose stack is given back as soon as it finishes
 *   (eager stack release).
 * - WEFT_FORK_C_ROC: C_FULL with return on completion to the creator.
 * - WEFT_FORK_C_ROC_E: C_ROC with the eager stack release.
 * A child-first ULT is created parent-first when its creator is not a ULT, when
 * the target pool is not one the calling stream's predefined scheduler takes
 * work from, or when the creator's own pool is not a built-in one.
 */
typedef enum {
    WEFT_FORK_DEFAULT = 0, /**< the runtime's default (WEFT_FORK, else ROC_L) */
    WEFT_FORK_FULL,
    WEFT_FORK_FULL_L,
    WEFT_FORK_ROC,
    WEFT_FORK_ROC_L,
    WEFT_FORK_SS,
    WEFT_FORK_SS_L,
    WEFT_FORK_SC,
    WEFT_FORK_C_FULL,
    WEFT_FORK_C_FULL_E,
    WEFT_FORK_C_ROC,
    WEFT_FORK_C_ROC_E,
} weft_fork_t;

/**
 * @brief Set the fork-join technique of ULTs created with a ULT attribute.
 *
 * Units of different techniques may share pools and streams.  The runtime
 * default comes from the environment variable WEFT_FORK (full, full-l, roc,
 * roc-l, ss, ss-l, sc, c-full, c-full-e, c-roc, c-roc-e), read at ABT_init;
 * any other value makes ABT_init fail with ABT_ERR_INV_ARG.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD_ATTR attr is ABT_THREAD_ATTR_NULL
 * @retval ABT_ERR_INV_ARG fork is not a weft_fork_t value
 * @undefined attr already freed.
 */
int weft_thread_attr_set_fork(ABT_thread_attr attr, weft_fork_t fork) ABT_API_PUBLIC;

/**
 * @brief Get the fork-join technique of a ULT attribute.
 *
 * WEFT_FORK_DEFAULT when none was set (the runtime default applies).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD_ATTR attr is ABT_THREAD_ATTR_NULL
 * @retval ABT_ERR_INV_ARG fork is NULL
 * @undefined attr already freed.
 */
int weft_thread_attr_get_fork(ABT_thread_attr attr, weft_fork_t *fork) ABT_API_PUBLIC;

/**
 * @brief Get the fork-join technique a ULT was created with.
 *
 * A tasklet answers WEFT_FORK_DEFAULT (it runs to completion: no technique).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is invalid
 * @retval ABT_ERR_INV_ARG fork is NULL
 * @undefined nothing.
 */
int weft_thread_get_fork(ABT_thread thread, weft_fork_t *fork) ABT_API_PUBLIC;

/* ======================================================================== */
/* Debugging: the watchdog                                                  */
/* ======================================================================== */

/** What the watchdog tells its callback about a unit that holds its stream. */
typedef struct {
    ABT_thread thread;    /**< the unit (a ULT, or a tasklet: is_tasklet) */
    ABT_unit_id id;       /**< its id, as ABT_thread_get_id / ABT_task_get_id */
    int rank;             /**< the rank of the execution stream it holds */
    void (*func)(void *); /**< its function; NULL for the primary ULT */
    double seconds;       /**< how long it has run without a switch, so far */
    ABT_bool is_tasklet;  /**< ABT_TRUE for a tasklet */
} weft_watchdog_info;

/** A watchdog callback: runs on the watchdog's own thread (an external thread). */
typedef void (*weft_watchdog_cb)(const weft_watchdog_info *info, void *arg);

/**
 * @brief Report units that run longer than ms milliseconds without a switch.
 *
 * A unit (ULT or tasklet) that holds its execution stream for `ms` milliseconds
 * of wall time without switching, yielding or blocking - spinning, or stuck in a
 * system call - is reported once per offence: to `callback(info, arg)` when
 * callback is not NULL, else on stderr, one line with "watchdog", the unit's id,
 * its function's symbol, the stream's rank and the time, then what is known of
 * where it is (the system call and the return addresses on its stack when it is
 * blocked in one, else its backtrace, which its stream's thread takes in a handler
 * of the signal WEFT_WATCHDOG_SIGNAL names: docs/debugging.md).  The environment
 * variable WEFT_WATCHDOG_MS (milliseconds) does the same
 * from ABT_init, with the report on stderr.  The watchdog is a thread of its own
 * that samples every stream every ms/4 (at least every millisecond); it costs the
 * switch path nothing.  0 turns it off; a new call replaces the previous setting.
 * The callback runs on the watchdog's thread, an external thread: it may call
 * what external threads may call (weft_thread_get_func, ABT_info_print_thread_stack
 * of another unit...), and no new report comes while it runs.  ABT_finalize
 * stops the watchdog.
 * @contexts any, after ABT_init.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED weft is not initialized
 * @retval ABT_ERR_SYS the watchdog's thread could not be created
 * @undefined a callback that calls weft_watchdog_set with a nonzero ms, or
 * ABT_finalize.
 */
int weft_watchdog_set(unsigned int ms, weft_watchdog_cb callback, void *arg) ABT_API_PUBLIC;

/**
 * @brief Get the function a work unit runs.
 *
 * The function given to ABT_thread_create (or ABT_task_create, ...) for thread;
 * NULL for the primary ULT, which runs main() (Argobots issue #314).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is invalid
 * @retval ABT_ERR_INV_ARG func is NULL
 * @undefined nothing.
 */
int weft_thread_get_func(ABT_thread thread, void (**func)(void *)) ABT_API_PUBLIC;

/* ======================================================================== */
/* Blocking calls                                                           */
/* ======================================================================== */

/**
 * @brief Tell weft that the calling unit is about to make a call that may block
 * its OS thread in the kernel.
 *
 * Between weft_blocking_begin() and weft_blocking_end() the calling ULT (or
 * tasklet) makes one system call, or any call that may sleep in the kernel
 * (read, poll, sigwait, waitpid, a library that blocks), as Go's runtime brackets
 * a system call with entersyscall/exitsyscall.  While the call blocks, a spare OS
 * thread of weft serves the pools of the caller's stream, so the units queued
 * there, and the timed waits that stream fires, do not wait for the call to
 * return.  A call that returns quickly costs two stores and a load: the spare is
 * started only when the stream has been in the call for WEFT_BLOCKING_HANDOFF_US
 * microseconds (default 20) with work waiting.  The caller stays on its OS thread
 * throughout.  Pairs nest: only the outermost pair counts.  From an external
 * thread both are no-ops.  A spare pops only the pools that several streams may
 * pop (ABT_POOL_ACCESS_MPMC, ABT_POOL_ACCESS_SPMC); units in the others wait
 * until the call returns.
 * @contexts any unit of an execution stream, or an external thread.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED weft is not initialized
 * @undefined calling a weft routine that may switch the caller (a yield, a lock
 * that may wait, a join) between the two calls.
 */
int weft_blocking_begin(void) ABT_API_PUBLIC;

/**
 * @brief End a blocking call that weft_blocking_begin() announced.
 *
 * The calling unit goes on at once on its OS thread; a spare that served its
 * stream's pools meanwhile stops after the unit it is running.
 * @contexts the unit that called weft_blocking_begin().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED weft is not initialized
 * @retval ABT_ERR_INV_ARG no weft_blocking_begin() of the caller is pending
 * @undefined nothing.
 */
int weft_blocking_end(void) ABT_API_PUBLIC;

/** The longest time slice weft_pool_set_preempt() and WEFT_PREEMPT accept: 10 s. */
#define WEFT_PREEMPT_MAX_US 10000000u

/**
 * @brief Let units of a pool be preempted after a time slice of us microseconds.
 *
 * A unit taken from `pool` that runs `us` microseconds without a switch (no yield,
 * no wait, no end: a loop that spins on a flag, a long computation) while other
 * work waits for its stream has that stream's work handed to a spare OS thread
 * of weft, as a blocking call has (weft_blocking_begin()): the spare pops the
 * stream's pools that several streams may pop (ABT_POOL_ACCESS_MPMC,
 * ABT_POOL_ACCESS_SPMC) until the unit switches, and the OS shares the CPUs
 * between the unit's thread and the spare.  The unit itself is not stopped and
 * never leaves its OS thread, so it needs no async-signal safety; a unit that
 * spins waiting for another unit of its stream finishes.  The environment
 * variable WEFT_PREEMPT (microseconds) sets the slice of every pool that has none.
 * A watcher thread samples the running units every quarter of the shortest slice
 * set; units that switch in time cost nothing (the switch path does not change).
 * 0 turns preemption off for the pool.
 * @contexts any, after ABT_init.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is invalid
 * @retval ABT_ERR_INV_ARG us is larger than WEFT_PREEMPT_MAX_US
 * @undefined nothing.
 */
int weft_pool_set_preempt(ABT_pool pool, unsigned int us) ABT_API_PUBLIC;
#ifdef __cplusplus
}
#endif

#endif
