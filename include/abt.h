/**
 * @file abt.h
 * @brief The Argobots 1.2 interface of weft, a user-level threading runtime.
 *
 * weft implements the Argobots 1.2 application interface: programs written
 * against Argobots include this file as <abt.h>, call the same ABT_* routines
 * and link against weft instead.  Everything a client can see is declared
 * here; all implementation types stay opaque.
 *
 * Conventions used throughout:
 *  - Every routine except ABT_get_wtime() returns an int error code;
 *    ABT_SUCCESS (0) means success.
 *  - Handles are opaque pointers.  Each handle type has a *_NULL value; in
 *    this build those are small non-zero constants, so ABT_THREAD_NULL is not
 *    equal to NULL.  Freeing routines take a pointer to the handle and reset
 *    it to the matching *_NULL value.
 *  - Unless a module comment says otherwise, passing the NULL handle of a
 *    type returns the matching ABT_ERR_INV_* code (ABT_ERR_INV_THREAD for
 *    ABT_THREAD_NULL, ABT_ERR_INV_POOL for ABT_POOL_NULL, ...).  A NULL
 *    pointer for an output argument returns ABT_ERR_INV_ARG where a
 *    routine's Errors section says so (Argobots leaves it undefined).
 *  - Each routine is documented in fixed sections: what it does, Contexts
 *    (who may call it), Return values (every error weft returns), Undefined
 *    behaviour, and, where it applies, the Difference from Argobots.  Using a
 *    handle after it was freed is undefined for every routine.
 *  - "Work unit" means a ULT (user-level thread, ABT_thread) or a tasklet
 *    (ABT_task).  An "external thread" is an OS thread not created by the
 *    runtime.
 */

#ifndef ABT_H_INCLUDED
#define ABT_H_INCLUDED

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sys/time.h>

/** ABT_cond_timedwait() and ABT_eventual_timedwait() take a struct timespec.
 * <time.h> defines it for C11 and POSIX builds; this declaration keeps the
 * prototypes well-formed even in strict pre-C11 modes. */
struct timespec;

/** Marks every exported symbol; the library itself is built with
 * -fvisibility=hidden, so anything without it would not be exported. */
#if defined(__GNUC__) || defined(__clang__)
#define ABT_API_PUBLIC __attribute__((visibility("default")))
#else
#define ABT_API_PUBLIC
#endif

/** Marks interfaces kept only for backward compatibility. */
#if defined(__GNUC__) || defined(__clang__)
#define ABT_DEPRECATED __attribute__((deprecated))
#else
#define ABT_DEPRECATED
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* ======================================================================== */
/* Version                                                                  */
/* ======================================================================== */

/** Release kinds, used as the TYPE argument of ABT_CALC_VERSION.  A final
 * release counts as PATCH with patch number 0.  @{ */
#define ABT_RELEASE_TYPE_ALPHA 0
#define ABT_RELEASE_TYPE_BETA  1
#define ABT_RELEASE_TYPE_RC    2
#define ABT_RELEASE_TYPE_PATCH 3
/** @} */

/** Encodes a version as one comparable integer:
 * MAJOR*10^7 + MINOR*10^5 + REVISION*10^3 + TYPE*100 + PATCH. */
#define ABT_CALC_VERSION(MAJOR, MINOR, REVISION, TYPE, PATCH) \
    ((MAJOR)*10000000 + (MINOR)*100000 + (REVISION)*1000 + (TYPE)*100 + (PATCH))

/** The interface version implemented: Argobots 1.2 (final release). */
#define ABT_VERSION    "1.2"
#define ABT_NUMVERSION 10200300 /**< ABT_CALC_VERSION(1, 2, 0, PATCH, 0) */

/** weft never enables the Argobots 2.0 preview interface; the 1.x behaviour
 * of every routine applies. */
#define ABT_ENABLE_VER_20_API_VAL 0

/* ======================================================================== */
/* Error codes                                                              */
/* ======================================================================== */

/** Return values of the ABT_* routines.  ABT_error_get_str() turns a code
 * into its macro name.  @{ */
#define ABT_SUCCESS                 0 /**< no error */
#define ABT_ERR_UNINITIALIZED       1 /**< runtime not initialised */
#define ABT_ERR_MEM                 2 /**< memory allocation failed */
#define ABT_ERR_OTHER               3 /**< anything not covered below */
#define ABT_ERR_INV_XSTREAM         4 /**< bad execution stream */
#define ABT_ERR_INV_XSTREAM_RANK    5 /**< bad or taken rank */
#define ABT_ERR_INV_XSTREAM_BARRIER 6
#define ABT_ERR_INV_SCHED           7
#define ABT_ERR_INV_SCHED_KIND      8
#define ABT_ERR_INV_SCHED_PREDEF    9
#define ABT_ERR_INV_SCHED_TYPE      10 /**< deprecated, never returned */
#define ABT_ERR_INV_SCHED_CONFIG    11
#define ABT_ERR_INV_POOL            12
#define ABT_ERR_INV_POOL_KIND       13
#define ABT_ERR_INV_POOL_ACCESS     14
/** @} */
/** 56 and 57 were added later; they are listed next to their relatives.  @{ */
#define ABT_ERR_INV_POOL_CONFIG     56
#define ABT_ERR_INV_POOL_USER_DEF   57
#define ABT_ERR_INV_UNIT            15
#define ABT_ERR_INV_THREAD          16
#define ABT_ERR_INV_THREAD_ATTR     17
#define ABT_ERR_INV_TASK            18
#define ABT_ERR_INV_KEY             19
#define ABT_ERR_INV_MUTEX           20
#define ABT_ERR_INV_MUTEX_ATTR      21
#define ABT_ERR_INV_COND            22
#define ABT_ERR_INV_RWLOCK          23
#define ABT_ERR_INV_EVENTUAL        24
#define ABT_ERR_INV_FUTURE          25
#define ABT_ERR_INV_BARRIER         26
#define ABT_ERR_INV_TIMER           27
#define ABT_ERR_INV_QUERY_KIND      28
#define ABT_ERR_XSTREAM             29
#define ABT_ERR_XSTREAM_STATE       30 /**< deprecated */
#define ABT_ERR_XSTREAM_BARRIER     31
#define ABT_ERR_SCHED               32
#define ABT_ERR_SCHED_CONFIG        33
#define ABT_ERR_POOL                34 /**< e.g. operation not provided by pool */
#define ABT_ERR_UNIT                35
#define ABT_ERR_THREAD              36
#define ABT_ERR_TASK                37
#define ABT_ERR_KEY                 38
#define ABT_ERR_MUTEX               39
#define ABT_ERR_MUTEX_LOCKED        40 /**< ABT_mutex_trylock found it taken */
#define ABT_ERR_COND                41
#define ABT_ERR_COND_TIMEDOUT       42 /**< a timed wait expired */
#define ABT_ERR_RWLOCK              43
#define ABT_ERR_EVENTUAL            44
#define ABT_ERR_FUTURE              45
#define ABT_ERR_BARRIER             46
#define ABT_ERR_TIMER               47
#define ABT_ERR_MIGRATION_TARGET    48 /**< already in the migration target */
#define ABT_ERR_MIGRATION_NA        49 /**< no place to migrate to */
#define ABT_ERR_MISSING_JOIN        50 /**< deprecated, never returned */
#define ABT_ERR_FEATURE_NA          51 /**< feature not available in this build */
#define ABT_ERR_INV_TOOL_CONTEXT    52
#define ABT_ERR_INV_ARG             53 /**< invalid argument value */
#define ABT_ERR_SYS                 54 /**< a system call failed */
#define ABT_ERR_CPUID               55 /**< invalid or unbound CPU id */
/** @} */

/* ======================================================================== */
/* Basic constants and enumerations                                         */
/* ======================================================================== */

typedef int ABT_bool; /**< boolean: ABT_TRUE or ABT_FALSE */
#define ABT_TRUE  1   /**< true value of ABT_bool */
#define ABT_FALSE 0   /**< false value of ABT_bool */

/** Historical "any rank" value; no routine uses it. */
#define ABT_XSTREAM_ANY_RANK (-1)

/** Life cycle of an execution stream. */
enum ABT_xstream_state { ABT_XSTREAM_STATE_RUNNING = 0, ABT_XSTREAM_STATE_TERMINATED = 1 };

/** Built-in schedulers for the *_create_basic routines.  DEFAULT and BASIC
 * scan their pools in order; BASIC_WAIT does the same but sleeps on an empty
 * pool; PRIO treats pool 0 as the highest priority; RANDWS owns pool 0 and
 * steals from the others at random. */
enum ABT_sched_predef {
    ABT_SCHED_DEFAULT = 0,
    ABT_SCHED_BASIC = 1,
    ABT_SCHED_PRIO = 2,
    ABT_SCHED_RANDWS = 3,
    ABT_SCHED_BASIC_WAIT = 4
};

/** Life cycle of a scheduler. */
enum ABT_sched_state {
    ABT_SCHED_STATE_READY = 0,
    ABT_SCHED_STATE_RUNNING = 1,
    ABT_SCHED_STATE_STOPPED = 2,
    ABT_SCHED_STATE_TERMINATED = 3
};

/** Kind of work unit that would run a user scheduler (ABT_sched_def.type).
 * Accepted for compatibility; schedulers always run on a ULT. */
enum ABT_sched_type { ABT_SCHED_TYPE_ULT = 0, ABT_SCHED_TYPE_TASK = 1 };

/** Built-in pool implementations for ABT_pool_create_basic(). */
enum ABT_pool_kind {
    ABT_POOL_FIFO = 0,      /**< plain FIFO queue */
    ABT_POOL_FIFO_WAIT = 1, /**< FIFO whose pop can block until work arrives */
    ABT_POOL_RANDWS = 2     /**< deque meant for random work stealing */
};

/** Which execution streams may push to (producers) and pop from (consumers)
 * a pool: PRIV = only one ES does both; S = single, M = multiple. */
enum ABT_pool_access {
    ABT_POOL_ACCESS_PRIV = 0,
    ABT_POOL_ACCESS_SPSC = 1,
    ABT_POOL_ACCESS_MPSC = 2,
    ABT_POOL_ACCESS_SPMC = 3,
    ABT_POOL_ACCESS_MPMC = 4
};

/** What the caller is, as reported by ABT_self_get_type(). */
enum ABT_unit_type {
    ABT_UNIT_TYPE_THREAD = 0,  /**< a ULT */
    ABT_UNIT_TYPE_TASK = 1,    /**< a tasklet */
    ABT_UNIT_TYPE_XSTREAM = 2, /**< an execution stream itself */
    ABT_UNIT_TYPE_EXT = 3      /**< an external thread */
};

/** Life cycle of a ULT. */
enum ABT_thread_state {
    ABT_THREAD_STATE_READY = 0,
    ABT_THREAD_STATE_RUNNING = 1,
    ABT_THREAD_STATE_BLOCKED = 2,
    ABT_THREAD_STATE_TERMINATED = 3
};

/** Life cycle of a tasklet. */
enum ABT_task_state {
    ABT_TASK_STATE_READY = 0,
    ABT_TASK_STATE_RUNNING = 1,
    ABT_TASK_STATE_TERMINATED = 2
};

/** Questions accepted by ABT_info_query_config().  The pointee type of `val`
 * is ABT_bool for the ENABLED_* kinds, FCONTEXT and DYNAMIC_PROMOTION;
 * unsigned int for MAX_NUM_XSTREAMS; size_t for the two *_STACKSIZE kinds;
 * uint64_t for DEFAULT_SCHED_EVENT_FREQ and DEFAULT_SCHED_SLEEP_NSEC; int for
 * ENABLED_STACK_OVERFLOW_CHECK (0 off, 1 canary, 2 mprotect ignoring
 * failures, 3 strict mprotect) and WAIT_POLICY (0 passive, 1 active). */
enum ABT_info_query_kind {
    ABT_INFO_QUERY_KIND_ENABLED_DEBUG = 0,
    ABT_INFO_QUERY_KIND_ENABLED_PRINT_ERRNO = 1,
    ABT_INFO_QUERY_KIND_ENABLED_LOG = 2,
    ABT_INFO_QUERY_KIND_ENABLED_VALGRIND = 3,
    ABT_INFO_QUERY_KIND_ENABLED_CHECK_ERROR = 4,
    ABT_INFO_QUERY_KIND_ENABLED_CHECK_POOL_PRODUCER = 5,
    ABT_INFO_QUERY_KIND_ENABLED_CHECK_POOL_CONSUMER = 6,
    ABT_INFO_QUERY_KIND_ENABLED_PRESERVE_FPU = 7,
    ABT_INFO_QUERY_KIND_ENABLED_THREAD_CANCEL = 8,
    ABT_INFO_QUERY_KIND_ENABLED_TASK_CANCEL = 9,
    ABT_INFO_QUERY_KIND_ENABLED_MIGRATION = 10,
    ABT_INFO_QUERY_KIND_ENABLED_STACKABLE_SCHED = 11,
    ABT_INFO_QUERY_KIND_ENABLED_EXTERNAL_THREAD = 12,
    ABT_INFO_QUERY_KIND_ENABLED_SCHED_SLEEP = 13,
    ABT_INFO_QUERY_KIND_ENABLED_PRINT_CONFIG = 14,
    ABT_INFO_QUERY_KIND_ENABLED_AFFINITY = 15,
    ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS = 16,
    ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE = 17,
    ABT_INFO_QUERY_KIND_DEFAULT_SCHED_STACKSIZE = 18,
    ABT_INFO_QUERY_KIND_DEFAULT_SCHED_EVENT_FREQ = 19,
    ABT_INFO_QUERY_KIND_DEFAULT_SCHED_SLEEP_NSEC = 20,
    ABT_INFO_QUERY_KIND_ENABLED_TOOL = 21,
    ABT_INFO_QUERY_KIND_FCONTEXT = 22,
    ABT_INFO_QUERY_KIND_DYNAMIC_PROMOTION = 23,
    ABT_INFO_QUERY_KIND_ENABLED_STACK_UNWIND = 24,
    ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK = 25,
    ABT_INFO_QUERY_KIND_WAIT_POLICY = 26,
    ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC = 27
};

/** Questions accepted by ABT_tool_query_thread() inside a tool callback; the
 * comment gives the pointee type of `val`. */
enum ABT_tool_query_kind {
    ABT_TOOL_QUERY_KIND_POOL = 0,              /**< ABT_pool */
    ABT_TOOL_QUERY_KIND_STACK_DEPTH = 1,       /**< int */
    ABT_TOOL_QUERY_KIND_CALLER_TYPE = 2,       /**< ABT_exec_entity_type */
    ABT_TOOL_QUERY_KIND_CALLER_HANDLE = 3,     /**< ABT_thread, or NULL */
    ABT_TOOL_QUERY_KIND_SYNC_OBJECT_TYPE = 4,  /**< ABT_sync_event_type */
    ABT_TOOL_QUERY_KIND_SYNC_OBJECT_HANDLE = 5 /**< handle of that object */
};

/** Who triggered a tool event. */
enum ABT_exec_entity_type {
    ABT_EXEC_ENTITY_TYPE_EXT = 0,   /**< an external thread */
    ABT_EXEC_ENTITY_TYPE_THREAD = 1 /**< a work unit */
};

/** What a work unit blocked on, for suspend/resume tool events. */
enum ABT_sync_event_type {
    ABT_SYNC_EVENT_TYPE_UNKNOWN = 0,
    ABT_SYNC_EVENT_TYPE_USER = 1,
    ABT_SYNC_EVENT_TYPE_OTHER = 2,
    ABT_SYNC_EVENT_TYPE_XSTREAM_JOIN = 3,
    ABT_SYNC_EVENT_TYPE_THREAD_JOIN = 4,
    ABT_SYNC_EVENT_TYPE_MUTEX = 5,
    ABT_SYNC_EVENT_TYPE_COND = 6,
    ABT_SYNC_EVENT_TYPE_RWLOCK = 7,
    ABT_SYNC_EVENT_TYPE_EVENTUAL = 8,
    ABT_SYNC_EVENT_TYPE_FUTURE = 9,
    ABT_SYNC_EVENT_TYPE_BARRIER = 10
};

/** Event bits for the event_mask of ABT_tool_register_thread_callback().  @{ */
#define ABT_TOOL_EVENT_THREAD_NONE    ((uint64_t)0)
#define ABT_TOOL_EVENT_THREAD_CREATE  ((uint64_t)1 << 0)
#define ABT_TOOL_EVENT_THREAD_JOIN    ((uint64_t)1 << 1)
#define ABT_TOOL_EVENT_THREAD_FREE    ((uint64_t)1 << 2)
#define ABT_TOOL_EVENT_THREAD_REVIVE  ((uint64_t)1 << 3)
#define ABT_TOOL_EVENT_THREAD_RUN     ((uint64_t)1 << 4)
#define ABT_TOOL_EVENT_THREAD_FINISH  ((uint64_t)1 << 5)
#define ABT_TOOL_EVENT_THREAD_CANCEL  ((uint64_t)1 << 6)
#define ABT_TOOL_EVENT_THREAD_YIELD   ((uint64_t)1 << 7)
#define ABT_TOOL_EVENT_THREAD_SUSPEND ((uint64_t)1 << 8)
#define ABT_TOOL_EVENT_THREAD_RESUME  ((uint64_t)1 << 9)
#define ABT_TOOL_EVENT_THREAD_ALL     ((uint64_t)0xfff) /**< bits 0..11 */
/** @} */

/* ======================================================================== */
/* Handles and scalar types                                                 */
/* ======================================================================== */

/** Each handle points to its own incomplete struct, so handles of different
 * kinds cannot be mixed up silently.  ABT_task deliberately shares the ULT
 * struct: a tasklet is a work unit without a stack.  ABT_pool_user_def
 * points to struct ABT_pool_def, which is also the complete type of an
 * old-style pool definition (see below).  @{ */
typedef struct ABT_xstream_opaque *ABT_xstream;
typedef struct ABT_xstream_barrier_opaque *ABT_xstream_barrier;
typedef struct ABT_sched_opaque *ABT_sched;
typedef struct ABT_sched_config_opaque *ABT_sched_config;
typedef struct ABT_pool_opaque *ABT_pool;
typedef struct ABT_pool_config_opaque *ABT_pool_config;
typedef struct ABT_pool_def *ABT_pool_user_def;
typedef struct ABT_unit_opaque *ABT_unit;
typedef struct ABT_thread_opaque *ABT_thread;
typedef struct ABT_thread_attr_opaque *ABT_thread_attr;
typedef struct ABT_thread_opaque *ABT_task;
typedef struct ABT_key_opaque *ABT_key;
typedef struct ABT_mutex_opaque *ABT_mutex;
typedef struct ABT_mutex_attr_opaque *ABT_mutex_attr;
typedef struct ABT_cond_opaque *ABT_cond;
typedef struct ABT_rwlock_opaque *ABT_rwlock;
typedef struct ABT_eventual_opaque *ABT_eventual;
typedef struct ABT_future_opaque *ABT_future;
typedef struct ABT_barrier_opaque *ABT_barrier;
typedef struct ABT_timer_opaque *ABT_timer;
typedef struct ABT_tool_context_opaque *ABT_tool_context;
/** @} */

