/* src/core/tool/trace_buf.h - what the parts of the tracer share (trace.c: start and end,
 * trace_record.c: the recording side, trace_write.c: the writer's side): the record
 * format, the chunks, a stream's buffer and the tracer's state.  The model is in
 * trace.c; core/tool/trace.h is what the rest of core calls. */
#ifndef WEFT_CORE_TOOL_TRACE_BUF_H
#define WEFT_CORE_TOOL_TRACE_BUF_H

#include <pthread.h>
#include <sys/types.h>

#include "core/tool/tool.h"
#include "core/tool/trace.h"

enum rec_kind { R_CREATE, R_RUN, R_END, R_RESUME, R_MIGRATE, R_CANCEL, R_COUNTER, R_RUN_AT };
/* Why a run ended: bits 7-8 of the switch's events as they are (weft_trace_switch). */
enum end_why { END_FINISH, END_YIELD, END_BLOCK };
_Static_assert(ABT_TOOL_EVENT_THREAD_YIELD >> 7 == END_YIELD &&
                   ABT_TOOL_EVENT_THREAD_SUSPEND >> 7 == END_BLOCK,
               "a switch's end reason is (evs >> 7) & 3");
/* A run's flags; MAIN and SCHED are the unit's own flag bits, RESUMED the RESUME event's
 * bit shifted by 4, so that run_flags and weft_trace_switch copy them without tests. */
enum run_flag {
    RUN_FIRST = 1,
    RUN_STEAL = 2,
    RUN_MAIN = 4,
    RUN_TASKLET = 8,
    RUN_SCHED = 16,
    RUN_RESUMED = 32 /* a RESUME of the same step folded in: "resume" then the run */
};
_Static_assert((unsigned)RUN_MAIN == (unsigned)WEFT_U_MAIN &&
                   (unsigned)RUN_SCHED == (unsigned)WEFT_U_SCHED &&
                   (unsigned)RUN_TASKLET == (unsigned)WEFT_U_ULT << 3 &&
                   RUN_RESUMED == ABT_TOOL_EVENT_THREAD_RESUME >> 4,
               "run flags are copied from unit flags and events");

/* One event, 16 bytes: the time stamp (weft_ticks()) and one word with the unit's id + 1
 * (its id field as it is; a pool's id + 1 for R_COUNTER), an 8-bit argument (run flags,
 * end reason) and the kind.  R_RUN (except the primary ULT's and a scheduler's, whose
 * names are fixed), R_MIGRATE and R_COUNTER take a second slot whose `ts` holds their
 * value: the unit's function, the target pool's id, the pool's size.  R_RUN_AT is a run
 * at the time of the record before it, one slot whose `ts` holds the function (the
 * writer ignores it for a fixed name): the second half of a switch (weft_trace_switch),
 * 32 bytes for an END and a RUN instead of 48.  Ids use 52 bits (4.5e15 units: an id
 * counter does not get there). */
struct rec {
    uint64_t ts;
    uint64_t w;
};
#define REC_W(id, aux, kind) ((uint64_t)(id) << 12 | (uint64_t)(aux) << 4 | (uint64_t)(kind))
#define REC_KIND(w)          ((uint32_t)((w)&0xf))
#define REC_AUX(w)           ((uint32_t)((w) >> 4 & 0xff))
#define REC_ID(w)            (((w) >> 12) - 1)

/* Does a run record carry the unit's function (a second slot)? */
static inline bool run_named(uint32_t aux) { return !(aux & (RUN_MAIN | RUN_SCHED)); }

static inline uint32_t rec_slots(uint32_t kind, uint32_t aux)
{
    if (kind == R_RUN)
        return run_named(aux) ? 2 : 1;
    return kind == R_MIGRATE || kind == R_COUNTER ? 2 : 1;
}

#define CHUNK_BYTES  ((size_t)2 << 20)
#define CHUNK_RECS   ((CHUNK_BYTES - 64) / sizeof(struct rec))
#define MAX_QUEUED   128  /* 256 MiB waiting for the writer: the filler writes itself */
#define MAX_SPARE    8    /* chunks kept for reuse */
#define SPARE_AHEAD  4    /* chunks the writer maps ahead of need */
#define SAMPLE_SLOTS 256  /* pool sizes every this many record slots on a stream */
#define FMT_SLICE    4096 /* slots the writer formats between two looks at its spares */
#define EXT_TID      999999
#define OUT_CAP      (1u << 20)
#define TRACE_EVENTS                                                                             \
    (ABT_TOOL_EVENT_THREAD_CREATE | ABT_TOOL_EVENT_THREAD_REVIVE | ABT_TOOL_EVENT_THREAD_RUN |   \
     ABT_TOOL_EVENT_THREAD_FINISH | ABT_TOOL_EVENT_THREAD_CANCEL | ABT_TOOL_EVENT_THREAD_YIELD | \
     ABT_TOOL_EVENT_THREAD_SUSPEND | ABT_TOOL_EVENT_THREAD_RESUME | WEFT_TOOL_EVENT_MIGRATE)

