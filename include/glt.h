/* glt.h - GLT (Generic Lightweight Threads) on weft: the unified lightweight-thread API of
 * Castelló et al. ("GLT: a unified API for lightweight thread libraries", Euro-Par 2017),
 * with its Argobots backend's names, types and constants, implemented over abt.h.
 *
 * Two builds of the same functions:
 *   - library:      #include <glt.h>, link `pkg-config --cflags --libs glt`
 *                   (libweft-glt + libweft).  One call into libweft-glt per operation,
 *                   which makes one call into libweft.
 *   - header-only:  compile with -DFASTGLT and #include <fast_glt.h> (or <glt.h>); link
 *                   libweft only (`pkg-config --cflags --libs weft`).  Every function is a
 *                   static inline definition that calls abt.h directly: one call into
 *                   libweft per operation (glt_ult_migrate_self_to: two), with no check
 *                   beyond abt.h's except those listed under "Checks" below.  Any number of
 *                   translation units of one program may include it: the state the build
 *                   needs (the team, the per-thread pool cache, the event table) is defined
 *                   weak, so the linker keeps one copy per executable or shared object.
 *                   Use the library build for a program split over several shared objects
 *                   that all call GLT (each shared object would get its own copy).
 *   -DCORE (either build) keeps the seven core modules and the capability queries only:
 *   the scheduler, event, future and malleability extras and their types are not declared,
 *   and the capability queries return 0.
 *
 * The model.  glt_init() makes a team of GLT "threads", which are weft execution streams
 * (OS threads); thread i has rank i (glt_get_thread_num()), the caller of glt_init() is
 * thread 0.  Two layouts:
 *   - GLT (default): GLT_NUM_THREADS streams (default: the number of online CPUs) and
 *     GLT_NUM_POOLS shared FIFO pools (default: one per thread; at most one per thread);
 *     thread i runs the BASIC scheduler over pool i % GLT_NUM_POOLS.  glt_ult_create()
 *     pushes into the caller's pool, glt_ult_create_to(..., dest) into dest's pool (shared
 *     with the threads of the same pool index when GLT_NUM_POOLS < GLT_NUM_THREADS).
 *   - GLTO (set GLTO_NUM_THREADS=n, the layout for OpenMP over GLT): n streams, each with a
 *     private FIFO pool (only thread i runs what is in it: no other thread's scheduler
 *     lists it; its access mode is MPMC so that a spare OS thread of weft, which carries
 *     rank i, may serve it while thread i blocks in weft_blocking_begin/end) and a shared
 *     FIFO pool; thread i runs the RANDWS scheduler over [private i, shared i,
 *     shared i+1, ..., shared i-1]: its private pool first, then one random shared pool
 *     per round (work stealing).  glt_ult_create() pushes into the caller's shared pool
 *     (stealable), glt_ult_create_to(..., dest) into dest's private pool (runs on dest).
 *   When both are set, GLTO_NUM_THREADS wins.  A value that is not a positive integer makes
 *   glt_init() fail with ABT_ERR_INV_ARG, so does a team larger than GLT_MAX_THREADS.  weft's own
 * variables (ABT_THREAD_STACKSIZE, WEFT_ENABLE_AFFINITY=1 with ABT_SET_AFFINITY to bind streams
 * to CPUs, ...) apply as usual.
 *
 * Errors (the one mechanism, everywhere): every GLT function that was `void` in the
 * original returns an int error code: GLT_SUCCESS (0) or an ABT_ERR_* code of abt.h, passed
 * on from the abt.h call or raised by GLT itself (ABT_ERR_UNINITIALIZED before glt_init(),
 * ABT_ERR_INV_ARG for a NULL pointer or an out-of-range thread rank, ABT_ERR_MEM,
 * GLT_ERR_NOT_SUPPORTED = ABT_ERR_FEATURE_NA).  Callers that ignore the result compile
 * unchanged.  Functions that return a value keep their type and say how they fail:
 * glt_get_thread_num() and glt_get_num_threads() return the negated error code (< 0),
 * glt_ult_malloc()/glt_tasklet_malloc() return NULL, glt_mutex_trylock() returns its code
 * as before.  glt_get_error_str() turns a code into text.  Output handles are set to the
 * ABT_*_NULL value on error.
 *
 * Checks.  Besides abt.h's own checks, GLT checks what abt.h cannot see: NULL pointers it
 * dereferences itself (glt_ult_join, glt_tasklet_join, glt_barrier_wait, ...), thread ranks
 * against the team size, and whether glt_init() ran.  In the header-only build these are a
 * compare and a branch each.
 *
 * Threads and ULTs.  A GLT work unit that yields may resume on another thread when its
 * pool is shared; glt_get_thread_num() always answers for the moment of the call.
 * glt_ult_create() remembers the caller's pool per OS thread (a thread-local cache filled
 * on first use), so it costs no extra call.
 *
 * Differences from the original GLT (adcastel/GLT, Argobots backend): errors are returned
 * (it discarded them); glt_init() does not call the removed ABT_xstream_start; streams are
 * not bound to CPUs unless WEFT_ENABLE_AFFINITY and ABT_SET_AFFINITY say so; the malleability
 * functions and the event functions do something (they were empty or relied on the event API
 * removed in Argobots 1.0, see "Events" below); glt_get_error_str's first parameter is not named
 * errno; the glt_start/glt_end hooks stay empty (GLT's state is made by glt_init, not at
 * load time).  The misspelled names glt_schededuler_create_basic and glt_event_add_callbac
 * are kept, with the spellings of the other backends (glt_scheduler_create_basic,
 * glt_event_add_callback, glt_can_scheduler) as aliases.
 */