typedef uint64_t ABT_unit_id;      /**< work-unit identifier */
typedef ABT_unit_id ABT_thread_id; /**< same thing, ULT spelling */

typedef enum ABT_xstream_state ABT_xstream_state;       /**< see enum ABT_xstream_state */
typedef enum ABT_sched_predef ABT_sched_predef;         /**< see enum ABT_sched_predef */
typedef enum ABT_sched_state ABT_sched_state;           /**< see enum ABT_sched_state */
typedef enum ABT_sched_type ABT_sched_type;             /**< see enum ABT_sched_type */
typedef enum ABT_pool_kind ABT_pool_kind;               /**< see enum ABT_pool_kind */
typedef enum ABT_pool_access ABT_pool_access;           /**< see enum ABT_pool_access */
typedef enum ABT_unit_type ABT_unit_type;               /**< see enum ABT_unit_type */
typedef enum ABT_thread_state ABT_thread_state;         /**< see enum ABT_thread_state */
typedef enum ABT_task_state ABT_task_state;             /**< see enum ABT_task_state */
typedef enum ABT_info_query_kind ABT_info_query_kind;   /**< see enum ABT_info_query_kind */
typedef enum ABT_tool_query_kind ABT_tool_query_kind;   /**< see enum ABT_tool_query_kind */
typedef enum ABT_exec_entity_type ABT_exec_entity_type; /**< see enum ABT_exec_entity_type */
typedef enum ABT_sync_event_type ABT_sync_event_type;   /**< see enum ABT_sync_event_type */

/** NULL values of the handle types.  They are distinct small constants rather
 * than NULL so that the runtime can tell which kind of handle was expected;
 * compare against them, never against NULL.  ABT_TASK_NULL differs from
 * ABT_THREAD_NULL although the types are the same; task routines accept
 * either.  @{ */
#define ABT_NULL                 0 /**< 0: handles use the sentinels below, not NULL */
#define ABT_XSTREAM_NULL         ((ABT_xstream)0x01)
#define ABT_XSTREAM_BARRIER_NULL ((ABT_xstream_barrier)0x02)
#define ABT_SCHED_NULL           ((ABT_sched)0x03)
#define ABT_SCHED_CONFIG_NULL    ((ABT_sched_config)0x04)
#define ABT_POOL_NULL            ((ABT_pool)0x05)
#define ABT_POOL_CONFIG_NULL     ((ABT_pool_config)0x06)
#define ABT_UNIT_NULL            ((ABT_unit)0x07)
#define ABT_THREAD_NULL          ((ABT_thread)0x08)
#define ABT_THREAD_ATTR_NULL     ((ABT_thread_attr)0x09)
#define ABT_TASK_NULL            ((ABT_task)0x0a)
#define ABT_KEY_NULL             ((ABT_key)0x0b)
#define ABT_MUTEX_NULL           ((ABT_mutex)0x0c)
#define ABT_MUTEX_ATTR_NULL      ((ABT_mutex_attr)0x0d)
#define ABT_COND_NULL            ((ABT_cond)0x0e)
#define ABT_RWLOCK_NULL          ((ABT_rwlock)0x0f)
#define ABT_EVENTUAL_NULL        ((ABT_eventual)0x10)
#define ABT_FUTURE_NULL          ((ABT_future)0x11)
#define ABT_BARRIER_NULL         ((ABT_barrier)0x12)
#define ABT_TIMER_NULL           ((ABT_timer)0x13)
#define ABT_TOOL_CONTEXT_NULL    ((ABT_tool_context)0x14)
#define ABT_POOL_USER_DEF_NULL   ((ABT_pool_user_def)0x15)
/** @} */

/* ======================================================================== */
/* Statically initialised synchronisation objects                           */
/* ======================================================================== */

/** Storage that can hold a mutex, condition variable or eventual without a
 * *_create() call, e.g. as a global:
 *
 *     static ABT_mutex_memory m = ABT_MUTEX_INITIALIZER;
 *     ABT_mutex_lock(ABT_MUTEX_MEMORY_GET_HANDLE(&m));
 *
 * The contents are private.  The handle is valid for as long as the memory
 * is; it must never be passed to the matching *_free(), and memory that is in
 * use must not be initialised again.  A static eventual carries no value
 * (its size is 0). */
/** Storage for a statically initialised mutex (see ABT_MUTEX_INITIALIZER). */
typedef struct {
    int dummy[16]; /**< private */
} ABT_mutex_memory;

/** Storage for a statically initialised cond (see ABT_COND_INITIALIZER). */
typedef struct {
    int dummy[16]; /**< private */
} ABT_cond_memory;

/** Storage for a statically initialised eventual (see ABT_EVENTUAL_INITIALIZER). */
typedef struct {
    int dummy[16]; /**< private */
} ABT_eventual_memory;

/** Plain (non-recursive) unlocked mutex. */
#define ABT_MUTEX_INITIALIZER                              \
    {                                                      \
        {                                                  \
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 \
        }                                                  \
    }
/** Recursive unlocked mutex (the first word flags recursion).  @{ */
#define ABT_RECURSIVE_MUTEX_INITIALIZER                    \
    {                                                      \
        {                                                  \
            1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 \
        }                                                  \
    }
#define ABT_COND_INITIALIZER                               \
    {                                                      \
        {                                                  \
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 \
        }                                                  \
    }
#define ABT_EVENTUAL_INITIALIZER                           \
    {                                                      \
        {                                                  \
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 \
        }                                                  \
    }
/** @} */

/** Turn a pointer to such memory into a usable handle.  @{ */
#define ABT_MUTEX_MEMORY_GET_HANDLE(p_mutex_memory)       ((ABT_mutex)(p_mutex_memory))
#define ABT_COND_MEMORY_GET_HANDLE(p_cond_memory)         ((ABT_cond)(p_cond_memory))
#define ABT_EVENTUAL_MEMORY_GET_HANDLE(p_eventual_memory) ((ABT_eventual)(p_eventual_memory))
/** @} */

/* ======================================================================== */
/* Scheduler configuration and definition                                   */
/* ======================================================================== */

/** Value type of a scheduler configuration entry. */
typedef enum {
    ABT_SCHED_CONFIG_INT = 0,    /**< int */
    ABT_SCHED_CONFIG_DOUBLE = 1, /**< double */
    ABT_SCHED_CONFIG_PTR = 2     /**< void * */
} ABT_sched_config_type;

/** Names one configuration entry: user entries use idx >= 0, negative
 * indices are reserved for the runtime. */
typedef struct {
    int idx;                    /**< variable index (negative: reserved) */
    ABT_sched_config_type type; /**< value type */
} ABT_sched_config_var;

/** Reserved entries.  ABT_sched_config_var_end terminates the argument list
 * of ABT_sched_config_create(); ABT_sched_config_automatic (int) asks for the
 * scheduler to be freed together with its execution stream or pool;
 * ABT_sched_basic_freq (int) sets how often the predefined schedulers check
 * for events; ABT_sched_config_access is obsolete and ignored.  Clients must
 * not modify them.  @{ */
extern ABT_sched_config_var ABT_sched_config_var_end ABT_API_PUBLIC;
extern ABT_sched_config_var ABT_sched_config_access ABT_API_PUBLIC;
extern ABT_sched_config_var ABT_sched_config_automatic ABT_API_PUBLIC;
extern ABT_sched_config_var ABT_sched_basic_freq ABT_API_PUBLIC;
/** @} */

/** Callbacks of a user-defined scheduler.  @{ */
typedef int (*ABT_sched_init_fn)(ABT_sched, ABT_sched_config);
typedef void (*ABT_sched_run_fn)(ABT_sched);
typedef int (*ABT_sched_free_fn)(ABT_sched);
typedef ABT_pool (*ABT_sched_get_migr_pool_fn)(ABT_sched);
/** @} */

/** A user-defined scheduler, passed to ABT_sched_create().
 *  - type:  ignored; kept for source compatibility.
 *  - init:  optional; called once at creation with the configuration.  A
 *           non-ABT_SUCCESS result aborts the creation and is returned.
 *  - run:   required; the scheduling loop.  It repeatedly takes work from
 *           the scheduler's pools and runs it (ABT_pool_pop_thread() plus
 *           ABT_self_schedule(), or the older ABT_pool_pop() plus
 *           ABT_xstream_run_unit()), calls ABT_xstream_check_events() every
 *           so often, and returns once ABT_sched_has_to_stop() reports true.
 *  - free:  optional; called when the scheduler is destroyed.
 *  - get_migr_pool: optional; chooses the pool receiving migrated work
 *           units (the first pool when absent). */
typedef struct {
    ABT_sched_type type;                      /**< ignored (kept for source compatibility) */
    ABT_sched_init_fn init;                   /**< optional: called once at creation */
    ABT_sched_run_fn run;                     /**< required: the scheduling loop */
    ABT_sched_free_fn free;                   /**< optional: called at destruction */
    ABT_sched_get_migr_pool_fn get_migr_pool; /**< optional: pool receiving migrated units */
} ABT_sched_def;

/* ======================================================================== */
/* Pool configuration and pool definitions                                  */
/* ======================================================================== */

/** Value type of a pool configuration entry. */
typedef enum {
    ABT_POOL_CONFIG_INT = 0,    /**< int */
    ABT_POOL_CONFIG_DOUBLE = 1, /**< double */
    ABT_POOL_CONFIG_PTR = 2     /**< void * */
} ABT_pool_config_type;

/** Names one pool configuration entry; negative keys are reserved. */
typedef struct {
    int key;                   /**< configuration key (negative: reserved) */
    ABT_pool_config_type type; /**< value type */
} ABT_pool_config_var;

/** Reserved entry (int): non-zero makes the pool "automatic", i.e. freed
 * together with the last scheduler that uses it. */
extern const ABT_pool_config_var ABT_pool_config_automatic ABT_API_PUBLIC;

/** Hint passed to the 1.2-style pool callbacks and the *_ex routines.  It is
 * the bitwise OR of at most one flag from each group below; pools may ignore
 * it. */
typedef uint64_t ABT_pool_context;

/** Priority group: how urgently the work unit should be handled.  @{ */
#define ABT_POOL_CONTEXT_PRIO_DEFAULT_PRIO         ((ABT_pool_context)0x0)
#define ABT_POOL_CONTEXT_PRIO_HIGH_PRIO            ((ABT_pool_context)0x1)
#define ABT_POOL_CONTEXT_PRIO_LOW_PRIO             ((ABT_pool_context)0x2)
/** @} */
/** Owner group: whether the caller is the pool's main user (PRIMARY) or is
 * reaching into somebody else's pool, e.g. stealing (SECONDARY).  @{ */
#define ABT_POOL_CONTEXT_OWNER_DEFAULT             ((ABT_pool_context)0x0)
#define ABT_POOL_CONTEXT_OWNER_PRIMARY             ((ABT_pool_context)0x100)
#define ABT_POOL_CONTEXT_OWNER_SECONDARY           ((ABT_pool_context)0x200)
/** @} */
/** Operation group: which runtime operation triggered the push or pop.  @{ */
#define ABT_POOL_CONTEXT_OP_POOL_OTHER             ((ABT_pool_context)0x0)
#define ABT_POOL_CONTEXT_OP_THREAD_CREATE          ((ABT_pool_context)0x1000)
#define ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO       ((ABT_pool_context)0x2000)
#define ABT_POOL_CONTEXT_OP_THREAD_REVIVE          ((ABT_pool_context)0x4000)
#define ABT_POOL_CONTEXT_OP_THREAD_REVIVE_TO       ((ABT_pool_context)0x8000)
#define ABT_POOL_CONTEXT_OP_THREAD_YIELD           ((ABT_pool_context)0x10000)
#define ABT_POOL_CONTEXT_OP_THREAD_YIELD_TO        ((ABT_pool_context)0x20000)
#define ABT_POOL_CONTEXT_OP_THREAD_RESUME_YIELD_TO ((ABT_pool_context)0x40000)
#define ABT_POOL_CONTEXT_OP_THREAD_YIELD_LOOP      ((ABT_pool_context)0x80000)
#define ABT_POOL_CONTEXT_OP_THREAD_RESUME          ((ABT_pool_context)0x100000)
#define ABT_POOL_CONTEXT_OP_THREAD_MIGRATE         ((ABT_pool_context)0x200000)
/** @} */

/** 1.2-style pool callbacks, registered through ABT_pool_user_def_create()
 * (the first five, all required) and the ABT_pool_user_def_set_* routines
 * (the rest, optional).
 *  - create_unit: wrap a ULT into the pool's own unit representation; return
 *                 ABT_UNIT_NULL on failure.   free_unit: release such a unit.
 *  - is_empty:    whether the pool holds no unit.
 *  - pop:         remove one ULT, or return ABT_THREAD_NULL when empty.
 *  - push:        insert a unit.
 *  - init/free:   set-up at ABT_pool_create() (its error code is passed on)
 *                 and tear-down at ABT_pool_free().
 *  - get_size:    number of units held.
 *  - pop_wait:    like pop, waiting up to the given number of seconds.
 *  - pop_many:    pop up to `max` ULTs into the array, store the count.
 *  - push_many:   push an array of units.
 *  - print_all:   call the given function once per ULT held.  @{ */
typedef ABT_unit (*ABT_pool_user_create_unit_fn)(ABT_pool, ABT_thread);
typedef void (*ABT_pool_user_free_unit_fn)(ABT_pool, ABT_unit);
typedef ABT_bool (*ABT_pool_user_is_empty_fn)(ABT_pool);
typedef ABT_thread (*ABT_pool_user_pop_fn)(ABT_pool, ABT_pool_context);
typedef void (*ABT_pool_user_push_fn)(ABT_pool, ABT_unit, ABT_pool_context);
typedef int (*ABT_pool_user_init_fn)(ABT_pool, ABT_pool_config);
typedef void (*ABT_pool_user_free_fn)(ABT_pool);
typedef size_t (*ABT_pool_user_get_size_fn)(ABT_pool);
/** @} */
typedef ABT_thread (*ABT_pool_user_pop_wait_fn)(ABT_pool, double,
                                                ABT_pool_context); /**< see above */
typedef void (*ABT_pool_user_pop_many_fn)(ABT_pool, ABT_thread *, size_t, size_t *,
                                          ABT_pool_context); /**< see above */
typedef void (*ABT_pool_user_push_many_fn)(ABT_pool, const ABT_unit *, size_t,
                                           ABT_pool_context); /**< see above */
typedef void (*ABT_pool_user_print_all_fn)(ABT_pool, void *arg,
                                           void (*)(void *, ABT_thread)); /**< see above */

/** Callbacks of the older (1.0/1.1) pool definition below.  @{ */
typedef ABT_unit_type (*ABT_unit_get_type_fn)(ABT_unit);
typedef ABT_thread (*ABT_unit_get_thread_fn)(ABT_unit);
typedef ABT_task (*ABT_unit_get_task_fn)(ABT_unit);
typedef ABT_bool (*ABT_unit_is_in_pool_fn)(ABT_unit);
typedef ABT_unit (*ABT_unit_create_from_thread_fn)(ABT_thread);
typedef ABT_unit (*ABT_unit_create_from_task_fn)(ABT_task);
typedef void (*ABT_unit_free_fn)(ABT_unit *);
typedef int (*ABT_pool_init_fn)(ABT_pool, ABT_pool_config);
typedef size_t (*ABT_pool_get_size_fn)(ABT_pool);
typedef void (*ABT_pool_push_fn)(ABT_pool, ABT_unit);
typedef ABT_unit (*ABT_pool_pop_fn)(ABT_pool);
typedef ABT_unit (*ABT_pool_pop_wait_fn)(ABT_pool, double);
/** @} */
typedef ABT_unit (*ABT_pool_pop_timedwait_fn)(ABT_pool, double); /**< old */
typedef int (*ABT_pool_remove_fn)(ABT_pool, ABT_unit);           /**< see above */
typedef int (*ABT_pool_free_fn)(ABT_pool);                       /**< see above */
typedef int (*ABT_pool_print_all_fn)(ABT_pool, void *arg,
                                     void (*)(void *, ABT_unit)); /**< see above */

/** Older (1.0/1.1) way of defining a pool: fill in this struct and pass its
 * address to ABT_pool_create() (which also accepts a handle made by
 * ABT_pool_user_def_create(); the two are told apart at run time).
 * Required: u_create_from_thread, u_free, p_get_size, p_push, p_pop.
 * Optional (may be NULL): u_is_in_pool, p_init, p_pop_timedwait, p_remove,
 * p_free, p_print_all.  Never called: u_get_type, u_get_thread, u_get_task,
 * u_create_from_task.
 *  - u_create_from_thread must return a distinct unit per ULT whose address
 *    is a multiple of 4 (the runtime uses the two low bits).
 *  - p_get_size returning 0 means "empty"; p_pop returns ABT_UNIT_NULL when
 *    there is nothing to pop.
 *  - p_pop_timedwait takes an absolute deadline in seconds on the clock of
 *    ABT_get_wtime(). */
struct ABT_pool_def {
    ABT_pool_access access;                              /**< which streams may push and pop */
    ABT_unit_get_type_fn u_get_type;                     /**< see the struct description */
    ABT_unit_get_thread_fn u_get_thread;                 /**< see the struct description */
    ABT_unit_get_task_fn u_get_task;                     /**< see the struct description */
    ABT_unit_is_in_pool_fn u_is_in_pool;                 /**< see the struct description */
    ABT_unit_create_from_thread_fn u_create_from_thread; /**< see the struct description */
    ABT_unit_create_from_task_fn u_create_from_task;     /**< see the struct description */
    ABT_unit_free_fn u_free;                             /**< see the struct description */
    ABT_pool_init_fn p_init;                             /**< see the struct description */
    ABT_pool_get_size_fn p_get_size;                     /**< see the struct description */
    ABT_pool_push_fn p_push;                             /**< see the struct description */
    ABT_pool_pop_fn p_pop;                               /**< see the struct description */
    ABT_pool_pop_timedwait_fn p_pop_timedwait;           /**< see the struct description */
    ABT_pool_remove_fn p_remove;                         /**< see the struct description */
    ABT_pool_free_fn p_free;                             /**< see the struct description */
    ABT_pool_print_all_fn p_print_all;                   /**< see the struct description */
};
typedef struct ABT_pool_def ABT_pool_def; /**< old-style pool definition */