struct chunk {
    struct chunk *next; /* queue or spare list (qlock) */
    struct weft_trace_buf *buf;
    uint32_t n; /* records in use, set when queued */
    struct rec r[CHUNK_RECS];
};

/* The phases ("ph") of the events written, each with its own header per track. */
enum ph_ix { PH_I, PH_B, PH_E, PH_S, PH_F, PH_C, PH_N };

struct weft_trace_buf {
    /* recording: the stream of this rank (external buffer: under ext_lock) */
    struct rec *pos, *end; /* free part of `cur` (both NULL: no chunk) */
    struct rec *lim;       /* pos <= lim <= end: the fast paths stop here; below end, the
                            * pools' sizes are due (sample_pools) */
    struct chunk *cur;
    uint64_t id_next, id_end;  /* unit ids taken from weft_g.next_unit_id in blocks */
    uint64_t last_ts;          /* time stamp of its last record (same-time events) */
    _Atomic(weft_pool *) home; /* first pool of the stream's main scheduler (steals) */
    weft_sched *home_of;       /* the main scheduler `home` was read from */
    int tid;
    bool external;
    /* writing: under fmt_lock.  A cache line of its own: the stream reads home_of on
     * every switch, and a writer that stores nopen and last_ns in the same line took
     * that line from it once per formatted event (1 stream, 10^6 ULTs: 56 -> 50 ms) */
    _Alignas(64) uint64_t *open; /* ids of the runs begun and not ended, innermost last */
    size_t nopen, capopen;
    uint64_t last_ns;
    bool used; /* some event of it was written */
    /* `,\n{"ph":"P","pid":..,"tid":..,"ts":` of its events, one per phase (enum ph_ix),
     * padded: copied 64 bytes at a time, the cursor advanced by hdlen */
    char hd[PH_N][64];
    uint8_t hdlen[PH_N];
    _Atomic(struct weft_trace_buf *) next; /* registry, appended under reg_lock */
};

/* A unit function's name, resolved once (the writer's name table). */
struct name {
    const void *fn;
    char *s; /* JSON-escaped */
    size_t len;
};

/* Line-aligned, the writer's part on lines of its own: what the writer stores for every
 * event shares no cache line with what a stream reads. */
struct weft_trace_state {
    _Alignas(64) bool on;
    int fd;
    char *path;
    pid_t pid;
    uint64_t tick0;
    double ns_per_tick;
    pthread_mutex_t reg_lock;
    _Atomic(struct weft_trace_buf *) bufs;
    pthread_mutex_t ext_lock;
    struct weft_trace_buf *ext;
    /* the writer's queue */
    pthread_mutex_t qlock;
    pthread_cond_t qcond; /* the writer waits for a queued chunk */
    pthread_cond_t mcond; /* the mapper waits for a spare taken */
    struct chunk *qhead, *qtail, *spare;
    size_t qlen, nspare;
    bool stop, writer_started;
    pthread_t writer, mapper;
    int want_cpu;             /* the CPU of the stream that took the last spare (-1: none) */
    _Atomic uint64_t dropped; /* events lost for want of memory */
    /* the output: under fmt_lock */
    _Alignas(64) pthread_mutex_t fmt_lock;
    struct chunk *fcur; /* the chunk being formatted (dequeued), from slot fpos */
    uint32_t fpos;
    char *out;
    size_t outlen;
    int write_err; /* errno of the first failed write */
    uint64_t nevents;
    struct name *names;
    size_t names_cap, names_n;
    const struct name *last_name; /* the name looked up last: runs of one function repeat */
};

extern WEFT_INTERNAL struct weft_trace_state weft_trace_g;

/* ---- the writer's side (trace_write.c) ---- */
/* A chunk, mapped with its pages in (NULL without memory); unmapped by chunk_free. */
WEFT_INTERNAL struct chunk *weft_trace_chunk_new(void);
WEFT_INTERNAL void weft_trace_chunk_free(struct chunk *c);
/* Queue a full chunk for the writer (qlock held). */
WEFT_INTERNAL void weft_trace_enqueue(struct chunk *c);
/* Format every queued chunk, in queue order, and write the result (takes fmt_lock). */
WEFT_INTERNAL void weft_trace_drain(void);
/* The writer thread (SCHED_IDLE) and the mapper thread (chunks mapped ahead). */
WEFT_INTERNAL void *weft_trace_writer_main(void *arg);
WEFT_INTERNAL void *weft_trace_mapper_main(void *arg);
WEFT_INTERNAL void weft_trace_write_head(void);
WEFT_INTERNAL void weft_trace_write_tail(uint64_t end_ticks);

/* ---- the recording side (trace_record.c) ---- */
/* A buffer for track `tid`, linked into the registry (reg_lock held, or no stream runs);
 * NULL without memory. */
WEFT_INTERNAL struct weft_trace_buf *weft_trace_buf_new(int tid, bool external);
/* What each event records (weft_trace_init, before recording starts). */
WEFT_INTERNAL void weft_trace_events_init(void);

#endif