#ifndef GLT_H_INCLUDED
#define GLT_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

#include <abt.h>

#if defined(__cplusplus)
extern "C" {
#endif

/** Version string of the GLT API this header provides. */
#define GLT_VERSION "2.0v (weft)"

/* ---- types: aliases of abt.h types, as the original's glt_common.h ----------------------
 * GLT_ult = ABT_thread (a ULT), GLT_tasklet = ABT_task, GLT_thread = ABT_xstream (a GLT
 * "thread" is an execution stream, i.e. an OS thread), GLT_mutex, GLT_barrier, GLT_cond,
 * GLT_timer, GLT_key = their abt.h types, GLT_bool = ABT_bool (GLT_TRUE / GLT_FALSE),
 * GLT_thread_id = int (a thread's rank), GLT_ult_id = ABT_thread_id. */
#define GLT_ult                  ABT_thread
#define GLT_tasklet              ABT_task
#define GLT_thread               ABT_xstream
#define GLT_mutex                ABT_mutex
#define GLT_barrier              ABT_barrier
#define GLT_cond                 ABT_cond
#define GLT_timer                ABT_timer
#define GLT_key                  ABT_key
#define GLT_bool                 ABT_bool
#define GLT_thread_id            int
#define GLT_ult_id               ABT_thread_id
#define GLT_sched                ABT_sched
#define GLT_sched_config         ABT_sched_config
#define GLT_sched_config_var     ABT_sched_config_var
#define GLT_sched_config_var_end ABT_sched_config_var_end

#define GLT_TRUE      1
#define GLT_FALSE     0
#define GLT_SUCCESS   0
#define GLT_NULL      NULL
#define GLT_UNIT_NULL ABT_UNIT_NULL

/** Most GLT threads a team may have (glt_init answers ABT_ERR_INV_ARG beyond). */
#define GLT_MAX_THREADS 4096

/** Error code of an operation this build cannot do (ABT_ERR_FEATURE_NA). */
#define GLT_ERR_NOT_SUPPORTED ABT_ERR_FEATURE_NA

#define GLT_ERROR_QTH(...)  fprintf(stderr, "GLT error (qthreads): " __VA_ARGS__)
#define GLT_ERROR_MYTH(...) fprintf(stderr, "GLT error (massivethreads): " __VA_ARGS__)
#define GLT_LIB_ERROR(...)  fprintf(stderr, "GLT error: " __VA_ARGS__)

/** CHECK(x, y): evaluates x; with -DPARANOID prints a message when x != y (the original's
 * PARANOID body did not compile). */
#ifdef PARANOID
#define CHECK(x, y)                                                                              \
    do {                                                                                         \
        int glt_check_rc_ = (int)(x);                                                            \
        if (glt_check_rc_ != (int)(y))                                                           \
            fprintf(stderr, "GLT CHECK failed: %s = %d at %s:%d\n", #x, glt_check_rc_, __FILE__, \
                    __LINE__);                                                                   \
    } while (0)
#else
#define CHECK(x, y) ((void)(x))
#endif

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif

/** The team made by glt_init() (field names of the original).  Read-only for programs:
 * master = thread 0's stream; team[i] = stream of thread i; num_xstreams = threads;
 * num_pools = pools of the GLT layout (GLTO: one private and one shared per thread);
 * pools[i] = pool i (GLTO: private pool of thread i); spools[i] = shared pool of thread i
 * (GLTO only, else NULL); sched[i] = main scheduler of thread i; max_elem = threads;
 * glto = 1 in the GLTO layout. */
typedef struct glt_team {
    ABT_xstream master;
    ABT_xstream *team;
    int num_xstreams;
    int num_pools;
    ABT_pool *pools;
    ABT_pool *spools;
    ABT_sched *sched;
    int max_elem;
    int glto;
} glt_team_t;

/** The team of glt_init(), NULL before it and after glt_finalize() (the original's global). */
extern glt_team_t *main_team;

#ifndef CORE
#define GLT_future                 ABT_eventual
#define GLT_sched_type             ABT_sched_type
#define GLT_sched_init_fn          ABT_sched_init_fn
#define GLT_sched_run_fn           ABT_sched_run_fn
#define GLT_sched_free_fn          ABT_sched_free_fn
#define GLT_sched_get_migr_pool_fn ABT_sched_get_migr_pool_fn
#define GLT_sched_def              ABT_sched_def
#define GLT_sched_predef           ABT_sched_predef
#define GLT_sched_config_type      ABT_sched_config_type
#define aligned_t                  long unsigned int

#define GLT_SCHED_TYPE_ULT      ABT_SCHED_TYPE_ULT
#define GLT_SCHED_TYPE_TASK     ABT_SCHED_TYPE_TASK
#define GLT_SCHED_DEFAULT       ABT_SCHED_DEFAULT
#define GLT_SCHED_BASIC         ABT_SCHED_BASIC
#define GLT_SCHED_PRIO          ABT_SCHED_PRIO
#define GLT_SCHED_CONFIG_INT    ABT_SCHED_CONFIG_INT
#define GLT_SCHED_CONFIG_DOUBLE ABT_SCHED_CONFIG_DOUBLE
#define GLT_SCHED_CONFIG_PTR    ABT_SCHED_CONFIG_PTR

/** Events (glt_event_add_callbac).  The Argobots 0.x kinds STOP/ADD_XSTREAM (removed from
 * Argobots 1.0) are raised by GLT's malleability: ask callbacks may veto
 * glt_thread_disable*(), act callbacks are told after a thread stopped or started again
 * (abt_arg = the rank, cast to void *).  The ULT kinds map to weft's tool interface
 * (ABT_tool_register_thread_callback, one event bit each): for every such event of any ULT,
 * ask_cb (if not NULL) filters and act_cb (if not NULL) is called, with abt_arg = the
 * ABT_thread; they run inside weft's tool callback, so they must not block nor call GLT
 * or abt.h (other than reading their arguments).  With weft's tool interface off (the
 * default: WEFT_ENABLE_TOOL, README "Configuration") the ULT kinds answer
 * GLT_ERR_NOT_SUPPORTED. */
typedef enum GLT_event_kind {
    GLT_EVENT_STOP_XSTREAM = 0, /**< a GLT thread stops (glt_thread_disable*) */
    GLT_EVENT_ADD_XSTREAM = 1,  /**< a GLT thread starts again (glt_thread_enable*) */
    GLT_EVENT_ULT_CREATE = 2,   /**< ABT_TOOL_EVENT_THREAD_CREATE */
    GLT_EVENT_ULT_JOIN = 3,     /**< ABT_TOOL_EVENT_THREAD_JOIN */
    GLT_EVENT_ULT_FREE = 4,     /**< ABT_TOOL_EVENT_THREAD_FREE */
    GLT_EVENT_ULT_REVIVE = 5,   /**< ABT_TOOL_EVENT_THREAD_REVIVE */
    GLT_EVENT_ULT_RUN = 6,      /**< ABT_TOOL_EVENT_THREAD_RUN */
    GLT_EVENT_ULT_FINISH = 7,   /**< ABT_TOOL_EVENT_THREAD_FINISH */
    GLT_EVENT_ULT_CANCEL = 8,   /**< ABT_TOOL_EVENT_THREAD_CANCEL */
    GLT_EVENT_ULT_YIELD = 9,    /**< ABT_TOOL_EVENT_THREAD_YIELD */
    GLT_EVENT_ULT_SUSPEND = 10, /**< ABT_TOOL_EVENT_THREAD_SUSPEND */
    GLT_EVENT_ULT_RESUME = 11   /**< ABT_TOOL_EVENT_THREAD_RESUME */
} GLT_event_kind;
/** Event callback: returns GLT_TRUE to agree (ask) or as it likes (act). */
typedef GLT_bool (*GLT_event_cb_fn)(void *user_arg, void *abt_arg);
/** Most callbacks registered at once (glt_event_add_callbac answers ABT_ERR_MEM beyond). */
#define GLT_EVENT_MAX_CALLBACKS 32
#endif /* !CORE */

/** Always defined (as in the original): the abt.h calls themselves. */
#define glt_scheduler_config_create ABT_sched_config_create
#define glt_scheduler_config_read   ABT_sched_config_read

/* With -DCORE the capability queries are constants of the including program. */
#ifdef CORE
static inline int glt_can_event_functions(void) { return 0; }
static inline int glt_can_future_functions(void) { return 0; }
static inline int glt_can_manage_scheduler(void) { return 0; }
static inline int glt_can_malleability(void) { return 0; }
static inline int glt_can_scheduler(void) { return 0; }
#endif

#if defined(FASTGLT) && !defined(GLT_BUILDING_LIBRARY)
#if defined(__cplusplus)
}
#endif
#include <fast_glt.h>
#if defined(__cplusplus)
extern "C" {
#endif
#else

#if defined(GLT_BUILDING_LIBRARY)
#define GLT_API_PUBLIC __attribute__((visibility("default")))
#else
#define GLT_API_PUBLIC
#endif

/* ===================================================================================== */
/* 1. Setup                                                                              */
/* ===================================================================================== */

/** Load hook of the library (a constructor); does nothing (glt_init makes the state). */
void glt_start(void) GLT_API_PUBLIC;
/** Unload hook of the library (a destructor); does nothing (glt_finalize tears down). */
void glt_end(void) GLT_API_PUBLIC;
/** Starts weft (ABT_init(argc, argv)) and makes the team (see the layouts above).  Call it
 * first, from the main thread (or from a ULT of the primary stream if the program already
 * called ABT_init).  Errors: ABT_ERR_OTHER (GLT already initialised), ABT_ERR_INV_ARG (bad
 * GLT_NUM_THREADS, GLT_NUM_POOLS or GLTO_NUM_THREADS), ABT_ERR_INV_XSTREAM (not called on
 * the primary stream), ABT_ERR_INV_XSTREAM_RANK (a rank 1..n-1 is already taken by a
 * stream the program made), ABT_ERR_MEM, or the code of ABT_init / stream creation; on
 * error nothing is left initialised. */
int glt_init(int argc, char *argv[]) GLT_API_PUBLIC;
/** Joins and frees threads 1..n-1 (each finishes the work queued for it first), frees the
 * team and calls ABT_finalize().  Call it from the code that called glt_init (the primary
 * ULT) after every ULT that must finish was joined; if another thread sharing pool 0 runs
 * the primary ULT at that moment, it waits until thread 0 runs it.  Errors:
 * ABT_ERR_UNINITIALIZED (no glt_init), ABT_ERR_INV_XSTREAM (called by another work unit
 * than the primary ULT), or the first error of the stream frees and ABT_finalize. */
int glt_finalize(void) GLT_API_PUBLIC;
/** The team (main_team), or NULL before glt_init(). */
glt_team_t *glt_get_team(void) GLT_API_PUBLIC;

/* ===================================================================================== */
/* 2. Work units                                                                         */
/* ===================================================================================== */

/** malloc of an array of number_of_ult handles; NULL if the number is not positive or on
 * allocation failure.  Release it with free(). */
GLT_ult *glt_ult_malloc(int number_of_ult) GLT_API_PUBLIC;
/** malloc of an array of tasklet handles; as glt_ult_malloc(). */
GLT_tasklet *glt_tasklet_malloc(int number_of_tasklets) GLT_API_PUBLIC;
/** Creates a ULT running thread_func(arg) in the caller's pool (see the layouts); *new_ult
 * receives its handle (new_ult may be NULL: an unnamed ULT that frees itself).  Errors:
 * ABT_ERR_UNINITIALIZED (no glt_init), ABT_ERR_INV_XSTREAM (the caller is not a GLT
 * thread), and those of ABT_thread_create. */
int glt_ult_create(void (*thread_func)(void *), void *arg, GLT_ult *new_ult) GLT_API_PUBLIC;
/** Creates a ULT on thread dest (its pool; the creator keeps running).  Errors:
 * ABT_ERR_INV_ARG (dest not in 0..glt_get_num_threads()-1, or no glt_init), and those of
 * ABT_thread_create. */
int glt_ult_create_to(void (*thread_func)(void *), void *arg, GLT_ult *new_ult,
                      int dest) GLT_API_PUBLIC;
/** Creates a tasklet in the caller's pool; as glt_ult_create(). */
int glt_tasklet_create(void (*thread_func)(void *), void *arg, GLT_tasklet *new_ult) GLT_API_PUBLIC;
/** Creates a tasklet on thread dest; as glt_ult_create_to(). */
int glt_tasklet_create_to(void (*thread_func)(void *), void *arg, GLT_tasklet *new_ult,
                          int dest) GLT_API_PUBLIC;
/** ABT_thread_yield(): lets other work of the thread run. */
int glt_yield(void) GLT_API_PUBLIC;
/** ABT_thread_yield_to(ult): switches to ult directly. */
int glt_yield_to(GLT_ult ult) GLT_API_PUBLIC;
/** Waits for *ult to finish (ABT_thread_join); does not free it.  ABT_ERR_INV_ARG if ult is
 * NULL. */
int glt_ult_join(GLT_ult *ult) GLT_API_PUBLIC;
/** Waits for *tasklet to finish (ABT_task_join).  ABT_ERR_INV_ARG if tasklet is NULL. */
int glt_tasklet_join(GLT_tasklet *tasklet) GLT_API_PUBLIC;
/** Frees *ult (waiting for it first if needed) and sets it to ABT_THREAD_NULL. */
int glt_ult_free(GLT_ult *ult) GLT_API_PUBLIC;
/** Frees *tasklet (waiting for it first if needed) and sets it to ABT_TASK_NULL. */
int glt_tasklet_free(GLT_tasklet *tasklet) GLT_API_PUBLIC;
/** *id = the id of ult (ABT_thread_get_id; output first, as in the original). */
int glt_ult_get_id(GLT_ult_id *id, GLT_ult ult) GLT_API_PUBLIC;
/** *id = the rank of the caller's thread (ABT_xstream_self_rank). */
int glt_workunit_get_thread_id(GLT_thread_id *id) GLT_API_PUBLIC;
/** Moves the calling ULT to thread id (into the pool glt_ult_create_to(id) uses); it runs
 * there from its next scheduling on.  Errors: ABT_ERR_INV_ARG (bad id), those of
 * ABT_thread_self (a tasklet or external thread calls) and ABT_thread_migrate_to_pool
 * (the primary ULT cannot migrate: ABT_ERR_MIGRATION_NA). */
int glt_ult_migrate_self_to(GLT_thread_id id) GLT_API_PUBLIC;
/** *ult = the calling ULT (ABT_thread_self). */
int glt_ult_self(GLT_ult *ult) GLT_API_PUBLIC;
/** *tasklet = the calling tasklet (ABT_task_self). */
int glt_tasklet_self(GLT_tasklet *tasklet) GLT_API_PUBLIC;
/** Cancels a ULT that has not finished (ABT_thread_cancel). */
int glt_ult_cancel(GLT_ult ult) GLT_API_PUBLIC;
/** Cancels a tasklet that has not run (ABT_task_cancel). */
int glt_tasklet_cancel(GLT_tasklet tasklet) GLT_API_PUBLIC;
/** Ends the calling ULT (ABT_thread_exit); returns only on error. */
int glt_ult_exit(void) GLT_API_PUBLIC;

/* ===================================================================================== */
/* 3. Mutex                                                                              */
/* ===================================================================================== */

/** ABT_mutex_create. */
int glt_mutex_create(GLT_mutex *mutex) GLT_API_PUBLIC;
/** ABT_mutex_free. */
int glt_mutex_free(GLT_mutex *mutex) GLT_API_PUBLIC;
/** ABT_mutex_lock: a ULT waiting for it lets other work run. */
int glt_mutex_lock(GLT_mutex mutex) GLT_API_PUBLIC;
/** ABT_mutex_unlock. */
int glt_mutex_unlock(GLT_mutex mutex) GLT_API_PUBLIC;
/** ABT_mutex_trylock: GLT_SUCCESS (0) when acquired, ABT_ERR_MUTEX_LOCKED when taken. */
int glt_mutex_trylock(GLT_mutex mutex) GLT_API_PUBLIC;
/** ABT_mutex_spinlock: busy-waits without a context switch. */
int glt_mutex_spinlock(GLT_mutex mutex) GLT_API_PUBLIC;

/* ===================================================================================== */
/* 4. Barrier                                                                            */
/* ===================================================================================== */

/** A barrier of num_waiters (> 0, else ABT_ERR_INV_ARG). */
int glt_barrier_create(int num_waiters, GLT_barrier *barrier) GLT_API_PUBLIC;
/** ABT_barrier_free. */
int glt_barrier_free(GLT_barrier *barrier) GLT_API_PUBLIC;
/** ABT_barrier_wait(*barrier) (a pointer, as in the original); ABT_ERR_INV_ARG if NULL. */
int glt_barrier_wait(GLT_barrier *barrier) GLT_API_PUBLIC;

/* ===================================================================================== */
/* 5. Condition                                                                          */
/* ===================================================================================== */

/** ABT_cond_create. */
int glt_cond_create(GLT_cond *cond) GLT_API_PUBLIC;
/** ABT_cond_free. */
int glt_cond_free(GLT_cond *cond) GLT_API_PUBLIC;
/** ABT_cond_signal. */
int glt_cond_signal(GLT_cond cond) GLT_API_PUBLIC;
/** ABT_cond_wait (mutex held by the caller). */
int glt_cond_wait(GLT_cond cond, GLT_mutex mutex) GLT_API_PUBLIC;
/** ABT_cond_broadcast. */
int glt_cond_broadcast(GLT_cond cond) GLT_API_PUBLIC;

/* ===================================================================================== */
/* 6. Util and timer                                                                     */
/* ===================================================================================== */

/** Rank of the caller's thread (0..n-1), or -ABT_ERR_* (< 0) when the caller is not on an
 * execution stream (-ABT_ERR_INV_XSTREAM) or weft is not running (-ABT_ERR_UNINITIALIZED). */
int glt_get_thread_num(void) GLT_API_PUBLIC;
/** Number of threads of the team, or -ABT_ERR_UNINITIALIZED before glt_init(). */
int glt_get_num_threads(void) GLT_API_PUBLIC;
/** Wall-clock time in seconds (ABT_get_wtime). */
double glt_get_wtime(void) GLT_API_PUBLIC;
/** ABT_timer_create. */
int glt_timer_create(GLT_timer *timer) GLT_API_PUBLIC;
/** ABT_timer_free. */
int glt_timer_free(GLT_timer *timer) GLT_API_PUBLIC;
/** ABT_timer_start. */
int glt_timer_start(GLT_timer timer) GLT_API_PUBLIC;
/** ABT_timer_stop. */
int glt_timer_stop(GLT_timer timer) GLT_API_PUBLIC;
/** *secs = time between the last start and stop (ABT_timer_read). */
int glt_timer_get_secs(GLT_timer timer, double *secs) GLT_API_PUBLIC;

/* ===================================================================================== */
/* 7. Keys (work-unit-local values)                                                      */
/* ===================================================================================== */

/** ABT_key_create: destructor (may be NULL) runs on a unit's non-NULL value when it ends. */
int glt_key_create(void (*destructor)(void *value), GLT_key *newkey) GLT_API_PUBLIC;
/** ABT_key_free. */
int glt_key_free(GLT_key *key) GLT_API_PUBLIC;
/** ABT_key_set: the calling unit's value. */
int glt_key_set(GLT_key key, void *value) GLT_API_PUBLIC;
/** ABT_key_get: the calling unit's value (NULL if never set). */
int glt_key_get(GLT_key key, void **value) GLT_API_PUBLIC;

/* ===================================================================================== */
/* Capability queries                                                                    */
/* ===================================================================================== */
#ifndef CORE
/** 1: the event functions are available (ULT kinds need weft's tool interface). */
int glt_can_event_functions(void) GLT_API_PUBLIC;
/** 1: the future functions are available. */
int glt_can_future_functions(void) GLT_API_PUBLIC;
/** 1: the scheduler functions are available. */
int glt_can_manage_scheduler(void) GLT_API_PUBLIC;
/** 1: the malleability functions are available. */
int glt_can_malleability(void) GLT_API_PUBLIC;
/** Alias of glt_can_manage_scheduler (the name of GLT's other backends). */
int glt_can_scheduler(void) GLT_API_PUBLIC;

/* ===================================================================================== */
/* Extras: scheduler                                                                     */
/* ===================================================================================== */

/** ABT_sched_config_free. */
int glt_scheduler_config_free(GLT_sched_config *config) GLT_API_PUBLIC;
/** ABT_sched_create over the first pool of each listed thread (the pool
 * glt_ult_create_to(threads_id[i]) uses).  ABT_ERR_INV_ARG for num_threads <= 0, a NULL
 * threads_id or a bad rank. */
int glt_scheduler_create(GLT_sched_def *def, int num_threads, int *threads_id,
                         GLT_sched_config config, GLT_sched *newsched) GLT_API_PUBLIC;
/** ABT_sched_create_basic over the listed threads' pools (the original's spelling). */
int glt_schededuler_create_basic(GLT_sched_predef predef, int num_threads, int *threads_id,
                                 GLT_sched_config config, GLT_sched *newsched) GLT_API_PUBLIC;
/** Alias of glt_schededuler_create_basic (the name of GLT's other backends). */
int glt_scheduler_create_basic(GLT_sched_predef predef, int num_threads, int *threads_id,
                               GLT_sched_config config, GLT_sched *newsched) GLT_API_PUBLIC;
/** ABT_sched_free. */
int glt_scheduler_free(GLT_sched *sched) GLT_API_PUBLIC;
/** ABT_sched_finish. */
int glt_scheduler_finish(GLT_sched sched) GLT_API_PUBLIC;
/** ABT_sched_exit. */
int glt_scheduler_exit(GLT_sched sched) GLT_API_PUBLIC;
/** ABT_sched_has_to_stop. */
int glt_scheduler_has_to_stop(GLT_sched sched, GLT_bool *stop) GLT_API_PUBLIC;
/** ABT_sched_set_data. */
int glt_scheduler_set_data(GLT_sched sched, void *data) GLT_API_PUBLIC;
/** ABT_sched_get_data. */
int glt_scheduler_get_data(GLT_sched sched, void **data) GLT_API_PUBLIC;
/** ABT_sched_get_size. */
int glt_scheduler_get_size(GLT_sched sched, size_t *size) GLT_API_PUBLIC;
/** ABT_sched_get_total_size. */
int glt_scheduler_get_total_size(GLT_sched sched, size_t *size) GLT_API_PUBLIC;

/* ===================================================================================== */
/* Extras: error string, events, future, malleability                                    */
/* ===================================================================================== */

/** ABT_error_get_str: the name of error code err (the original named the parameter errno). */
int glt_get_error_str(int err, char *str, size_t *len) GLT_API_PUBLIC;
/** Registers a callback pair for an event kind (see GLT_event_kind); *cb_id receives its id
 * for glt_event_del_callback.  Errors: ABT_ERR_UNINITIALIZED, ABT_ERR_INV_ARG (unknown
 * kind, both callbacks NULL, cb_id NULL), ABT_ERR_MEM (GLT_EVENT_MAX_CALLBACKS reached),
 * GLT_ERR_NOT_SUPPORTED (a ULT kind while weft's tool interface is off). */
int glt_event_add_callbac(GLT_event_kind event, GLT_event_cb_fn ask_cb, void *ask_user_arg,
                          GLT_event_cb_fn act_cb, void *act_user_arg, int *cb_id) GLT_API_PUBLIC;
/** Alias of glt_event_add_callbac (spelled right). */
int glt_event_add_callback(GLT_event_kind event, GLT_event_cb_fn ask_cb, void *ask_user_arg,
                           GLT_event_cb_fn act_cb, void *act_user_arg, int *cb_id) GLT_API_PUBLIC;
/** Removes callback cb_id of kind event; when it returns the callback is not running and
 * will not run again.  ABT_ERR_INV_ARG if no such registration. */
int glt_event_del_callback(GLT_event_kind event, int cb_id) GLT_API_PUBLIC;
/** A future of nbytes bytes (ABT_eventual_create). */
int glt_future_create(int nbytes, GLT_future *newfuture) GLT_API_PUBLIC;
/** ABT_eventual_free. */
int glt_future_free(GLT_future *future) GLT_API_PUBLIC;
/** Waits until the future is set; *value points at its bytes (ABT_eventual_wait). */
int glt_future_wait(GLT_future future, void **value) GLT_API_PUBLIC;
/** Sets the future to nbytes bytes at value and wakes its waiters (ABT_eventual_set). */
int glt_future_set(GLT_future future, void *value, int nbytes) GLT_API_PUBLIC;
/** Starts again every disabled thread (glt_thread_enable_id for each). */
int glt_thread_enable(void) GLT_API_PUBLIC;
/** Stops every thread but thread 0 and the caller's (glt_thread_disable_id for each);
 * stops at the first error. */
int glt_thread_disable(void) GLT_API_PUBLIC;
/** Starts disabled thread thread_id again (ABT_xstream_revive) and raises
 * GLT_EVENT_ADD_XSTREAM.  GLT_SUCCESS if it is not disabled; ABT_ERR_INV_ARG for a bad
 * rank. */
int glt_thread_enable_id(int thread_id) GLT_API_PUBLIC;
/** Stops thread thread_id: asks the GLT_EVENT_STOP_XSTREAM ask callbacks (one answering
 * GLT_FALSE vetoes: ABT_ERR_XSTREAM), then the thread runs what is queued in its pools and
 * its OS thread ends (ABT_xstream_join), then the act callbacks run.  Work created for it
 * afterwards waits in its pool until glt_thread_enable_id (or runs on the threads sharing
 * the pool).  GLT_SUCCESS if already disabled; ABT_ERR_INV_ARG for a bad rank;
 * ABT_ERR_INV_XSTREAM for thread 0 or the caller's own thread. */
int glt_thread_disable_id(int thread_id) GLT_API_PUBLIC;
#endif /* !CORE */

#endif /* FASTGLT */

#if defined(__cplusplus)
}
#endif

#endif /* GLT_H_INCLUDED */