/* ======================================================================== */
/* Tool interface callbacks                                                 */
/* ======================================================================== */

/** Called for every selected event of a ULT: the work unit, the execution
 * stream it happens on (ABT_XSTREAM_NULL if none), the event bit, a context
 * valid only during the call (for ABT_tool_query_thread()) and the user
 * argument given at registration.  The task variant has no registration
 * routine and is kept for source compatibility. */
typedef void (*ABT_tool_thread_callback_fn)(ABT_thread, ABT_xstream, uint64_t event,
                                            ABT_tool_context context, void *user_arg);
typedef void (*ABT_tool_task_callback_fn)(ABT_task, ABT_xstream, uint64_t event,
                                          ABT_tool_context context,
                                          void *user_arg); /**< see above */

/**
 * @defgroup initialisation_and_finalisation Initialisation and finalisation
 *
 * ABT_init() starts the runtime and turns the calling OS thread into the
 * primary ULT running on the primary execution stream. Initialisation is
 * reference counted: nested ABT_init() calls are allowed, each must be
 * matched by ABT_finalize(), and only the last ABT_finalize() (which must be
 * called by the primary ULT) shuts the runtime down; it may then be started
 * again. ABT_initialized() returns ABT_SUCCESS when the runtime is up and
 * ABT_ERR_UNINITIALIZED otherwise. Most other routines must not be called
 * while the runtime is down; a few queries report ABT_ERR_UNINITIALIZED.
 * @{
 */
/**
 * @brief Start the runtime, or add one nesting level to a running one.
 * The first call turns the calling OS thread into the primary ULT on the primary
 * execution stream (rank 0) and reads the ABT_* environment variables; later calls
 * only count. argc and argv are ignored.
 * @contexts any OS thread that is not already a weft execution stream; the first
 * call from the thread that will own the primary stream.
 * @retval ABT_SUCCESS the runtime is running
 * @retval ABT_ERR_MEM the primary stream, its scheduler or pool could not be allocated
 * @undefined two threads making the first call concurrently with ABT_finalize().
 */
int ABT_init(int argc, char **argv) ABT_API_PUBLIC;
/**
 * @brief Drop one nesting level; the last one shuts the runtime down.
 * The last call joins and frees every other execution stream, runs the work still
 * queued in the primary stream's pools, releases all runtime resources, and leaves
 * the runtime ready for a new ABT_init().
 * @contexts any while nested; the last call only from the primary ULT.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the last call is not made by the primary ULT
 * @undefined using any handle of the finished runtime afterwards; work units that
 * never terminate (the shutdown waits for them).
 */
int ABT_finalize(void) ABT_API_PUBLIC;
/**
 * @brief Whether the runtime is running.
 * @contexts any, also before ABT_init().
 * @retval ABT_SUCCESS the runtime is running
 * @retval ABT_ERR_UNINITIALIZED it is not
 * @undefined nothing.
 */
int ABT_initialized(void) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup execution_streams Execution streams
 *
 * An execution stream (ES) is an OS thread that runs a main scheduler, which
 * in turn runs the work units found in that scheduler's pools. The ES that
 * called ABT_init() is the primary ES; ranks identify streams (0 is the
 * primary). Routines return ABT_ERR_INV_XSTREAM when the stream is
 * ABT_XSTREAM_NULL, when a stream is required but the caller is an external
 * thread (self, self_rank, set_main_sched*, run_unit, check_events), and when
 * asked to join, free or cancel the primary ES or the ES running the caller.
 * ABT_xstream_free() joins the stream first and resets the handle.
 * create_with_rank and set_rank return ABT_ERR_INV_XSTREAM_RANK for a
 * negative or already used rank. revive restarts a joined stream
 * (ABT_ERR_XSTREAM if it has not been joined). The *_basic variants build a
 * predefined scheduler over `pools` (NULL means "create suitable pools");
 * they return ABT_ERR_INV_SCHED_PREDEF for an unknown predef and
 * ABT_ERR_INV_ARG for a negative num_pools.
 * Passing a scheduler already in use returns ABT_ERR_INV_SCHED. run_unit and
 * check_events are for a scheduler's run() loop: the first runs a unit as a
 * child of the calling ULT, the second must be called regularly to serve
 * join/cancel/stop requests. CPU binding routines return ABT_ERR_CPUID for an
 * invalid CPU id and ABT_ERR_SYS when the OS refuses.
 * ABT_xstream_equal() is deprecated; compare handles with ==.
 * @{
 */
/**
 * @brief Create an execution stream (an OS thread) running sched as its main scheduler.
 * ABT_SCHED_NULL means a new default scheduler with one new MPMC FIFO pool, freed with
 * the stream. The stream takes the lowest free rank.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS *newxstream is the new stream
 * @retval ABT_ERR_INV_ARG newxstream is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_SCHED sched is already used by a stream or a pool
 * @retval ABT_ERR_MEM out of memory
 * @retval ABT_ERR_SYS the OS thread could not be created
 * @undefined a freed sched handle.
 * @differs a NULL newxstream returns ABT_ERR_INV_ARG (Argobots: undefined).
 */
int ABT_xstream_create(ABT_sched sched, ABT_xstream *newxstream) ABT_API_PUBLIC;
/**
 * @brief Create an execution stream whose main scheduler is a predefined one.
 * pools (num_pools entries) become the scheduler's pools; with num_pools 0 or pools
 * NULL, new pools of the kind the scheduler needs are made. config may carry
 * ABT_sched_basic_freq and ABT_sched_config_automatic.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS *newxstream is the new stream
 * @retval ABT_ERR_INV_ARG newxstream is NULL or num_pools negative
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_SCHED_PREDEF predef is not an ABT_sched_predef value
 * @retval ABT_ERR_MEM out of memory
 * @retval ABT_ERR_SYS the OS thread could not be created
 * @undefined freed pool handles; pools whose access mode forbids the streams that
 * will use them.
 */
int ABT_xstream_create_basic(ABT_sched_predef predef, int num_pools, ABT_pool *pools,
                             ABT_sched_config config, ABT_xstream *newxstream) ABT_API_PUBLIC;
/**
 * @brief ABT_xstream_create() with a chosen rank.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS *newxstream is the new stream
 * @retval ABT_ERR_INV_ARG newxstream is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM_RANK rank is negative or taken
 * @retval ABT_ERR_INV_SCHED sched is already in use
 * @retval ABT_ERR_MEM out of memory
 * @retval ABT_ERR_SYS the OS thread could not be created
 * @undefined a freed sched handle.
 */
int ABT_xstream_create_with_rank(ABT_sched sched, int rank, ABT_xstream *newxstream) ABT_API_PUBLIC;
/**
 * @brief Join an execution stream, free it and set *xstream to ABT_XSTREAM_NULL.
 * The stream first runs all work left in its pools (see ABT_xstream_join()); its main
 * scheduler and the automatic pools go with it.
 * @contexts any except a work unit running on that stream.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG xstream is NULL
 * @retval ABT_ERR_INV_XSTREAM *xstream is ABT_XSTREAM_NULL, the primary stream, or the
 * caller's own stream
 * @undefined freeing a stream twice, or while another thread joins or uses it.
 * @differs freeing the caller's own stream returns ABT_ERR_INV_XSTREAM (Argobots
 * deadlocks).
 */
int ABT_xstream_free(ABT_xstream *xstream) ABT_API_PUBLIC;
/**
 * @brief Wait until an execution stream has terminated.
 * Asks its main scheduler to finish: it stops once its pools are empty. A ULT caller is
 * suspended meanwhile, an external thread sleeps. Joining a terminated stream returns
 * at once.
 * @contexts any except a work unit running on that stream.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL, the primary stream, or the
 * caller's own stream
 * @undefined joining a freed stream.
 * @differs joining the caller's own stream returns ABT_ERR_INV_XSTREAM (Argobots
 * deadlocks).
 */
int ABT_xstream_join(ABT_xstream xstream) ABT_API_PUBLIC;
/**
 * @brief Restart a joined (terminated) execution stream on a new OS thread.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_XSTREAM the stream is the primary one or has not been joined
 * @retval ABT_ERR_SYS the OS thread could not be created
 * @undefined reviving a stream concurrently with joining or freeing it.
 */
int ABT_xstream_revive(ABT_xstream xstream) ABT_API_PUBLIC;
/**
 * @brief Terminate the calling ULT and ask its execution stream to stop.
 * Does not return on success.
 * @contexts a ULT on a secondary execution stream (not its scheduler).
 * @retval ABT_SUCCESS never seen: on success the call does not return
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread, a tasklet, a scheduler,
 * or on the primary stream
 * @undefined work that other units expect to run on the stream once it stopped.
 */
int ABT_xstream_exit(void) ABT_API_PUBLIC;
/**
 * @brief Ask an execution stream to stop as soon as its scheduler checks, leaving queued work.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL or the primary stream
 * @undefined a freed stream handle.
 */
int ABT_xstream_cancel(ABT_xstream xstream) ABT_API_PUBLIC;
/**
 * @brief The execution stream running the caller.
 * @contexts any; an external thread gets ABT_ERR_INV_XSTREAM.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG xstream is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running (*xstream = ABT_XSTREAM_NULL)
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread (*xstream = ABT_XSTREAM_NULL)
 * @undefined nothing.
 */
int ABT_xstream_self(ABT_xstream *xstream) ABT_API_PUBLIC;
/**
 * @brief The rank of the execution stream running the caller.
 * @contexts any; an external thread gets ABT_ERR_INV_XSTREAM.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG rank is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_xstream_self_rank(int *rank) ABT_API_PUBLIC;
/**
 * @brief Give an execution stream another rank.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL or the primary stream
 * @retval ABT_ERR_INV_XSTREAM_RANK rank is negative or used by another stream
 * @retval ABT_ERR_MEM the rank table could not grow
 * @undefined a freed stream handle.
 */
int ABT_xstream_set_rank(ABT_xstream xstream, int rank) ABT_API_PUBLIC;
/**
 * @brief The rank of an execution stream.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_ARG rank is NULL
 * @undefined a freed stream handle.
 */
int ABT_xstream_get_rank(ABT_xstream xstream, int *rank) ABT_API_PUBLIC;
/**
 * @brief Replace the main scheduler of an execution stream.
 * On a terminated (joined, not freed) stream the scheduler is simply installed. On a
 * running stream the caller must be a ULT on that stream: the old scheduler is asked
 * to exit and the caller yields; if the caller's pool belonged to the old scheduler it
 * moves to the new scheduler's first pool. ABT_SCHED_NULL means a new default scheduler.
 * @contexts a ULT running on xstream, or any when xstream is terminated.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_SCHED sched is already in use or has no pool
 * @retval ABT_ERR_XSTREAM_STATE the stream is running and the caller is not a ULT on it
 * @retval ABT_ERR_MEM out of memory (default scheduler)
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined units left in pools of the old scheduler that no other scheduler uses.
 */
int ABT_xstream_set_main_sched(ABT_xstream xstream, ABT_sched sched) ABT_API_PUBLIC;
/**
 * @brief ABT_xstream_set_main_sched() with a new predefined scheduler over pools.
 * @contexts as ABT_xstream_set_main_sched().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_SCHED_PREDEF predef is not an ABT_sched_predef value
 * @retval ABT_ERR_INV_ARG num_pools is negative
 * @retval ABT_ERR_XSTREAM_STATE the stream is running and the caller is not a ULT on it
 * @retval ABT_ERR_MEM out of memory
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_xstream_set_main_sched().
 */
int ABT_xstream_set_main_sched_basic(ABT_xstream xstream, ABT_sched_predef predef, int num_pools,
                                     ABT_pool *pools) ABT_API_PUBLIC;
/**
 * @brief The main scheduler of an execution stream.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_ARG sched is NULL
 * @undefined a freed stream handle.
 */
int ABT_xstream_get_main_sched(ABT_xstream xstream, ABT_sched *sched) ABT_API_PUBLIC;
/**
 * @brief The first max_pools pools of an execution stream's main scheduler.
 * Entries beyond the scheduler's number of pools are left untouched.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_ARG max_pools negative, or pools NULL with max_pools > 0
 * @undefined a pools array shorter than max_pools.
 * @differs a negative max_pools returns ABT_ERR_INV_ARG (Argobots crashes).
 */
int ABT_xstream_get_main_pools(ABT_xstream xstream, int max_pools, ABT_pool *pools) ABT_API_PUBLIC;
/**
 * @brief Whether an execution stream is running or terminated.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_ARG state is NULL
 * @undefined a freed stream handle.
 */
int ABT_xstream_get_state(ABT_xstream xstream, ABT_xstream_state *state) ABT_API_PUBLIC;
/**
 * @brief Whether two stream handles name the same stream (two NULL handles are equal).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG result is NULL
 * @undefined nothing.
 */
int ABT_xstream_equal(ABT_xstream xstream1, ABT_xstream xstream2, ABT_bool *result) ABT_API_PUBLIC;
/**
 * @brief The number of execution streams that exist (running or not yet freed).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG num_xstreams is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @undefined nothing.
 */
int ABT_xstream_get_num(int *num_xstreams) ABT_API_PUBLIC;
/**
 * @brief Whether an execution stream is the primary one.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_ARG is_primary is NULL
 * @undefined a freed stream handle.
 */
int ABT_xstream_is_primary(ABT_xstream xstream, ABT_bool *is_primary) ABT_API_PUBLIC;
/**
 * @brief Run a work unit popped from pool, from a scheduler loop (or a ULT).
 * Called by a scheduler, it runs the unit and returns when the unit finishes, yields or
 * blocks. Called by a ULT, the unit runs as the caller's child and the caller continues
 * when it finishes or yields. The unit is associated with pool first.
 * @contexts a scheduler's run loop; a ULT.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_UNIT unit is NULL or ABT_UNIT_NULL
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller is a tasklet
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined a unit that was not popped (still queued, running, or terminated).
 */
int ABT_xstream_run_unit(ABT_unit unit, ABT_pool pool) ABT_API_PUBLIC;
/**
 * @brief Let the calling scheduler serve runtime requests: stop, stack dumps, timers.
 * Scheduler loops call it every few iterations.
 * @contexts the run loop of sched, on its stream.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller is not sched's run loop
 * @undefined nothing.
 */
int ABT_xstream_check_events(ABT_sched sched) ABT_API_PUBLIC;
/**
 * @brief Bind an execution stream to one CPU (now if it runs, else when it starts).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_CPUID cpuid is negative or not below CPU_SETSIZE
 * @retval ABT_ERR_SYS the OS refused the binding
 * @retval ABT_ERR_MEM out of memory
 * @retval ABT_ERR_FEATURE_NA CPU binding is off (the default: WEFT_ENABLE_AFFINITY), as in
 * an Argobots built without --enable-affinity
 * @undefined a freed stream handle.
 */
int ABT_xstream_set_cpubind(ABT_xstream xstream, int cpuid) ABT_API_PUBLIC;
/**
 * @brief The first CPU an execution stream is bound to (its OS affinity when running).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_ARG cpuid is NULL
 * @retval ABT_ERR_CPUID the affinity set is empty
 * @retval ABT_ERR_SYS the OS affinity could not be read
 * @retval ABT_ERR_FEATURE_NA CPU binding is off (the default: WEFT_ENABLE_AFFINITY), as in
 * an Argobots built without --enable-affinity
 * @undefined a freed stream handle.
 */
int ABT_xstream_get_cpubind(ABT_xstream xstream, int *cpuid) ABT_API_PUBLIC;
/**
 * @brief Bind an execution stream to a set of CPUs; num_cpuids 0 restores the affinity the
 * process started with.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_ARG num_cpuids negative, or cpuids NULL with num_cpuids > 0
 * @retval ABT_ERR_CPUID an id is negative or not below CPU_SETSIZE
 * @retval ABT_ERR_SYS the OS refused the binding
 * @retval ABT_ERR_MEM out of memory
 * @retval ABT_ERR_FEATURE_NA CPU binding is off (the default: WEFT_ENABLE_AFFINITY), as in
 * an Argobots built without --enable-affinity
 * @undefined a freed stream handle.
 */
int ABT_xstream_set_affinity(ABT_xstream xstream, int num_cpuids, int *cpuids) ABT_API_PUBLIC;
/**
 * @brief The CPUs an execution stream may run on: up to max_cpuids ids in cpuids, the total
 * count in *num_cpuids (if not NULL).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_ARG max_cpuids negative, or cpuids NULL with max_cpuids > 0
 * @retval ABT_ERR_SYS the OS affinity could not be read
 * @retval ABT_ERR_FEATURE_NA CPU binding is off (the default: WEFT_ENABLE_AFFINITY), as in
 * an Argobots built without --enable-affinity
 * @undefined a freed stream handle.
 */
int ABT_xstream_get_affinity(ABT_xstream xstream, int max_cpuids, int *cpuids,
                             int *num_cpuids) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup execution_stream_barriers Execution-stream barriers
 *
 * A barrier for execution streams: waiters block their whole OS thread rather
 * than yielding, so it is meant to synchronise streams, not ULTs on one
 * stream. create returns ABT_ERR_INV_ARG when num_waiters is 0; wait and free
 * return ABT_ERR_INV_XSTREAM_BARRIER for ABT_XSTREAM_BARRIER_NULL.
 * @{
 */
/**
 * @brief Create a barrier for num_waiters execution streams (OS-thread level).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newbarrier is NULL or num_waiters is 0
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_xstream_barrier_create(uint32_t num_waiters,
                               ABT_xstream_barrier *newbarrier) ABT_API_PUBLIC;
/**
 * @brief Free an execution-stream barrier and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG barrier is NULL
 * @retval ABT_ERR_INV_XSTREAM_BARRIER *barrier is ABT_XSTREAM_BARRIER_NULL
 * @undefined freeing a barrier that streams are waiting on.
 */
int ABT_xstream_barrier_free(ABT_xstream_barrier *barrier) ABT_API_PUBLIC;
/**
 * @brief Block the calling OS thread until num_waiters threads have arrived.
 * The whole execution stream sleeps in the kernel: no other unit runs on it meanwhile.
 * @contexts any; meant for one caller per execution stream.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_XSTREAM_BARRIER barrier is ABT_XSTREAM_BARRIER_NULL
 * @undefined more than num_waiters concurrent callers; two callers on one stream
 * (deadlock).
 * @differs waiters sleep in the kernel (Argobots spins).
 */
int ABT_xstream_barrier_wait(ABT_xstream_barrier barrier) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup schedulers Schedulers
 *
 * A scheduler is the loop an ES (or a stacked scheduler pushed into a pool)
 * runs over an ordered list of pools. ABT_sched_create() builds one from a
 * user ABT_sched_def (an error returned by its init() is passed on);
 * sched_create_basic uses a predefined kind, and when `pools` is NULL it
 * creates the pools itself (ABT_ERR_INV_ARG for an unknown predef or a
 * negative num_pools). Schedulers made by ABT_sched_create() are not
 * automatic unless configured so; basic ones are. All routines return
 * ABT_ERR_INV_SCHED for ABT_SCHED_NULL, and ABT_sched_free() returns
 * ABT_ERR_SCHED while the scheduler is still in use. get_pools copies
 * max_pools handles starting at index idx (ABT_ERR_SCHED if that runs past
 * the last pool). get_size adds up the sizes of the pools; get_total_size
 * also counts blocked and migrating units (both return ABT_ERR_POOL if a pool
 * cannot report its size). finish asks the scheduler to stop once its pools
 * are empty and exit asks it to stop now; neither waits. run() learns about
 * such requests through has_to_stop (ABT_ERR_INV_XSTREAM from an external
 * thread).
 * @{
 */
/**
 * @brief Create a user-defined scheduler over pools (see ABT_sched_def).
 * def->init, if any, runs now with config; its error is returned. The scheduler is not
 * automatic unless config sets ABT_sched_config_automatic.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newsched or def is NULL, def->run is NULL, num_pools negative,
 * or pools NULL with num_pools > 0
 * @retval ABT_ERR_INV_POOL an entry of pools is ABT_POOL_NULL
 * @retval ABT_ERR_MEM out of memory
 * @retval other the error returned by def->init
 * @undefined a def whose run loop ignores ABT_sched_has_to_stop().
 */
int ABT_sched_create(ABT_sched_def *def, int num_pools, ABT_pool *pools, ABT_sched_config config,
                     ABT_sched *newsched) ABT_API_PUBLIC;
/**
 * @brief Create a predefined scheduler over pools (new pools if num_pools is 0 or pools NULL;
 * ABT_POOL_NULL entries get new ones). It is automatic unless config says otherwise.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newsched is NULL or num_pools negative
 * @retval ABT_ERR_INV_SCHED_PREDEF predef is not an ABT_sched_predef value
 * @retval ABT_ERR_MEM out of memory
 * @undefined freed pool handles.
 */
int ABT_sched_create_basic(ABT_sched_predef predef, int num_pools, ABT_pool *pools,
                           ABT_sched_config config, ABT_sched *newsched) ABT_API_PUBLIC;
/**
 * @brief Free a scheduler that no stream or pool uses, and reset the handle.
 * Calls def->free, releases automatic pools.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG sched is NULL
 * @retval ABT_ERR_INV_SCHED *sched is ABT_SCHED_NULL
 * @retval ABT_ERR_SCHED the scheduler is in use (a main or stacked scheduler)
 * @undefined freeing twice.
 */
int ABT_sched_free(ABT_sched *sched) ABT_API_PUBLIC;
/**
 * @brief Attach a user pointer to a scheduler.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL
 * @undefined nothing.
 */
int ABT_sched_set_data(ABT_sched sched, void *data) ABT_API_PUBLIC;
/**
 * @brief The user pointer attached to a scheduler (NULL if none).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL
 * @retval ABT_ERR_INV_ARG data is NULL
 * @undefined nothing.
 */
int ABT_sched_get_data(ABT_sched sched, void **data) ABT_API_PUBLIC;
/**
 * @brief The number of pools of a scheduler.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL
 * @retval ABT_ERR_INV_ARG num_pools is NULL
 * @undefined nothing.
 */
int ABT_sched_get_num_pools(ABT_sched sched, int *num_pools) ABT_API_PUBLIC;
/**
 * @brief max_pools pools of a scheduler, starting at index idx.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL
 * @retval ABT_ERR_INV_ARG idx or max_pools negative, or pools NULL with max_pools > 0
 * @retval ABT_ERR_SCHED idx + max_pools exceeds the number of pools
 * @undefined a pools array shorter than max_pools.
 */
int ABT_sched_get_pools(ABT_sched sched, int max_pools, int idx, ABT_pool *pools) ABT_API_PUBLIC;
/**
 * @brief The number of ready units in all pools of a scheduler.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL
 * @retval ABT_ERR_INV_ARG size is NULL
 * @retval ABT_ERR_POOL a user pool cannot report its size
 * @undefined nothing; the value is a snapshot.
 */
int ABT_sched_get_size(ABT_sched sched, size_t *size) ABT_API_PUBLIC;
/**
 * @brief Like ABT_sched_get_size(), also counting blocked and running units of the pools.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL
 * @retval ABT_ERR_INV_ARG size is NULL
 * @retval ABT_ERR_POOL a user pool cannot report its size
 * @undefined nothing; the value is a snapshot.
 */
int ABT_sched_get_total_size(ABT_sched sched, size_t *size) ABT_API_PUBLIC;
/**
 * @brief Ask a scheduler to stop once its pools are empty.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL
 * @undefined nothing.
 */
int ABT_sched_finish(ABT_sched sched) ABT_API_PUBLIC;
/**
 * @brief Ask a scheduler to stop at its next check, even with work left.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL
 * @undefined work left in pools no other scheduler serves.
 */
int ABT_sched_exit(ABT_sched sched) ABT_API_PUBLIC;
/**
 * @brief Whether a scheduler's run loop must return now (a finish request with empty pools,
 * or an exit request). Also serves pending runtime events.
 * @contexts the scheduler's run loop (any stream context).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG stop is NULL
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL (*stop = ABT_FALSE)
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_sched_has_to_stop(ABT_sched sched, ABT_bool *stop) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup scheduler_configuration Scheduler configuration
 *
 * A small typed key/value set handed to a scheduler's init(). create takes
 * (ABT_sched_config_var, value) pairs ended by ABT_sched_config_var_end, each
 * value being read as int, double or void * according to the variable's type
 * (ABT_ERR_INV_ARG for an invalid type). read copies the user entries with
 * idx 0 .. num_vars-1, in that order, to the pointers that follow num_vars.
 * get returns ABT_ERR_INV_ARG when idx has no value. Routines return
 * ABT_ERR_INV_SCHED_CONFIG for ABT_SCHED_CONFIG_NULL.
 * @{
 */
/**
 * @brief Create a scheduler configuration from (ABT_sched_config_var, value) pairs ended by
 * ABT_sched_config_var_end. ABT_sched_config_access is skipped.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG config is NULL or a variable has an invalid type
 * @retval ABT_ERR_MEM out of memory
 * @undefined a list not ended by ABT_sched_config_var_end; a value whose C type does
 * not match its variable's type.
 */
int ABT_sched_config_create(ABT_sched_config *config, ...) ABT_API_PUBLIC;
/**
 * @brief Copy the values of variables 0 .. num_vars-1 into the given pointers (in order);
 * absent variables and NULL pointers are skipped.
 * @contexts any (typically a scheduler's init).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_SCHED_CONFIG config is ABT_SCHED_CONFIG_NULL
 * @retval ABT_ERR_INV_ARG num_vars is negative
 * @undefined fewer pointers than num_vars; a pointer to a too small object.
 */
int ABT_sched_config_read(ABT_sched_config config, int num_vars, ...) ABT_API_PUBLIC;
/**
 * @brief Free a scheduler configuration and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG config is NULL
 * @retval ABT_ERR_INV_SCHED_CONFIG *config is ABT_SCHED_CONFIG_NULL
 * @undefined freeing twice.
 */
int ABT_sched_config_free(ABT_sched_config *config) ABT_API_PUBLIC;
/**
 * @brief Set (or, with val NULL, remove) variable idx of a configuration.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_SCHED_CONFIG config is ABT_SCHED_CONFIG_NULL
 * @retval ABT_ERR_INV_ARG type is not an ABT_sched_config_type
 * @retval ABT_ERR_MEM out of memory
 * @undefined val pointing to less than the type's size.
 */
int ABT_sched_config_set(ABT_sched_config config, int idx, ABT_sched_config_type type,
                         const void *val) ABT_API_PUBLIC;
/**
 * @brief The type and value of variable idx (either output may be NULL).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_SCHED_CONFIG config is ABT_SCHED_CONFIG_NULL
 * @retval ABT_ERR_INV_ARG the variable is not set
 * @undefined val pointing to less than the type's size.
 */
int ABT_sched_config_get(ABT_sched_config config, int idx, ABT_sched_config_type *p_type,
                         void *val) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup pools Pools
 *
 * Pools hold the runnable work units that schedulers pick from.
 * ABT_pool_create_basic() makes a built-in pool (ABT_ERR_INV_POOL_KIND and
 * ABT_ERR_INV_POOL_ACCESS for bad kind or access values); ABT_pool_create()
 * makes a user pool from either an old-style ABT_pool_def * or a 1.2-style
 * ABT_pool_user_def handle (ABT_ERR_INV_POOL_USER_DEF for
 * ABT_POOL_USER_DEF_NULL; an error from the definition's init is passed on).
 * Every routine returns ABT_ERR_INV_POOL for ABT_POOL_NULL. The *_thread(s)
 * routines move ULT handles in and out directly; the _ex forms pass an
 * ABT_pool_context hint to the pool, and a pop from an empty pool yields
 * ABT_THREAD_NULL, not an error. Asking a user pool for something its
 * definition does not provide (size, pop_wait, pop_many, push_many,
 * print_all, remove) returns ABT_ERR_POOL. ABT_pool_pop/push/remove/print_all
 * are the older unit-level forms (ABT_ERR_INV_UNIT for ABT_UNIT_NULL);
 * pop_wait takes a relative timeout, while the deprecated pop_timedwait takes
 * an absolute time on the ABT_get_wtime() clock. add_sched pushes a scheduler
 * into the pool so that it runs stacked on another scheduler
 * (ABT_ERR_INV_SCHED if that scheduler is already in use). get_total_size
 * also counts blocked units that belong to the pool.
 * @{
 */
/**
 * @brief Create a user-defined pool from a definition.
 * def is either a 1.2-style handle from ABT_pool_user_def_create() or the address of an
 * old-style struct ABT_pool_def; the two are told apart at run time. The definition's
 * init callback, if any, runs with config (its error is returned); config may set
 * ABT_pool_config_automatic.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newpool is NULL
 * @retval ABT_ERR_INV_POOL_USER_DEF def is NULL or ABT_POOL_USER_DEF_NULL, or an
 * old-style definition lacks a required callback
 * @retval ABT_ERR_INV_POOL_ACCESS an old-style definition has an invalid access mode
 * @retval ABT_ERR_MEM out of memory
 * @retval other the error returned by the init callback
 * @undefined a pointer that is neither kind of definition.
 */
int ABT_pool_create(ABT_pool_user_def def, ABT_pool_config config,
                    ABT_pool *newpool) ABT_API_PUBLIC;
/**
 * @brief Create a built-in pool (FIFO, FIFO_WAIT or RANDWS) with the given access mode.
 * An automatic pool is freed with the last scheduler that uses it.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newpool is NULL
 * @retval ABT_ERR_INV_POOL_KIND kind is not an ABT_pool_kind
 * @retval ABT_ERR_INV_POOL_ACCESS access is not an ABT_pool_access
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_pool_create_basic(ABT_pool_kind kind, ABT_pool_access access, ABT_bool automatic,
                          ABT_pool *newpool) ABT_API_PUBLIC;
/**
 * @brief Free a pool no scheduler uses, and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG pool is NULL
 * @retval ABT_ERR_INV_POOL *pool is ABT_POOL_NULL
 * @retval ABT_ERR_POOL a scheduler still uses the pool
 * @undefined freeing a pool that still holds units, or twice.
 * @differs a pool in use returns ABT_ERR_POOL (Argobots frees it under the scheduler).
 */
int ABT_pool_free(ABT_pool *pool) ABT_API_PUBLIC;
/**
 * @brief The access mode of a pool.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG access is NULL
 * @undefined nothing.
 */
int ABT_pool_get_access(ABT_pool pool, ABT_pool_access *access) ABT_API_PUBLIC;
/**
 * @brief Whether a pool holds no ready unit (a snapshot).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG is_empty is NULL
 * @undefined nothing.
 */
int ABT_pool_is_empty(ABT_pool pool, ABT_bool *is_empty) ABT_API_PUBLIC;
/**
 * @brief The number of ready units in a pool (a snapshot).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG size is NULL
 * @retval ABT_ERR_POOL a 1.2-style user pool without get_size
 * @undefined nothing.
 */
int ABT_pool_get_size(ABT_pool pool, size_t *size) ABT_API_PUBLIC;
/**
 * @brief ABT_pool_get_size() plus the units of the pool that are blocked or running.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG size is NULL
 * @retval ABT_ERR_POOL a 1.2-style user pool without get_size
 * @undefined nothing.
 */
int ABT_pool_get_total_size(ABT_pool pool, size_t *size) ABT_API_PUBLIC;
/**
 * @brief Take one ready ULT or tasklet out of a pool (ABT_THREAD_NULL when empty).
 * @contexts any; a scheduler that pops must run or push back what it got.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG thread is NULL
 * @undefined popping from a pool whose access mode excludes the caller's stream.
 */
int ABT_pool_pop_thread(ABT_pool pool, ABT_thread *thread) ABT_API_PUBLIC;
/**
 * @brief ABT_pool_pop_thread() with a hint for the pool (ABT_pool_context).
 * @contexts as ABT_pool_pop_thread().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG thread is NULL
 * @undefined as ABT_pool_pop_thread().
 */
int ABT_pool_pop_thread_ex(ABT_pool pool, ABT_thread *thread,
                           ABT_pool_context pool_ctx) ABT_API_PUBLIC;
/**
 * @brief Pop up to len units into threads; *num tells how many.
 * @contexts as ABT_pool_pop_thread().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG num is NULL, or threads NULL with len > 0
 * @retval ABT_ERR_POOL a 1.2-style user pool without pop_many
 * @undefined a threads array shorter than len.
 * @differs len 0 sets *num to 0 (Argobots leaves it).
 */
int ABT_pool_pop_threads(ABT_pool pool, ABT_thread *threads, size_t len,
                         size_t *num) ABT_API_PUBLIC;
/**
 * @brief ABT_pool_pop_threads() with a pool-context hint.
 * @contexts as ABT_pool_pop_thread().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG num is NULL, or threads NULL with len > 0
 * @retval ABT_ERR_POOL a 1.2-style user pool without pop_many
 * @undefined as ABT_pool_pop_threads().
 */
int ABT_pool_pop_threads_ex(ABT_pool pool, ABT_thread *threads, size_t len, size_t *num,
                            ABT_pool_context pool_ctx) ABT_API_PUBLIC;
/**
 * @brief Push a ready ULT or tasklet into a pool and associate it with the pool.
 * Pushing ABT_THREAD_NULL does nothing.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined pushing a unit that is queued, running, blocked or terminated; a push
 * that violates the pool's access mode.
 */
int ABT_pool_push_thread(ABT_pool pool, ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief ABT_pool_push_thread() with a pool-context hint (priority pools honour the
 * HIGH/LOW_PRIO flags).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_pool_push_thread().
 */
int ABT_pool_push_thread_ex(ABT_pool pool, ABT_thread thread,
                            ABT_pool_context pool_ctx) ABT_API_PUBLIC;
/**
 * @brief Push num units, in order; ABT_THREAD_NULL entries are skipped.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG threads NULL with num > 0
 * @retval ABT_ERR_POOL a 1.2-style user pool without push_many
 * @retval ABT_ERR_MEM out of memory (user pools)
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_pool_push_thread().
 */
int ABT_pool_push_threads(ABT_pool pool, const ABT_thread *threads, size_t num) ABT_API_PUBLIC;
/**
 * @brief ABT_pool_push_threads() with a pool-context hint.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG threads NULL with num > 0
 * @retval ABT_ERR_POOL a 1.2-style user pool without push_many
 * @retval ABT_ERR_MEM out of memory (user pools)
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_pool_push_thread().
 */
int ABT_pool_push_threads_ex(ABT_pool pool, const ABT_thread *threads, size_t num,
                             ABT_pool_context pool_ctx) ABT_API_PUBLIC;
/**
 * @brief Pop a unit, waiting up to time_secs seconds for one (ABT_THREAD_NULL on timeout).
 * The calling OS thread sleeps; no other unit runs on its stream meanwhile.
 * @contexts any (typically a scheduler).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG thread is NULL
 * @retval ABT_ERR_POOL a user pool without pop_wait
 * @undefined as ABT_pool_pop_thread().
 */
int ABT_pool_pop_wait_thread(ABT_pool pool, ABT_thread *thread, double time_secs) ABT_API_PUBLIC;
/**
 * @brief ABT_pool_pop_wait_thread() with a pool-context hint.
 * @contexts as ABT_pool_pop_wait_thread().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG thread is NULL
 * @retval ABT_ERR_POOL a user pool without pop_wait
 * @undefined as ABT_pool_pop_thread().
 */
int ABT_pool_pop_wait_thread_ex(ABT_pool pool, ABT_thread *thread, double time_secs,
                                ABT_pool_context pool_ctx) ABT_API_PUBLIC;
/**
 * @brief Call print_fn(arg, thread) once for every ready unit of the pool.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG print_fn is NULL
 * @retval ABT_ERR_POOL the pool cannot list its units (a user pool without print_all)
 * @undefined print_fn changing the pool.
 */
int ABT_pool_print_all_threads(ABT_pool pool, void *arg,
                               void (*print_fn)(void *arg, ABT_thread)) ABT_API_PUBLIC;
/**
 * @brief Attach a user pointer to a pool.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @undefined nothing.
 */
int ABT_pool_set_data(ABT_pool pool, void *data) ABT_API_PUBLIC;
/**
 * @brief The user pointer attached to a pool.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG data is NULL
 * @undefined nothing.
 */
int ABT_pool_get_data(ABT_pool pool, void **data) ABT_API_PUBLIC;
/**
 * @brief Push a scheduler into a pool as a work unit: whoever runs it runs that scheduler
 * stacked on its own until the stacked one stops.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL or already in use
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_MEM out of memory
 * @undefined a stacked run loop that yields or blocks by itself.
 * @differs the stacked run loop must not yield or block by itself.
 */
int ABT_pool_add_sched(ABT_pool pool, ABT_sched sched) ABT_API_PUBLIC;
/**
 * @brief The id of a pool (unique per pool in the process).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG id is NULL
 * @undefined nothing.
 */
int ABT_pool_get_id(ABT_pool pool, int *id) ABT_API_PUBLIC;
/**
 * @brief Older form of ABT_pool_pop_thread() that returns a unit (ABT_UNIT_NULL when empty).
 * @contexts as ABT_pool_pop_thread().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG unit is NULL
 * @undefined as ABT_pool_pop_thread().
 */
int ABT_pool_pop(ABT_pool pool, ABT_unit *unit) ABT_API_PUBLIC;
/**
 * @brief Older form of ABT_pool_pop_wait_thread() returning a unit; relative timeout.
 * @contexts as ABT_pool_pop_wait_thread().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG unit is NULL
 * @retval ABT_ERR_POOL a user pool without a timed pop
 * @undefined as ABT_pool_pop_thread().
 */
int ABT_pool_pop_wait(ABT_pool pool, ABT_unit *unit, double time_secs) ABT_API_PUBLIC;
/**
 * @brief Deprecated: ABT_pool_pop_wait() with an absolute deadline on the ABT_get_wtime()
 * clock.
 * @contexts as ABT_pool_pop_wait_thread().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG unit is NULL
 * @retval ABT_ERR_POOL a user pool without a timed pop
 * @undefined as ABT_pool_pop_thread().
 */
int ABT_pool_pop_timedwait(ABT_pool pool, ABT_unit *unit,
                           double abstime_secs) ABT_API_PUBLIC ABT_DEPRECATED;
/**
 * @brief Take a given unit out of a pool.
 * Built-in pools that list their units and old-style user pools with p_remove support
 * it.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_UNIT unit is NULL or ABT_UNIT_NULL
 * @retval ABT_ERR_POOL the pool cannot remove units, or the unit is not in it
 * @undefined removing a unit another stream pops concurrently.
 * @differs ABT_UNIT_NULL returns ABT_ERR_INV_UNIT (Argobots crashes or passes NULL on).
 */
int ABT_pool_remove(ABT_pool pool, ABT_unit unit) ABT_API_PUBLIC;
/**
 * @brief Older form of ABT_pool_push_thread() taking a unit.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_UNIT unit is NULL or ABT_UNIT_NULL
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_pool_push_thread().
 */
int ABT_pool_push(ABT_pool pool, ABT_unit unit) ABT_API_PUBLIC;
/**
 * @brief Older form of ABT_pool_print_all_threads(): print_fn receives units.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG print_fn is NULL
 * @retval ABT_ERR_POOL the pool cannot list its units
 * @undefined print_fn changing the pool.
 */
int ABT_pool_print_all(ABT_pool pool, void *arg,
                       void (*print_fn)(void *arg, ABT_unit)) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup pool_configuration Pool configuration
 *
 * A typed key/value set given to a user pool's init(). set stores a copy of
 * *val under key (a NULL val removes the key; ABT_ERR_INV_ARG for an invalid
 * type); get returns the type and value, or ABT_ERR_INV_ARG when the key is
 * absent. The only reserved key is ABT_pool_config_automatic. Routines return
 * ABT_ERR_INV_POOL_CONFIG for ABT_POOL_CONFIG_NULL.
 * @{
 */
/**
 * @brief Create an empty pool configuration.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG config is NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_pool_config_create(ABT_pool_config *config) ABT_API_PUBLIC;
/**
 * @brief Free a pool configuration and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG config is NULL
 * @retval ABT_ERR_INV_POOL_CONFIG *config is ABT_POOL_CONFIG_NULL
 * @undefined freeing twice.
 */
int ABT_pool_config_free(ABT_pool_config *config) ABT_API_PUBLIC;
/**
 * @brief Store a copy of *val under key (val NULL removes the key).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL_CONFIG config is ABT_POOL_CONFIG_NULL
 * @retval ABT_ERR_INV_ARG type is not an ABT_pool_config_type
 * @retval ABT_ERR_MEM out of memory
 * @undefined val pointing to less than the type's size.
 */
int ABT_pool_config_set(ABT_pool_config config, int key, ABT_pool_config_type type,
                        const void *val) ABT_API_PUBLIC;
/**
 * @brief The type and value stored under key (either output may be NULL).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL_CONFIG config is ABT_POOL_CONFIG_NULL
 * @retval ABT_ERR_INV_ARG key is not set
 * @undefined val pointing to less than the type's size.
 */
int ABT_pool_config_get(ABT_pool_config config, int key, ABT_pool_config_type *p_type,
                        void *val) ABT_API_PUBLIC;

/*
 * 1.2-style user pool definitions
 *
 * Builds a pool definition from callbacks: the five required ones are given
 * to ABT_pool_user_def_create() and the optional ones are added with the
 * setters (a NULL function removes an optional callback). The definition is
 * consumed by ABT_pool_create() and may be freed afterwards. The setters and
 * free return ABT_ERR_INV_POOL_USER_DEF for ABT_POOL_USER_DEF_NULL.
 */
/**
 * @brief Create a 1.2-style pool definition from its five required callbacks.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newdef or a callback is NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined callbacks that break the pool contract (see ABT_pool_user_create_unit_fn).
 */
int ABT_pool_user_def_create(ABT_pool_user_create_unit_fn p_create_unit,
                             ABT_pool_user_free_unit_fn p_free_unit,
                             ABT_pool_user_is_empty_fn p_is_empty, ABT_pool_user_pop_fn p_pop,
                             ABT_pool_user_push_fn p_push,
                             ABT_pool_user_def *newdef) ABT_API_PUBLIC;
/**
 * @brief Free a pool definition (pools created from it keep working) and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG def is NULL
 * @retval ABT_ERR_INV_POOL_USER_DEF *def is ABT_POOL_USER_DEF_NULL
 * @undefined freeing twice.
 */
int ABT_pool_user_def_free(ABT_pool_user_def *def) ABT_API_PUBLIC;
/**
 * @brief Set (NULL: remove) the optional init callback of a pool definition.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL_USER_DEF def is ABT_POOL_USER_DEF_NULL
 * @undefined nothing.
 */
int ABT_pool_user_def_set_init(ABT_pool_user_def def, ABT_pool_user_init_fn p_init) ABT_API_PUBLIC;
/**
 * @brief Set (NULL: remove) the optional free callback of a pool definition.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL_USER_DEF def is ABT_POOL_USER_DEF_NULL
 * @undefined nothing.
 */
int ABT_pool_user_def_set_free(ABT_pool_user_def def, ABT_pool_user_free_fn p_free) ABT_API_PUBLIC;
/**
 * @brief Set (NULL: remove) the optional get_size callback of a pool definition.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL_USER_DEF def is ABT_POOL_USER_DEF_NULL
 * @undefined nothing.
 */
int ABT_pool_user_def_set_get_size(ABT_pool_user_def def,
                                   ABT_pool_user_get_size_fn p_get_size) ABT_API_PUBLIC;
/**
 * @brief Set (NULL: remove) the optional pop_wait callback of a pool definition.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL_USER_DEF def is ABT_POOL_USER_DEF_NULL
 * @undefined nothing.
 */
int ABT_pool_user_def_set_pop_wait(ABT_pool_user_def def,
                                   ABT_pool_user_pop_wait_fn p_pop_wait) ABT_API_PUBLIC;
/**
 * @brief Set (NULL: remove) the optional pop_many callback of a pool definition.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL_USER_DEF def is ABT_POOL_USER_DEF_NULL
 * @undefined nothing.
 */
int ABT_pool_user_def_set_pop_many(ABT_pool_user_def def,
                                   ABT_pool_user_pop_many_fn p_pop_many) ABT_API_PUBLIC;
/**
 * @brief Set (NULL: remove) the optional push_many callback of a pool definition.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL_USER_DEF def is ABT_POOL_USER_DEF_NULL
 * @undefined nothing.
 */
int ABT_pool_user_def_set_push_many(ABT_pool_user_def def,
                                    ABT_pool_user_push_many_fn p_push_many) ABT_API_PUBLIC;
/**
 * @brief Set (NULL: remove) the optional print_all callback of a pool definition.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_POOL_USER_DEF def is ABT_POOL_USER_DEF_NULL
 * @undefined nothing.
 */
int ABT_pool_user_def_set_print_all(ABT_pool_user_def def,
                                    ABT_pool_user_print_all_fn p_print_all) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup pool_units Pool units
 *
 * A unit is the element a pool stores for one work unit. get_thread maps a
 * unit back to its ULT; set_associated_pool is accepted for compatibility and
 * has no effect. Both return ABT_ERR_INV_UNIT for ABT_UNIT_NULL.
 * @{
 */
/**
 * @brief The work unit a pool unit stands for.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_UNIT unit is NULL or ABT_UNIT_NULL
 * @retval ABT_ERR_INV_ARG thread is NULL
 * @undefined a unit not made by the pool for a live work unit.
 */
int ABT_unit_get_thread(ABT_unit unit, ABT_thread *thread) ABT_API_PUBLIC;
/**
 * @brief Accepted for compatibility; has no effect.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_UNIT unit is NULL or ABT_UNIT_NULL
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @undefined nothing.
 * @differs user-pool units are made lazily, at the first push into the pool.
 */
int ABT_unit_set_associated_pool(ABT_unit unit, ABT_pool pool) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup user_level_threads User-level threads
 *
 * ULTs have their own stack and can yield, block and migrate. create pushes a
 * new ULT into `pool` (ABT_ERR_INV_POOL for ABT_POOL_NULL; create_on_xstream
 * uses the stream's first main pool, ABT_ERR_INV_XSTREAM for
 * ABT_XSTREAM_NULL); a NULL newthread makes an unnamed ULT that is freed
 * automatically when it finishes. create_to and revive_to also switch to the
 * new ULT at once (the caller must be a ULT). revive reuses a terminated but
 * not yet freed ULT with a new function (ABT_ERR_INV_THREAD if it has not
 * terminated). join waits for termination; free joins and then releases the
 * ULT, resetting the handle. Both return ABT_ERR_INV_THREAD when the handle
 * is ABT_THREAD_NULL or ABT_TASK_NULL, is the caller itself, the primary ULT
 * or a main scheduler. Other routines taking a thread return
 * ABT_ERR_INV_THREAD for a NULL handle. yield is a no-op outside a ULT;
 * yield_to returns ABT_ERR_INV_THREAD if the target is a tasklet or the
 * caller; resume returns ABT_ERR_THREAD if the target is not suspended. The
 * migrate_* routines return ABT_ERR_INV_THREAD for a non-migratable ULT and
 * ABT_ERR_MIGRATION_TARGET if the ULT already lives in the target; the
 * deprecated migrate picks a target itself (ABT_ERR_MIGRATION_NA if none).
 * Migration and cancellation are always built in. equal and the *_many
 * routines are deprecated.
 * get_stack reports the stack address and size (a post-1.2 addition, like
 * ABT_eventual_timedwait).
 * @{
 */
/**
 * @brief Create a ULT running thread_func(arg) and push it into pool.
 * With newthread NULL the ULT is unnamed: it is freed when it finishes and cannot be
 * joined. attr (or ABT_THREAD_ATTR_NULL for defaults) is copied. The stack is taken
 * when the ULT first runs.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG thread_func is NULL
 * @retval ABT_ERR_MEM no descriptor could be allocated
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined a freed pool or attribute; pushing to a pool whose access mode excludes the
 * caller.
 * @differs a stack that cannot be allocated at the first run sends the ULT back to its
 * pool to retry (Argobots fails the create with ABT_ERR_MEM).
 */
int ABT_thread_create(ABT_pool pool, void (*thread_func)(void *), void *arg, ABT_thread_attr attr,
                      ABT_thread *newthread) ABT_API_PUBLIC;
/**
 * @brief Create a ULT in pool and switch to it at once; the caller goes back to its pool.
 * @contexts a ULT.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is not a ULT
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG thread_func is NULL
 * @retval ABT_ERR_MEM out of memory
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_thread_create().
 */
int ABT_thread_create_to(ABT_pool pool, void (*thread_func)(void *), void *arg,
                         ABT_thread_attr attr, ABT_thread *newthread) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_create() into the first pool of xstream's main scheduler.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_ARG thread_func is NULL
 * @retval ABT_ERR_MEM out of memory
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_thread_create().
 */
int ABT_thread_create_on_xstream(ABT_xstream xstream, void (*thread_func)(void *), void *arg,
                                 ABT_thread_attr attr, ABT_thread *newthread) ABT_API_PUBLIC;
/**
 * @brief Deprecated: create num_threads ULTs, the i-th in pool_list[i] running
 * thread_func_list[i](arg_list[i]); newthread_list may be NULL (unnamed ULTs).
 * Stops at the first error.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_ARG num_threads negative, or a list NULL with num_threads > 0
 * @retval ABT_ERR_INV_THREAD_ATTR attr gives one user stack to several ULTs
 * @retval other the first error of ABT_thread_create()
 * @undefined lists shorter than num_threads.
 */
int ABT_thread_create_many(int num_threads, ABT_pool *pool_list, void (**thread_func_list)(void *),
                           void **arg_list, ABT_thread_attr attr,
                           ABT_thread *newthread_list) ABT_API_PUBLIC;
/**
 * @brief Reuse a terminated, not yet freed ULT: it runs thread_func(arg) again from pool.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_ARG thread or thread_func is NULL
 * @retval ABT_ERR_INV_THREAD *thread is ABT_THREAD_NULL or has not terminated
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined reviving concurrently with a join or free of the same ULT.
 */
int ABT_thread_revive(ABT_pool pool, void (*thread_func)(void *), void *arg,
                      ABT_thread *thread) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_revive() and switch to the revived ULT at once (from a ULT caller).
 * @contexts any; the switch happens only when the caller is a ULT.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_ARG thread or thread_func is NULL
 * @retval ABT_ERR_INV_THREAD *thread is ABT_THREAD_NULL or has not terminated
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_thread_revive().
 */
int ABT_thread_revive_to(ABT_pool pool, void (*thread_func)(void *), void *arg,
                         ABT_thread *thread) ABT_API_PUBLIC;
/**
 * @brief Wait for a ULT or tasklet to terminate, release it and set *thread to
 * ABT_THREAD_NULL. Key destructors run now.
 * @contexts any; a ULT caller is suspended while it waits, others wait in the kernel.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG thread is NULL
 * @retval ABT_ERR_INV_THREAD *thread is ABT_THREAD_NULL or ABT_TASK_NULL, the caller
 * itself, the primary ULT or a main scheduler
 * @undefined freeing an unnamed or already freed unit; two concurrent joins or frees.
 * @differs under a predefined scheduler, a target that never ran is run at once by the
 * caller (join bypass), ahead of units queued before it.
 */
int ABT_thread_free(ABT_thread *thread) ABT_API_PUBLIC;
/**
 * @brief Deprecated: ABT_thread_free() on each of num_threads handles; stops at the first
 * error.
 * @contexts as ABT_thread_free().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG num_threads negative, or thread_list NULL with num_threads > 0
 * @retval other the first error of ABT_thread_free()
 * @undefined as ABT_thread_free().
 */
int ABT_thread_free_many(int num_threads, ABT_thread *thread_list) ABT_API_PUBLIC;
/**
 * @brief Wait until a ULT or tasklet has terminated (it stays allocated).
 * @contexts any; a ULT caller is suspended, others wait in the kernel.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL or ABT_TASK_NULL, the caller
 * itself, the primary ULT or a main scheduler
 * @undefined joining an unnamed or freed unit.
 * @differs the join bypass of ABT_thread_free() applies.
 */
int ABT_thread_join(ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Deprecated: ABT_thread_join() on each handle; stops at the first error.
 * @contexts as ABT_thread_join().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG num_threads negative, or thread_list NULL with num_threads > 0
 * @retval other the first error of ABT_thread_join()
 * @undefined as ABT_thread_join().
 */
int ABT_thread_join_many(int num_threads, ABT_thread *thread_list) ABT_API_PUBLIC;
/**
 * @brief Terminate the calling ULT; does not return on success.
 * @contexts a ULT other than the primary ULT.
 * @retval ABT_SUCCESS never seen: on success the call does not return
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller is a tasklet, the primary ULT or a scheduler
 * @undefined locks or other resources the ULT still holds stay held.
 */
int ABT_thread_exit(void) ABT_API_PUBLIC;
/**
 * @brief Ask a ULT or tasklet to terminate: one that has not started never runs; a running
 * one terminates at its next switch point.
 * @contexts any.
 * @retval ABT_SUCCESS also when the unit has already terminated
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL, the primary ULT or a scheduler
 * @undefined cancelling a unit that holds locks; freed handles.
 */
int ABT_thread_cancel(ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief The calling ULT.
 * @contexts any; a tasklet gets ABT_ERR_INV_THREAD, an external thread
 * ABT_ERR_INV_XSTREAM.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG thread is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller is a tasklet
 * @undefined nothing.
 */
int ABT_thread_self(ABT_thread *thread) ABT_API_PUBLIC;
/**
 * @brief The id of the calling ULT.
 * @contexts as ABT_thread_self().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG id is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller is a tasklet
 * @undefined nothing.
 */
int ABT_thread_self_id(ABT_unit_id *id) ABT_API_PUBLIC;
/**
 * @brief The execution stream a work unit last ran on (ABT_XSTREAM_NULL if it never ran).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG xstream is NULL
 * @undefined a freed handle.
 */
int ABT_thread_get_last_xstream(ABT_thread thread, ABT_xstream *xstream) ABT_API_PUBLIC;
/**
 * @brief The state of a work unit (ready, running, blocked, terminated).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG state is NULL
 * @undefined a freed handle; the value is a snapshot.
 */
int ABT_thread_get_state(ABT_thread thread, ABT_thread_state *state) ABT_API_PUBLIC;
/**
 * @brief The pool a work unit is associated with.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG pool is NULL
 * @undefined a freed handle.
 * @differs a main scheduler's own handle reports ABT_POOL_NULL.
 */
int ABT_thread_get_last_pool(ABT_thread thread, ABT_pool *pool) ABT_API_PUBLIC;
/**
 * @brief The id of the pool a work unit is associated with.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG id is NULL
 * @retval ABT_ERR_INV_POOL the unit has no pool
 * @undefined a freed handle.
 */
int ABT_thread_get_last_pool_id(ABT_thread thread, int *id) ABT_API_PUBLIC;
/**
 * @brief The pool unit of a work unit.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG unit is NULL
 * @undefined a freed handle.
 * @differs returns the thread's own handle, which every routine taking an ABT_unit
 * accepts.
 */
int ABT_thread_get_unit(ABT_thread thread, ABT_unit *unit) ABT_API_PUBLIC;
/**
 * @brief Associate a work unit with another pool; a unit queued in its old pool moves.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined changing the pool of a unit another stream is popping.
 */
int ABT_thread_set_associated_pool(ABT_thread thread, ABT_pool pool) ABT_API_PUBLIC;
/**
 * @brief Yield the calling ULT and run thread next (it is taken out of its pool).
 * @contexts a ULT.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL, a tasklet, the caller, a main
 * scheduler or not ready; or the caller is a tasklet
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined a target another stream is about to run.
 * @differs a target still queued in its pool is accepted and taken out first.
 */
int ABT_thread_yield_to(ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Let other work run: the calling ULT goes back to its pool.
 * A no-op outside a ULT.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @undefined nothing.
 * @differs under BASIC/BASIC_WAIT with one built-in pool the switch goes straight to the
 * next ready ULT (same order, fewer scheduler passes).
 */
int ABT_thread_yield(void) ABT_API_PUBLIC;
/**
 * @brief Make a ULT suspended by ABT_self_suspend() ready again (back into its pool).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL or a tasklet
 * @retval ABT_ERR_THREAD the ULT is not suspended
 * @undefined resuming a ULT blocked on a synchronization object.
 */
int ABT_thread_resume(ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Move a migratable work unit to the first pool of xstream's main scheduler.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL, not migratable, or the primary
 * ULT
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL or terminated
 * @retval ABT_ERR_MIGRATION_TARGET the unit is already associated with that pool
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined migrating a unit that is running on another stream at that instant.
 */
int ABT_thread_migrate_to_xstream(ABT_thread thread, ABT_xstream xstream) ABT_API_PUBLIC;
/**
 * @brief Move a migratable work unit to the first pool of sched.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL, not migratable, or the primary
 * ULT
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL
 * @retval ABT_ERR_MIGRATION_TARGET sched has no pool, or the unit is already in it
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_thread_migrate_to_xstream().
 */
int ABT_thread_migrate_to_sched(ABT_thread thread, ABT_sched sched) ABT_API_PUBLIC;
/**
 * @brief Move a migratable work unit to pool; the migration callback runs.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL, not migratable, or the primary
 * ULT
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_MIGRATION_TARGET the unit is already associated with pool
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_thread_migrate_to_xstream().
 */
int ABT_thread_migrate_to_pool(ABT_thread thread, ABT_pool pool) ABT_API_PUBLIC;
/**
 * @brief Deprecated: move a migratable work unit to a running stream other than its own.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL or not migratable
 * @retval ABT_ERR_MIGRATION_NA no other running stream exists
 * @retval ABT_ERR_MIGRATION_TARGET the target pool is the unit's own
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_thread_migrate_to_xstream().
 */
int ABT_thread_migrate(ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Set the function called, with cb_arg, when the work unit migrates.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @undefined a callback that blocks.
 */
int ABT_thread_set_callback(ABT_thread thread, void (*cb_func)(ABT_thread thread, void *cb_arg),
                            void *cb_arg) ABT_API_PUBLIC;
/**
 * @brief Allow or forbid migrating a work unit (ignored for the primary ULT and schedulers).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @undefined nothing.
 */
int ABT_thread_set_migratable(ABT_thread thread, ABT_bool migratable) ABT_API_PUBLIC;
/**
 * @brief Whether a work unit may migrate.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG is_migratable is NULL
 * @undefined nothing.
 */
int ABT_thread_is_migratable(ABT_thread thread, ABT_bool *is_migratable) ABT_API_PUBLIC;
/**
 * @brief Whether a ULT is the primary ULT.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG is_primary is NULL
 * @undefined nothing.
 */
int ABT_thread_is_primary(ABT_thread thread, ABT_bool *is_primary) ABT_API_PUBLIC;
/**
 * @brief Whether a work unit is unnamed (created without a handle, freed automatically).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG is_unnamed is NULL
 * @undefined asking about an unnamed unit after it finished.
 */
int ABT_thread_is_unnamed(ABT_thread thread, ABT_bool *is_unnamed) ABT_API_PUBLIC;
/**
 * @brief Deprecated: whether two handles name the same work unit.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG result is NULL
 * @undefined nothing.
 */
int ABT_thread_equal(ABT_thread thread1, ABT_thread thread2, ABT_bool *result) ABT_API_PUBLIC;
/**
 * @brief The stack size of a ULT (0 for a tasklet).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG stacksize is NULL
 * @undefined nothing.
 */
int ABT_thread_get_stacksize(ABT_thread thread, size_t *stacksize) ABT_API_PUBLIC;
/**
 * @brief The stack address and size of a ULT; either output may be NULL.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @undefined using the address after the ULT terminated.
 * @differs stacks are lazy: the address is NULL (with the size it will have) before the
 * first run and after termination.
 */
int ABT_thread_get_stack(ABT_thread thread, void **stackaddr, size_t *stacksize) ABT_API_PUBLIC;
/**
 * @brief The id of a work unit (unique in the process).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG thread_id is NULL
 * @undefined nothing.
 */
int ABT_thread_get_id(ABT_thread thread, ABT_unit_id *thread_id) ABT_API_PUBLIC;
/**
 * @brief Replace the argument of a work unit's function (seen by ABT_thread_get_arg()).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @undefined nothing.
 */
int ABT_thread_set_arg(ABT_thread thread, void *arg) ABT_API_PUBLIC;
/**
 * @brief The argument of a work unit's function.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG arg is NULL
 * @undefined nothing.
 */
int ABT_thread_get_arg(ABT_thread thread, void **arg) ABT_API_PUBLIC;
/**
 * @brief The function a work unit runs.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_ARG thread_func is NULL
 * @undefined nothing.
 */
int ABT_thread_get_thread_func(ABT_thread thread, void (**thread_func)(void *)) ABT_API_PUBLIC;
/**
 * @brief Set the value of key for a work unit.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_KEY key is ABT_KEY_NULL
 * @retval ABT_ERR_MEM the unit's value table could not grow
 * @undefined setting a value of a unit that runs on another stream concurrently with its
 * own ABT_key_set().
 */
int ABT_thread_set_specific(ABT_thread thread, ABT_key key, void *value) ABT_API_PUBLIC;
/**
 * @brief The value of key for a work unit (NULL if never set).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @retval ABT_ERR_INV_KEY key is ABT_KEY_NULL
 * @retval ABT_ERR_INV_ARG value is NULL
 * @undefined as ABT_thread_set_specific().
 */
int ABT_thread_get_specific(ABT_thread thread, ABT_key key, void **value) ABT_API_PUBLIC;
/**
 * @brief A new attribute object describing a ULT (stack, migratability, callback); free it
 * with ABT_thread_attr_free().
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL or a tasklet
 * @retval ABT_ERR_INV_ARG attr is NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 * @differs the stack address is NULL before the first run and after termination.
 */
int ABT_thread_get_attr(ABT_thread thread, ABT_thread_attr *attr) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup ult_attributes ULT attributes
 *
 * Creation-time settings for ULTs: a user-supplied stack (ABT_ERR_INV_ARG if
 * stackaddr is neither NULL nor 8-byte aligned) or only a stack size, a
 * migration callback and whether the ULT may migrate. The attribute is copied
 * at creation, so it may be freed afterwards. Routines return
 * ABT_ERR_INV_THREAD_ATTR for ABT_THREAD_ATTR_NULL.
 * @{
 */
/**
 * @brief Create a ULT attribute with the defaults (stack size from ABT_THREAD_STACKSIZE,
 * migratable, no callback).
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newattr is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_thread_attr_create(ABT_thread_attr *newattr) ABT_API_PUBLIC;
/**
 * @brief Free a ULT attribute and reset the handle (ULTs created with it are unaffected).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG attr is NULL
 * @retval ABT_ERR_INV_THREAD_ATTR *attr is ABT_THREAD_ATTR_NULL
 * @undefined freeing twice.
 */
int ABT_thread_attr_free(ABT_thread_attr *attr) ABT_API_PUBLIC;
/**
 * @brief Use the caller's memory (stackaddr, stacksize) as the stack, or with stackaddr NULL
 * only set the size.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD_ATTR attr is ABT_THREAD_ATTR_NULL
 * @retval ABT_ERR_INV_ARG stackaddr not 8-byte aligned or stacksize below 512 bytes
 * @undefined sharing one user stack between live ULTs; freeing it while a ULT uses it.
 */
int ABT_thread_attr_set_stack(ABT_thread_attr attr, void *stackaddr,
                              size_t stacksize) ABT_API_PUBLIC;
/**
 * @brief The stack address (NULL when the runtime allocates) and size of an attribute.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD_ATTR attr is ABT_THREAD_ATTR_NULL
 * @retval ABT_ERR_INV_ARG stackaddr or stacksize is NULL
 * @undefined nothing.
 */
int ABT_thread_attr_get_stack(ABT_thread_attr attr, void **stackaddr,
                              size_t *stacksize) ABT_API_PUBLIC;
/**
 * @brief Set the stack size (the runtime allocates the stack).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD_ATTR attr is ABT_THREAD_ATTR_NULL
 * @retval ABT_ERR_INV_ARG stacksize below 512 bytes
 * @undefined a size too small for what the ULT runs (stack overflow).
 */
int ABT_thread_attr_set_stacksize(ABT_thread_attr attr, size_t stacksize) ABT_API_PUBLIC;
/**
 * @brief The stack size of an attribute.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD_ATTR attr is ABT_THREAD_ATTR_NULL
 * @retval ABT_ERR_INV_ARG stacksize is NULL
 * @undefined nothing.
 */
int ABT_thread_attr_get_stacksize(ABT_thread_attr attr, size_t *stacksize) ABT_API_PUBLIC;
/**
 * @brief Set the migration callback of an attribute.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD_ATTR attr is ABT_THREAD_ATTR_NULL
 * @undefined nothing.
 */
int ABT_thread_attr_set_callback(ABT_thread_attr attr,
                                 void (*cb_func)(ABT_thread thread, void *cb_arg),
                                 void *cb_arg) ABT_API_PUBLIC;
/**
 * @brief Set whether ULTs created with the attribute may migrate.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_THREAD_ATTR attr is ABT_THREAD_ATTR_NULL
 * @undefined nothing.
 */
int ABT_thread_attr_set_migratable(ABT_thread_attr attr, ABT_bool is_migratable) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup tasklets Tasklets
 *
 * Tasklets are stackless work units that run to completion: they cannot yield
 * or block. In 1.x they share the ULT representation (ABT_task is the same
 * type as ABT_thread) and each ABT_task_* routine behaves like its
 * ABT_thread_* counterpart, except that it reports ABT_ERR_INV_TASK where the
 * latter reports ABT_ERR_INV_THREAD, and that ABT_task_free() resets the
 * handle to ABT_TASK_NULL. ABT_task_self() and ABT_task_self_id() return
 * ABT_ERR_INV_TASK when the caller is a ULT. ABT_task_equal() is a plain
 * handle comparison. Three routines are macros naming their ABT_thread_*
 * twins.
 * @{
 */
/**
 * @brief Create a tasklet running task_func(arg) and push it into pool.
 * With newtask NULL the tasklet is unnamed and freed when it finishes.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_INV_ARG task_func is NULL
 * @retval ABT_ERR_MEM out of memory
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined task_func that yields or blocks.
 */
int ABT_task_create(ABT_pool pool, void (*task_func)(void *), void *arg,
                    ABT_task *newtask) ABT_API_PUBLIC;
/**
 * @brief ABT_task_create() into the first pool of xstream's main scheduler.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @retval ABT_ERR_INV_ARG task_func is NULL
 * @retval ABT_ERR_MEM out of memory
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_task_create().
 */
int ABT_task_create_on_xstream(ABT_xstream xstream, void (*task_func)(void *), void *arg,
                               ABT_task *newtask) ABT_API_PUBLIC;
/**
 * @brief Reuse a terminated, not yet freed tasklet with a new function, from pool.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_ARG task or task_func is NULL
 * @retval ABT_ERR_INV_TASK *task is NULL, a ULT, or has not terminated
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined as ABT_thread_revive().
 */
int ABT_task_revive(ABT_pool pool, void (*task_func)(void *), void *arg,
                    ABT_task *task) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_free() for a tasklet; resets the handle to ABT_TASK_NULL.
 * @contexts as ABT_thread_free().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG task is NULL
 * @retval ABT_ERR_INV_TASK *task is a NULL handle, the caller itself or a scheduler
 * @undefined as ABT_thread_free().
 */
int ABT_task_free(ABT_task *task) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_join() for a tasklet.
 * @contexts as ABT_thread_join().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TASK task is a NULL handle or the caller itself
 * @undefined as ABT_thread_join().
 */
int ABT_task_join(ABT_task task) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_cancel() for a tasklet.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TASK task is a NULL handle or a scheduler
 * @undefined as ABT_thread_cancel().
 */
int ABT_task_cancel(ABT_task task) ABT_API_PUBLIC;
/**
 * @brief The calling tasklet.
 * @contexts any; a ULT gets ABT_ERR_INV_TASK, an external thread ABT_ERR_INV_XSTREAM.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG task is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_TASK the caller is a ULT
 * @undefined nothing.
 */
int ABT_task_self(ABT_task *task) ABT_API_PUBLIC;
/**
 * @brief The id of the calling tasklet.
 * @contexts as ABT_task_self().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG id is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_TASK the caller is a ULT
 * @undefined nothing.
 */
int ABT_task_self_id(uint64_t *id) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_get_last_xstream() for a tasklet.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TASK task is a NULL handle
 * @retval ABT_ERR_INV_ARG xstream is NULL
 * @undefined a freed handle.
 */
int ABT_task_get_xstream(ABT_task task, ABT_xstream *xstream) ABT_API_PUBLIC;
/**
 * @brief The state of a tasklet (ready, running, terminated).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TASK task is a NULL handle
 * @retval ABT_ERR_INV_ARG state is NULL
 * @undefined a freed handle.
 */
int ABT_task_get_state(ABT_task task, ABT_task_state *state) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_get_last_pool() for a tasklet.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TASK task is a NULL handle
 * @retval ABT_ERR_INV_ARG pool is NULL
 * @undefined a freed handle.
 */
int ABT_task_get_last_pool(ABT_task task, ABT_pool *pool) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_get_last_pool_id() for a tasklet.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TASK task is a NULL handle
 * @retval ABT_ERR_INV_ARG id is NULL
 * @retval ABT_ERR_INV_POOL the tasklet has no pool
 * @undefined a freed handle.
 */
int ABT_task_get_last_pool_id(ABT_task task, int *id) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_set_migratable() for a tasklet.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TASK task is a NULL handle
 * @undefined nothing.
 */
int ABT_task_set_migratable(ABT_task task, ABT_bool flag) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_is_migratable() for a tasklet.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TASK task is a NULL handle
 * @retval ABT_ERR_INV_ARG flag is NULL
 * @undefined nothing.
 */
int ABT_task_is_migratable(ABT_task task, ABT_bool *flag) ABT_API_PUBLIC;
/**
 * @brief Whether two handles name the same work unit (a plain comparison).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG result is NULL
 * @undefined nothing.
 */
int ABT_task_equal(ABT_task task1, ABT_task task2, ABT_bool *result) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_get_id() for a tasklet.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TASK task is a NULL handle
 * @retval ABT_ERR_INV_ARG task_id is NULL
 * @undefined nothing.
 */
int ABT_task_get_id(ABT_task task, uint64_t *task_id) ABT_API_PUBLIC;
/**
 * @brief ABT_thread_get_arg() for a tasklet.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TASK task is a NULL handle
 * @retval ABT_ERR_INV_ARG arg is NULL
 * @undefined nothing.
 */
int ABT_task_get_arg(ABT_task task, void **arg) ABT_API_PUBLIC;
#define ABT_task_is_unnamed   ABT_thread_is_unnamed   /**< macro for ABT_thread_is_unnamed() */
#define ABT_task_set_specific ABT_thread_set_specific /**< macro for ABT_thread_set_specific() */
#define ABT_task_get_specific ABT_thread_get_specific /**< macro for ABT_thread_get_specific() */

/** @} */

/**
 * @defgroup the_calling_work_unit The calling work unit
 *
 * Operations on whatever is currently running. They return
 * ABT_ERR_INV_XSTREAM when the caller is an external thread (get_type then
 * also stores ABT_UNIT_TYPE_EXT). Routines that suspend or switch (yield*,
 * suspend*, exit*, resume_*, schedule) return ABT_ERR_INV_THREAD when the
 * caller is a tasklet; the *_to forms also when the target is
 * ABT_THREAD_NULL, a tasklet, the caller itself or a main scheduler. suspend
 * blocks the caller until ABT_thread_resume(); the resume_*_to forms resume a
 * suspended target and switch to it directly. exit never returns on success
 * (ABT_ERR_INV_THREAD for the primary ULT). schedule runs `thread` as a child
 * of the calling ULT, associating it with `pool` first unless that is
 * ABT_POOL_NULL; the caller continues when the child finishes or yields.
 * get_task and get_task_id are macros for their thread equivalents.
 * @{
 */
/**
 * @brief Same as ABT_xstream_self().
 * @contexts any; an external thread gets ABT_ERR_INV_XSTREAM.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG xstream is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_self_get_xstream(ABT_xstream *xstream) ABT_API_PUBLIC;
/**
 * @brief Same as ABT_xstream_self_rank().
 * @contexts any; an external thread gets ABT_ERR_INV_XSTREAM.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG rank is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_self_get_xstream_rank(int *rank) ABT_API_PUBLIC;
/**
 * @brief The calling work unit (ULT or tasklet).
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG thread is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_self_get_thread(ABT_thread *thread) ABT_API_PUBLIC;
/**
 * @brief The id of the calling work unit.
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG id is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_self_get_thread_id(ABT_unit_id *id) ABT_API_PUBLIC;
/**
 * @brief Set the caller's value for key (like ABT_key_set()).
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_KEY key is ABT_KEY_NULL
 * @retval ABT_ERR_MEM the value table could not grow
 * @undefined a freed key.
 */
int ABT_self_set_specific(ABT_key key, void *value) ABT_API_PUBLIC;
/**
 * @brief The caller's value for key (NULL if never set).
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_KEY key is ABT_KEY_NULL
 * @retval ABT_ERR_INV_ARG value is NULL
 * @undefined a freed key.
 */
int ABT_self_get_specific(ABT_key key, void **value) ABT_API_PUBLIC;
/**
 * @brief What the caller is: ULT, tasklet, or external thread (ABT_UNIT_TYPE_EXT, with an
 * error).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG type is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running (*type = ABT_UNIT_TYPE_EXT)
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread (*type = ABT_UNIT_TYPE_EXT)
 * @undefined nothing.
 */
int ABT_self_get_type(ABT_unit_type *type) ABT_API_PUBLIC;
/**
 * @brief Whether the caller is the primary ULT.
 * @contexts a ULT.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG is_primary is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller is a tasklet
 * @undefined nothing.
 */
int ABT_self_is_primary(ABT_bool *is_primary) ABT_API_PUBLIC;
/**
 * @brief Whether the caller runs on the primary execution stream.
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG on_primary is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_self_on_primary_xstream(ABT_bool *on_primary) ABT_API_PUBLIC;
/**
 * @brief Whether the calling work unit is unnamed.
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG is_unnamed is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_self_is_unnamed(ABT_bool *is_unnamed) ABT_API_PUBLIC;
/**
 * @brief The pool the calling work unit is associated with.
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG pool is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 * @differs a main scheduler gets ABT_POOL_NULL.
 */
int ABT_self_get_last_pool(ABT_pool *pool) ABT_API_PUBLIC;
/**
 * @brief The id of the pool the calling work unit is associated with.
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG pool_id is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_self_get_last_pool_id(int *pool_id) ABT_API_PUBLIC;
/**
 * @brief Associate the calling work unit with pool (it returns there when it yields).
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined a pool no scheduler serves (the unit never runs again after a yield).
 */
int ABT_self_set_associated_pool(ABT_pool pool) ABT_API_PUBLIC;
/**
 * @brief The pool unit of the calling work unit.
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG unit is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 * @differs the unit is the thread's own handle (see ABT_thread_get_unit()).
 */
int ABT_self_get_unit(ABT_unit *unit) ABT_API_PUBLIC;
/**
 * @brief Yield the calling ULT (see ABT_thread_yield()).
 * @contexts a ULT.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller is a tasklet
 * @undefined nothing.
 * @differs from a main scheduler it returns at once.
 */
int ABT_self_yield(void) ABT_API_PUBLIC;
/**
 * @brief Yield and run thread next (see ABT_thread_yield_to()).
 * @contexts a ULT (not a main scheduler).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller is a tasklet or main scheduler; thread is
 * ABT_THREAD_NULL, a tasklet, the caller, a main scheduler or not ready
 * @undefined a target another stream is about to run.
 * @differs a queued target is taken out of its pool first.
 */
int ABT_self_yield_to(ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Resume the suspended ULT thread and switch to it, the caller going back to its pool.
 * @contexts a ULT (not a main scheduler).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller is a tasklet or main scheduler; thread is
 * ABT_THREAD_NULL, a tasklet, the caller, a main scheduler, or not suspended
 * @undefined a target resumed concurrently by someone else.
 */
int ABT_self_resume_yield_to(ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Suspend the calling ULT until ABT_thread_resume() makes it ready again.
 * @contexts a ULT (not a main scheduler).
 * @retval ABT_SUCCESS after the resume
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller is a tasklet or main scheduler
 * @undefined nothing; a ULT never resumed stays suspended (and blocks finalization).
 */
int ABT_self_suspend(void) ABT_API_PUBLIC;
/**
 * @brief Suspend the caller and switch to the ready ULT thread.
 * @contexts a ULT (not a main scheduler).
 * @retval ABT_SUCCESS after the resume
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller or target is invalid (as ABT_self_yield_to())
 * @undefined as ABT_self_yield_to().
 */
int ABT_self_suspend_to(ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Suspend the caller, resume the suspended ULT thread and switch to it.
 * @contexts a ULT (not a main scheduler).
 * @retval ABT_SUCCESS after the resume
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller or target is invalid, or the target is not
 * suspended
 * @undefined as ABT_self_resume_yield_to().
 */
int ABT_self_resume_suspend_to(ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Terminate the calling ULT; does not return on success.
 * @contexts a ULT other than the primary ULT and schedulers.
 * @retval ABT_SUCCESS never seen: on success the call does not return
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller is a tasklet, the primary ULT or a scheduler
 * @undefined resources the ULT holds stay held.
 */
int ABT_self_exit(void) ABT_API_PUBLIC;
/**
 * @brief Terminate the calling ULT and switch to the ready ULT thread.
 * @contexts as ABT_self_exit().
 * @retval ABT_SUCCESS never seen: on success the call does not return
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller or target is invalid (the primary ULT included)
 * @undefined as ABT_self_yield_to().
 */
int ABT_self_exit_to(ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Terminate the calling ULT, resume the suspended ULT thread and switch to it.
 * @contexts as ABT_self_exit().
 * @retval ABT_SUCCESS never seen: on success the call does not return
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD the caller or target is invalid, or the target is not
 * suspended
 * @undefined as ABT_self_resume_yield_to().
 */
int ABT_self_resume_exit_to(ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Run thread now as a child of the caller (a scheduler loop or ULT), associating it
 * with pool first unless pool is ABT_POOL_NULL; returns when it finishes, yields or
 * blocks.
 * @contexts a scheduler's run loop; a ULT.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL, the caller or a main scheduler,
 * cannot be taken out of its pool, or the caller is a tasklet
 * @retval ABT_ERR_OTHER the target is a user pool whose create_unit returned
 * ABT_UNIT_NULL (nothing changed)
 * @undefined a thread that is running or terminated.
 * @differs a target still queued in its pool is taken out first.
 */
int ABT_self_schedule(ABT_thread thread, ABT_pool pool) ABT_API_PUBLIC;
/**
 * @brief Replace the argument of the calling work unit's function.
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_self_set_arg(void *arg) ABT_API_PUBLIC;
/**
 * @brief The argument of the calling work unit's function.
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG arg is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_self_get_arg(void **arg) ABT_API_PUBLIC;
/**
 * @brief The function the calling work unit runs.
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG thread_func is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @undefined nothing.
 */
int ABT_self_get_thread_func(void (**thread_func)(void *)) ABT_API_PUBLIC;
#define ABT_self_get_task    ABT_self_get_thread    /**< macro for ABT_self_get_thread() */
#define ABT_self_get_task_id ABT_self_get_thread_id /**< macro for ABT_self_get_thread_id() */

/** @} */

/**
 * @defgroup work_unit_specific_data Work-unit-specific data
 *
 * Keys give each work unit its own value slot, like pthread keys. A
 * destructor (may be NULL) is called with the non-NULL value when the work
 * unit is freed. ABT_key_set/get act on the caller (ABT_ERR_INV_XSTREAM from
 * an external thread); ABT_thread_set/get_specific act on a given ULT.
 * Routines return ABT_ERR_INV_KEY for ABT_KEY_NULL.
 * @{
 */
/**
 * @brief Create a key; destructor (may be NULL) gets each unit's non-NULL value at free.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newkey is NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_key_create(void (*destructor)(void *value), ABT_key *newkey) ABT_API_PUBLIC;
/**
 * @brief Free a key and reset the handle; values already set are not destroyed.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG key is NULL
 * @retval ABT_ERR_INV_KEY *key is ABT_KEY_NULL
 * @undefined using the key afterwards.
 */
int ABT_key_free(ABT_key *key) ABT_API_PUBLIC;
/**
 * @brief Set the calling work unit's value for key.
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_KEY key is ABT_KEY_NULL
 * @retval ABT_ERR_MEM the value table could not grow
 * @undefined a freed key.
 */
int ABT_key_set(ABT_key key, void *value) ABT_API_PUBLIC;
/**
 * @brief The calling work unit's value for key (NULL if never set).
 * @contexts any work unit.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_XSTREAM the caller is an external thread
 * @retval ABT_ERR_INV_KEY key is ABT_KEY_NULL
 * @retval ABT_ERR_INV_ARG value is NULL
 * @undefined a freed key.
 */
int ABT_key_get(ABT_key key, void **value) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup mutexes Mutexes
 *
 * Locks that suspend a waiting ULT instead of its execution stream; external
 * threads and tasklets can use them too. Recursive mutexes (see mutex_attr
 * and ABT_RECURSIVE_MUTEX_INITIALIZER) may be re-locked by their owner and
 * need as many unlocks. lock_high/lock_low are priority hints only; spinlock
 * busy-waits without yielding. unlock_se and unlock_de try to hand the lock
 * directly to a waiter on the same, respectively a different, execution
 * stream. trylock returns ABT_ERR_MUTEX_LOCKED if the mutex is taken. All
 * routines return ABT_ERR_INV_MUTEX for ABT_MUTEX_NULL. equal is deprecated.
 * @{
 */
/**
 * @brief Create an unlocked, non-recursive mutex.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newmutex is NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_mutex_create(ABT_mutex *newmutex) ABT_API_PUBLIC;
/**
 * @brief Create a mutex with the settings of attr (ABT_MUTEX_ATTR_NULL: defaults).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newmutex is NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_mutex_create_with_attr(ABT_mutex_attr attr, ABT_mutex *newmutex) ABT_API_PUBLIC;
/**
 * @brief Free a mutex and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG mutex is NULL
 * @retval ABT_ERR_INV_MUTEX *mutex is ABT_MUTEX_NULL or statically initialized
 * @undefined freeing a locked mutex or one with waiters.
 * @differs a statically initialized mutex returns ABT_ERR_INV_MUTEX.
 */
int ABT_mutex_free(ABT_mutex *mutex) ABT_API_PUBLIC;
/**
 * @brief Lock a mutex; a ULT waits suspended, a tasklet or external thread waits in the
 * kernel. A recursive mutex may be locked again by its owner.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_MUTEX mutex is ABT_MUTEX_NULL
 * @undefined locking a non-recursive mutex the caller holds (deadlock).
 */
int ABT_mutex_lock(ABT_mutex mutex) ABT_API_PUBLIC;
/**
 * @brief ABT_mutex_lock() with a hint that the caller is urgent (no different ordering).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_MUTEX mutex is ABT_MUTEX_NULL
 * @undefined as ABT_mutex_lock().
 */
int ABT_mutex_lock_high(ABT_mutex mutex) ABT_API_PUBLIC;
/**
 * @brief ABT_mutex_lock() with a hint that the caller is not urgent.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_MUTEX mutex is ABT_MUTEX_NULL
 * @undefined as ABT_mutex_lock().
 */
int ABT_mutex_lock_low(ABT_mutex mutex) ABT_API_PUBLIC;
/**
 * @brief Lock a mutex if it is free, without waiting.
 * @contexts any.
 * @retval ABT_SUCCESS the caller holds it
 * @retval ABT_ERR_MUTEX_LOCKED it is held by someone else
 * @retval ABT_ERR_INV_MUTEX mutex is ABT_MUTEX_NULL
 * @undefined nothing.
 */
int ABT_mutex_trylock(ABT_mutex mutex) ABT_API_PUBLIC;
/**
 * @brief Lock a mutex by busy-waiting, without yielding.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_MUTEX mutex is ABT_MUTEX_NULL
 * @undefined spinning for a holder that needs the caller's stream to run (deadlock).
 */
int ABT_mutex_spinlock(ABT_mutex mutex) ABT_API_PUBLIC;
/**
 * @brief Release a mutex held by the caller and wake one waiter.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_MUTEX mutex is ABT_MUTEX_NULL
 * @undefined unlocking a mutex the caller does not hold.
 */
int ABT_mutex_unlock(ABT_mutex mutex) ABT_API_PUBLIC;
/**
 * @brief Unlock, preferring a waiter that last ran on the caller's stream; a ULT caller then
 * yields so that it runs next.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_MUTEX mutex is ABT_MUTEX_NULL
 * @undefined as ABT_mutex_unlock().
 * @differs Argobots 1.2 makes it a plain unlock; ownership is not handed over.
 */
int ABT_mutex_unlock_se(ABT_mutex mutex) ABT_API_PUBLIC;
/**
 * @brief Unlock, preferring a waiter that last ran on another stream.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_MUTEX mutex is ABT_MUTEX_NULL
 * @undefined as ABT_mutex_unlock().
 * @differs Argobots 1.2 makes it a plain unlock; ownership is not handed over.
 */
int ABT_mutex_unlock_de(ABT_mutex mutex) ABT_API_PUBLIC;
/**
 * @brief Deprecated: whether two handles name the same mutex.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG result is NULL
 * @undefined nothing.
 */
int ABT_mutex_equal(ABT_mutex mutex1, ABT_mutex mutex2, ABT_bool *result) ABT_API_PUBLIC;
/**
 * @brief A new attribute object describing a mutex (free it with ABT_mutex_attr_free()).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_MUTEX mutex is ABT_MUTEX_NULL
 * @retval ABT_ERR_INV_ARG attr is NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_mutex_get_attr(ABT_mutex mutex, ABT_mutex_attr *attr) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup mutex_attributes Mutex attributes
 *
 * Creation-time settings for mutexes; currently only recursiveness. Routines
 * return ABT_ERR_INV_MUTEX_ATTR for ABT_MUTEX_ATTR_NULL.
 * @{
 */
/**
 * @brief Create a mutex attribute (non-recursive).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newattr is NULL
 * @retval ABT_ERR_MEM out of memory (*newattr untouched)
 * @undefined nothing.
 */
int ABT_mutex_attr_create(ABT_mutex_attr *newattr) ABT_API_PUBLIC;
/**
 * @brief Free a mutex attribute and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG attr is NULL
 * @retval ABT_ERR_INV_MUTEX_ATTR *attr is ABT_MUTEX_ATTR_NULL
 * @undefined freeing twice.
 */
int ABT_mutex_attr_free(ABT_mutex_attr *attr) ABT_API_PUBLIC;
/**
 * @brief Set whether mutexes created with the attribute are recursive.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_MUTEX_ATTR attr is ABT_MUTEX_ATTR_NULL
 * @undefined nothing.
 */
int ABT_mutex_attr_set_recursive(ABT_mutex_attr attr, ABT_bool recursive) ABT_API_PUBLIC;
/**
 * @brief Whether the attribute makes recursive mutexes.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_MUTEX_ATTR attr is ABT_MUTEX_ATTR_NULL
 * @retval ABT_ERR_INV_ARG recursive is NULL
 * @undefined nothing.
 */
int ABT_mutex_attr_get_recursive(ABT_mutex_attr attr, ABT_bool *recursive) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup condition_variables Condition variables
 *
 * Condition variables used with ABT_mutex. wait releases the mutex, blocks
 * and re-acquires it before returning. timedwait takes an absolute
 * CLOCK_REALTIME deadline and returns ABT_ERR_COND_TIMEDOUT (with the mutex
 * held again) when it passes. Routines return ABT_ERR_INV_COND for
 * ABT_COND_NULL (and ABT_ERR_INV_MUTEX for ABT_MUTEX_NULL); waiting from a
 * tasklet returns ABT_ERR_COND, as does freeing a condition with waiters.
 * @{
 */
/**
 * @brief Create a condition variable.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newcond is NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_cond_create(ABT_cond *newcond) ABT_API_PUBLIC;
/**
 * @brief Free a condition variable and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG cond is NULL
 * @retval ABT_ERR_INV_COND *cond is ABT_COND_NULL or statically initialized
 * @retval ABT_ERR_COND it has waiters
 * @undefined freeing twice.
 * @differs a statically initialized condition returns ABT_ERR_INV_COND.
 */
int ABT_cond_free(ABT_cond *cond) ABT_API_PUBLIC;
/**
 * @brief Release mutex, wait for a signal, and lock mutex again before returning.
 * @contexts a ULT (suspended) or an external thread (sleeps); not a tasklet.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_COND cond is ABT_COND_NULL
 * @retval ABT_ERR_INV_MUTEX mutex is ABT_MUTEX_NULL, or another mutex is in use by the
 * current waiters
 * @retval ABT_ERR_COND the caller is a tasklet
 * @undefined waiting without holding mutex; spurious wake-ups are possible, re-check
 * the predicate.
 * @differs the mutex is tied to the condition only while it has waiters.
 */
int ABT_cond_wait(ABT_cond cond, ABT_mutex mutex) ABT_API_PUBLIC;
/**
 * @brief ABT_cond_wait() with an absolute CLOCK_REALTIME deadline.
 * @contexts as ABT_cond_wait().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_COND_TIMEDOUT the deadline passed (mutex held again)
 * @retval ABT_ERR_INV_COND cond is ABT_COND_NULL
 * @retval ABT_ERR_INV_MUTEX mutex is ABT_MUTEX_NULL or differs from the waiters' one
 * @retval ABT_ERR_INV_ARG abstime is NULL
 * @retval ABT_ERR_MEM the stream's timer queue could not be created
 * @undefined as ABT_cond_wait(); a tasklet caller blocks its whole stream.
 */
int ABT_cond_timedwait(ABT_cond cond, ABT_mutex mutex,
                       const struct timespec *abstime) ABT_API_PUBLIC;
/**
 * @brief Wake one waiter.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_COND cond is ABT_COND_NULL
 * @undefined nothing.
 */
int ABT_cond_signal(ABT_cond cond) ABT_API_PUBLIC;
/**
 * @brief Wake all waiters.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_COND cond is ABT_COND_NULL
 * @undefined nothing.
 */
int ABT_cond_broadcast(ABT_cond cond) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup reader_writer_locks Reader-writer locks
 *
 * Many readers or one writer; waiting ULTs are suspended. Routines return
 * ABT_ERR_INV_RWLOCK for ABT_RWLOCK_NULL; locking from a tasklet returns
 * ABT_ERR_RWLOCK.
 * @{
 */
/**
 * @brief Create a readers-writer lock.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newrwlock is NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_rwlock_create(ABT_rwlock *newrwlock) ABT_API_PUBLIC;
/**
 * @brief Free a readers-writer lock and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG rwlock is NULL
 * @retval ABT_ERR_INV_RWLOCK *rwlock is ABT_RWLOCK_NULL or statically initialized
 * @undefined freeing a held lock.
 */
int ABT_rwlock_free(ABT_rwlock *rwlock) ABT_API_PUBLIC;
/**
 * @brief Take the lock shared; waits while a writer holds it.
 * @contexts a ULT or an external thread; not a tasklet.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_RWLOCK rwlock is ABT_RWLOCK_NULL
 * @retval ABT_ERR_RWLOCK the caller is a tasklet
 * @undefined a writer of the same lock taking it again (deadlock).
 */
int ABT_rwlock_rdlock(ABT_rwlock rwlock) ABT_API_PUBLIC;
/**
 * @brief Take the lock exclusively.
 * @contexts a ULT or an external thread; not a tasklet.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_RWLOCK rwlock is ABT_RWLOCK_NULL
 * @retval ABT_ERR_RWLOCK the caller is a tasklet
 * @undefined the holder taking it again (deadlock).
 */
int ABT_rwlock_wrlock(ABT_rwlock rwlock) ABT_API_PUBLIC;
/**
 * @brief Release a shared or exclusive hold.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_RWLOCK rwlock is ABT_RWLOCK_NULL
 * @undefined unlocking a lock the caller does not hold.
 */
int ABT_rwlock_unlock(ABT_rwlock rwlock) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup eventuals Eventuals
 *
 * A single-assignment value that waiters block on. create allocates nbytes of
 * storage (0 is allowed for a pure signal; ABT_ERR_INV_ARG if negative). set
 * copies nbytes from value and wakes all waiters; setting a ready eventual
 * returns ABT_ERR_EVENTUAL and a size larger than the storage
 * ABT_ERR_INV_EVENTUAL. wait and test give a pointer to the stored bytes.
 * timedwait takes an absolute CLOCK_REALTIME deadline and returns
 * ABT_ERR_COND_TIMEDOUT when it passes. reset makes the eventual unset again.
 * Routines return ABT_ERR_INV_EVENTUAL for ABT_EVENTUAL_NULL; waiting from a
 * tasklet returns ABT_ERR_EVENTUAL.
 * @{
 */
/**
 * @brief Create an unset eventual with nbytes of value storage (0: a pure signal).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG neweventual is NULL or nbytes negative
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_eventual_create(int nbytes, ABT_eventual *neweventual) ABT_API_PUBLIC;
/**
 * @brief Free an eventual and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG eventual is NULL
 * @retval ABT_ERR_INV_EVENTUAL *eventual is ABT_EVENTUAL_NULL or statically initialized
 * @undefined freeing an eventual with waiters.
 */
int ABT_eventual_free(ABT_eventual *eventual) ABT_API_PUBLIC;
/**
 * @brief Wait until the eventual is set; *value (if value is not NULL) points to its bytes.
 * @contexts a ULT (suspended) or an external thread (sleeps); not a tasklet.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_EVENTUAL eventual is ABT_EVENTUAL_NULL
 * @retval ABT_ERR_EVENTUAL the caller is a tasklet
 * @undefined using *value after the eventual is reset or freed.
 */
int ABT_eventual_wait(ABT_eventual eventual, void **value) ABT_API_PUBLIC;
/**
 * @brief ABT_eventual_wait() with an absolute CLOCK_REALTIME deadline.
 * @contexts as ABT_eventual_wait().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_COND_TIMEDOUT the deadline passed
 * @retval ABT_ERR_INV_EVENTUAL eventual is ABT_EVENTUAL_NULL
 * @retval ABT_ERR_INV_ARG abstime is NULL
 * @retval ABT_ERR_EVENTUAL the caller is a tasklet
 * @retval ABT_ERR_MEM the stream's timer queue could not be created
 * @undefined as ABT_eventual_wait().
 */
int ABT_eventual_timedwait(ABT_eventual eventual, void **value,
                           const struct timespec *abstime) ABT_API_PUBLIC;
/**
 * @brief Whether the eventual is set, without waiting; *value as for ABT_eventual_wait().
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_EVENTUAL eventual is ABT_EVENTUAL_NULL
 * @retval ABT_ERR_INV_ARG is_ready is NULL
 * @undefined nothing.
 */
int ABT_eventual_test(ABT_eventual eventual, void **value, ABT_bool *is_ready) ABT_API_PUBLIC;
/**
 * @brief Copy nbytes from value into the eventual, mark it set and wake all waiters.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_EVENTUAL eventual is ABT_EVENTUAL_NULL, or nbytes exceeds its
 * storage
 * @retval ABT_ERR_INV_ARG nbytes is negative
 * @retval ABT_ERR_EVENTUAL it is already set
 * @undefined value pointing to fewer than nbytes bytes.
 */
int ABT_eventual_set(ABT_eventual eventual, void *value, int nbytes) ABT_API_PUBLIC;
/**
 * @brief Make the eventual unset again.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_EVENTUAL eventual is ABT_EVENTUAL_NULL
 * @undefined resetting while units wait on it.
 */
int ABT_eventual_reset(ABT_eventual eventual) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup futures Futures
 *
 * A future with a fixed number of compartments becomes ready once each has
 * been set; the optional callback then receives the array of stored pointers,
 * before waiters are released. set returns ABT_ERR_FUTURE if the future is
 * already ready or has no compartments. Routines return ABT_ERR_INV_FUTURE
 * for ABT_FUTURE_NULL; waiting from a tasklet returns ABT_ERR_FUTURE.
 * @{
 */
/**
 * @brief Create a future of num_compartments; cb_func (may be NULL) gets the array of values
 * when the last one is set, before waiters are released.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newfuture is NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_future_create(uint32_t num_compartments, void (*cb_func)(void **arg),
                      ABT_future *newfuture) ABT_API_PUBLIC;
/**
 * @brief Free a future and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG future is NULL
 * @retval ABT_ERR_INV_FUTURE *future is ABT_FUTURE_NULL
 * @undefined freeing a future with waiters.
 */
int ABT_future_free(ABT_future *future) ABT_API_PUBLIC;
/**
 * @brief Wait until every compartment is set.
 * @contexts a ULT (suspended) or an external thread (sleeps); not a tasklet.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_FUTURE future is ABT_FUTURE_NULL
 * @retval ABT_ERR_FUTURE the caller is a tasklet
 * @undefined nothing.
 */
int ABT_future_wait(ABT_future future) ABT_API_PUBLIC;
/**
 * @brief Whether every compartment is set, without waiting.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_FUTURE future is ABT_FUTURE_NULL
 * @retval ABT_ERR_INV_ARG is_ready is NULL
 * @undefined nothing.
 */
int ABT_future_test(ABT_future future, ABT_bool *is_ready) ABT_API_PUBLIC;
/**
 * @brief Store value in the next compartment; the last one makes the future ready.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_FUTURE future is ABT_FUTURE_NULL
 * @retval ABT_ERR_FUTURE the future is already ready or has no compartment
 * @undefined nothing.
 */
int ABT_future_set(ABT_future future, void *value) ABT_API_PUBLIC;
/**
 * @brief Make the future empty again.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_FUTURE future is ABT_FUTURE_NULL
 * @undefined resetting while units wait on it or set it.
 */
int ABT_future_reset(ABT_future future) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup barriers Barriers
 *
 * A reusable barrier for work units; waiting ULTs are suspended. create and
 * reinit return ABT_ERR_INV_ARG when num_waiters is 0. Routines return
 * ABT_ERR_INV_BARRIER for ABT_BARRIER_NULL; waiting from a tasklet returns
 * ABT_ERR_BARRIER.
 * @{
 */
/**
 * @brief Create a reusable barrier for num_waiters work units.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newbarrier is NULL or num_waiters is 0
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_barrier_create(uint32_t num_waiters, ABT_barrier *newbarrier) ABT_API_PUBLIC;
/**
 * @brief Change the number of waiters of an idle barrier.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_BARRIER barrier is ABT_BARRIER_NULL
 * @retval ABT_ERR_INV_ARG num_waiters is 0
 * @undefined reinitializing while units wait on it.
 */
int ABT_barrier_reinit(ABT_barrier barrier, uint32_t num_waiters) ABT_API_PUBLIC;
/**
 * @brief Free a barrier and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG barrier is NULL
 * @retval ABT_ERR_INV_BARRIER *barrier is ABT_BARRIER_NULL
 * @undefined freeing a barrier with waiters.
 */
int ABT_barrier_free(ABT_barrier *barrier) ABT_API_PUBLIC;
/**
 * @brief Wait until num_waiters units have arrived, then release them all.
 * @contexts a ULT (suspended) or an external thread (sleeps); not a tasklet.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_BARRIER barrier is ABT_BARRIER_NULL
 * @retval ABT_ERR_BARRIER the caller is a tasklet
 * @undefined more concurrent waiters than num_waiters.
 */
int ABT_barrier_wait(ABT_barrier barrier) ABT_API_PUBLIC;
/**
 * @brief The number of waiters the barrier was made for.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_BARRIER barrier is ABT_BARRIER_NULL
 * @retval ABT_ERR_INV_ARG num_waiters is NULL
 * @undefined nothing.
 */
int ABT_barrier_get_num_waiters(ABT_barrier barrier, uint32_t *num_waiters) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup error_strings Error strings
 *
 * Writes the name of an error code ("ABT_ERR_MEM", ...) into str if str is
 * not NULL and its length into *len if len is not NULL; an unknown code
 * returns ABT_ERR_OTHER.
 * @{
 */
/**
 * @brief The name of an error code ("ABT_ERR_MEM", ...): copied to str and its length stored
 * in *len, each when not NULL.
 * @contexts any, also before ABT_init().
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_OTHER err is not an error code
 * @undefined a str buffer shorter than the name plus its terminating zero.
 */
int ABT_error_get_str(int err, char *str, size_t *len) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup timers Timers
 *
 * ABT_get_wtime() returns wall-clock time in seconds (double), usable without
 * initialising the runtime. Timer objects measure intervals: start, stop, and
 * read the last interval; stop_and_add adds it to *secs. dup copies a timer.
 * Routines return ABT_ERR_INV_TIMER for ABT_TIMER_NULL. get_overhead is
 * deprecated.
 * @{
 */
/**
 * @brief Wall-clock time in seconds, for measuring intervals.
 * @contexts any, also before ABT_init().
 * @return the time in seconds (this routine cannot fail and returns no error code).
 * @undefined nothing.
 */
double ABT_get_wtime(void) ABT_API_PUBLIC;
/**
 * @brief Create a timer.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newtimer is NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_timer_create(ABT_timer *newtimer) ABT_API_PUBLIC;
/**
 * @brief Create a copy of a timer (with its start and stop times).
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG newtimer is NULL
 * @retval ABT_ERR_INV_TIMER timer is ABT_TIMER_NULL
 * @retval ABT_ERR_MEM out of memory
 * @undefined nothing.
 */
int ABT_timer_dup(ABT_timer timer, ABT_timer *newtimer) ABT_API_PUBLIC;
/**
 * @brief Free a timer and reset the handle.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG timer is NULL
 * @retval ABT_ERR_INV_TIMER *timer is ABT_TIMER_NULL
 * @undefined nothing.
 */
int ABT_timer_free(ABT_timer *timer) ABT_API_PUBLIC;
/**
 * @brief Record the start time.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TIMER timer is ABT_TIMER_NULL
 * @undefined nothing.
 */
int ABT_timer_start(ABT_timer timer) ABT_API_PUBLIC;
/**
 * @brief Record the stop time.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TIMER timer is ABT_TIMER_NULL
 * @undefined nothing.
 */
int ABT_timer_stop(ABT_timer timer) ABT_API_PUBLIC;
/**
 * @brief The seconds between the last start and stop.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TIMER timer is ABT_TIMER_NULL
 * @retval ABT_ERR_INV_ARG secs is NULL
 * @undefined nothing.
 */
int ABT_timer_read(ABT_timer timer, double *secs) ABT_API_PUBLIC;
/**
 * @brief ABT_timer_stop() then ABT_timer_read().
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TIMER timer is ABT_TIMER_NULL
 * @retval ABT_ERR_INV_ARG secs is NULL
 * @undefined nothing.
 */
int ABT_timer_stop_and_read(ABT_timer timer, double *secs) ABT_API_PUBLIC;
/**
 * @brief ABT_timer_stop(), then add the interval to *secs.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_TIMER timer is ABT_TIMER_NULL
 * @retval ABT_ERR_INV_ARG secs is NULL
 * @undefined nothing.
 */
int ABT_timer_stop_and_add(ABT_timer timer, double *secs) ABT_API_PUBLIC;
/**
 * @brief Deprecated: the cost of a start/stop pair, in seconds.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG overhead is NULL
 * @undefined nothing.
 */
int ABT_timer_get_overhead(double *overhead) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup introspection Introspection
 *
 * query_config answers ABT_info_query_kind questions (ABT_ERR_INV_QUERY_KIND
 * for an unknown kind; see the enum for the type of *val). The print routines
 * write human-readable descriptions to fp and, in 1.x, return the usual
 * ABT_ERR_INV_* code for a NULL handle. print_thread_stacks_in_pool needs a
 * pool that can enumerate its ULTs (ABT_ERR_POOL otherwise).
 * trigger_print_all_thread_stacks asks every execution stream to dump its
 * ULTs' stacks at its next event check, waiting up to `timeout` seconds for
 * them to pause (no limit if negative); cb_func(timed_out, arg) runs
 * afterwards. print_task is deprecated.
 * @{
 */
/**
 * @brief Answer a configuration question; *val has the type given at ABT_info_query_kind.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG val is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_INV_QUERY_KIND query_kind is unknown
 * @undefined val pointing to an object of another type.
 * @differs LAZY_STACK_ALLOC and DYNAMIC_PROMOTION report ABT_TRUE.
 */
int ABT_info_query_config(ABT_info_query_kind query_kind, void *val) ABT_API_PUBLIC;
/**
 * @brief Print the runtime configuration to fp.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG fp is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @undefined nothing.
 * @differs the text is weft's own format (so for every ABT_info_print_* routine).
 */
int ABT_info_print_config(FILE *fp) ABT_API_PUBLIC;
/**
 * @brief Print every execution stream to fp.
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG fp is NULL
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @undefined nothing.
 */
int ABT_info_print_all_xstreams(FILE *fp) ABT_API_PUBLIC;
/**
 * @brief Print an execution stream to fp.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG fp is NULL
 * @retval ABT_ERR_INV_XSTREAM xstream is ABT_XSTREAM_NULL
 * @undefined a freed handle.
 */
int ABT_info_print_xstream(FILE *fp, ABT_xstream xstream) ABT_API_PUBLIC;
/**
 * @brief Print a scheduler to fp.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG fp is NULL
 * @retval ABT_ERR_INV_SCHED sched is ABT_SCHED_NULL
 * @undefined a freed handle.
 */
int ABT_info_print_sched(FILE *fp, ABT_sched sched) ABT_API_PUBLIC;
/**
 * @brief Print a pool to fp.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG fp is NULL
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @undefined a freed handle.
 */
int ABT_info_print_pool(FILE *fp, ABT_pool pool) ABT_API_PUBLIC;
/**
 * @brief Print a work unit to fp.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG fp is NULL
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @undefined a freed handle.
 */
int ABT_info_print_thread(FILE *fp, ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Print a ULT attribute to fp.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG fp is NULL
 * @retval ABT_ERR_INV_THREAD_ATTR attr is ABT_THREAD_ATTR_NULL
 * @undefined a freed handle.
 */
int ABT_info_print_thread_attr(FILE *fp, ABT_thread_attr attr) ABT_API_PUBLIC;
/**
 * @brief Deprecated: print a tasklet to fp.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG fp is NULL
 * @retval ABT_ERR_INV_TASK task is a NULL handle
 * @undefined a freed handle.
 */
int ABT_info_print_task(FILE *fp, ABT_task task) ABT_API_PUBLIC;
/**
 * @brief Print the stack of a ULT (a backtrace when available) to fp.
 * @contexts any; the ULT should not be running at that instant.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG fp is NULL
 * @retval ABT_ERR_INV_THREAD thread is ABT_THREAD_NULL
 * @undefined a ULT running on another stream meanwhile (the dump may be torn).
 */
int ABT_info_print_thread_stack(FILE *fp, ABT_thread thread) ABT_API_PUBLIC;
/**
 * @brief Print the stacks of all ULTs of a pool to fp.
 * @contexts any.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_INV_ARG fp is NULL
 * @retval ABT_ERR_INV_POOL pool is ABT_POOL_NULL
 * @retval ABT_ERR_POOL the pool cannot list its units
 * @undefined units popped concurrently.
 * @differs blocked and not yet started ULTs are listed too.
 */
int ABT_info_print_thread_stacks_in_pool(FILE *fp, ABT_pool pool) ABT_API_PUBLIC;
/**
 * @brief Ask every execution stream to pause at its next event check and dump its ULTs'
 * stacks to fp, waiting up to timeout seconds (negative: no limit); cb_func(timed_out,
 * arg) runs afterwards.
 * @contexts any (after ABT_init()); safe from a signal handler only as far as
 * pthread_mutex_trylock is.
 * @retval ABT_SUCCESS the request is registered
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @undefined nothing.
 * @differs blocked and not yet started ULTs are listed too.
 */
int ABT_info_trigger_print_all_thread_stacks(FILE *fp, double timeout,
                                             void (*cb_func)(ABT_bool, void *),
                                             void *arg) ABT_API_PUBLIC;

/** @} */

/**
 * @defgroup tool_interface Tool interface
 *
 * Lets performance tools observe ULT events. register_thread_callback
 * installs one callback for the events whose bits are set in event_mask (a
 * NULL callback unregisters it); inside the callback, query_thread extracts
 * details of the event through its ABT_tool_context. The interface is off by
 * default, as in an Argobots built without --enable-tool: both then return
 * ABT_ERR_FEATURE_NA and ABT_INFO_QUERY_KIND_ENABLED_TOOL is ABT_FALSE. It is
 * on when the environment variable WEFT_ENABLE_TOOL is 1 at ABT_init() (or the
 * library was built with -DWEFT_ENABLE_TOOL=ON and WEFT_ENABLE_TOOL is not 0),
 * never with -DWEFT_TOOL=OFF. query_thread returns ABT_ERR_INV_ARG for a query
 * that does not apply to the event.
 * @{
 */
/**
 * @brief Install cb_func for the events set in event_mask (NULL or an empty mask removes it).
 * @contexts any (after ABT_init()).
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_UNINITIALIZED the runtime is not running
 * @retval ABT_ERR_FEATURE_NA the tool interface is off (the default: WEFT_ENABLE_TOOL)
 * @undefined a callback that blocks or calls back into the runtime (other than
 * ABT_tool_query_thread() and queries).
 */
int ABT_tool_register_thread_callback(ABT_tool_thread_callback_fn cb_func, uint64_t event_mask,
                                      void *user_arg) ABT_API_PUBLIC;
/**
 * @brief Inside a tool callback, a detail of the event (see ABT_tool_query_kind).
 * @contexts a tool callback, with the context it received.
 * @retval ABT_SUCCESS
 * @retval ABT_ERR_FEATURE_NA the tool interface is off (checked first)
 * @retval ABT_ERR_INV_TOOL_CONTEXT context is NULL or ABT_TOOL_CONTEXT_NULL
 * @retval ABT_ERR_INV_ARG val is NULL, or the query does not apply to the event
 * @undefined using a context after its callback returned.
 */
int ABT_tool_query_thread(ABT_tool_context context, uint64_t event, ABT_tool_query_kind query_kind,
                          void *val) ABT_API_PUBLIC;

/** @} */

#if defined(__cplusplus)
}
#endif

#endif /* ABT_H_INCLUDED */
