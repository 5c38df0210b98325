/* src/core/tool/trace.c - WEFT_TRACE=<file>: a Chrome/Perfetto trace (JSON trace-event format).
 *
 * Model.  The tracer hears the tool interface's events (core/tool/tool.h) and keeps them as
 * 16-byte binary records; JSON is made later, away from the hot paths.
 *   recording   each stream appends to its own buffer (xs->trace, one per rank), a chain
 *               of 2 MiB chunks: a record is a tick read (weft_ticks; events of one step
 *               share the first one's), a few stores and a bounds test, with no lock and
 *               no atomic.  The two commonest cases have their own entries: a switch (one
 *               unit leaves, another runs: weft_trace_switch, 32 bytes) and a creation
 *               (weft_trace_create, 16 bytes); weft_trace_record takes any event.
 *               External threads share one buffer under a mutex.  A full chunk goes to
 *               the writer's queue (one mutex per 65,000 records).
 *   mapping     a mapper thread, at the program's priority, keeps SPARE_AHEAD chunks
 *               mapped ahead (a stream that finds none maps one itself, a stall of
 *               ~0.5-1 ms).
 *   writing     a writer thread (SCHED_IDLE: only CPU time the streams leave) turns
 *               queued chunks into JSON, in slices, and appends it to the file;
 *               function names are resolved there (dladdr, then the module's ELF symbol
 *               table for static functions), once per function.  When more than
 *               MAX_QUEUED chunks wait, the stream that fills one formats the queue
 *               itself (back-pressure rather than unbounded memory).  ABT_finalize stops
 *               the writer and writes the partial chunks and the closing events.
 *   output      one track per stream (pid = the process, tid = the rank, thread_name
 *               metadata) and one for external threads; per unit run a B/E pair named
 *               after its function with its id (ABT_thread_get_id's) in args; instants
 *               create, yield, block (suspend), resume, migrate, steal, cancel; a flow
 *               arrow ("s" at create, "f" at the first run); counters "pool <id> size"
 *               sampled at a stream's first event, then every SAMPLE_SLOTS record slots.
 * Rejected: formatting JSON on the streams (hundreds of bytes per unit run on the hot
 * path); one shared buffer with an atomic cursor (a contended cache line per event);
 * resolving names at record time (dladdr takes a lock and walks the link maps).
 *
 * Who owns what: a buffer's recording fields belong to the stream of its rank (one stream
 * at a time: a rank is reused only after its previous stream was joined); the external
 * buffer's to whoever holds ext_lock; each buffer's writer fields (open spans, last time
 * stamp), the output buffer and the name table to whoever holds fmt_lock; the queue and
 * the spare chunks to qlock. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/pool/pool.h"
#include "core/runtime.h"
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
static const char ph_char[PH_N] = { 'i', 'B', 'E', 's', 'f', 'C' };

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

struct name {
    const void *fn;
    char *s; /* JSON-escaped */
    size_t len;
};

/* Line-aligned, the writer's part on lines of its own: what the writer stores for every
 * event shares no cache line with what a stream reads. */
static struct {
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
} T = { .fd = -1,
        .reg_lock = PTHREAD_MUTEX_INITIALIZER,
        .ext_lock = PTHREAD_MUTEX_INITIALIZER,
        .qlock = PTHREAD_MUTEX_INITIALIZER,
        .qcond = PTHREAD_COND_INITIALIZER,
        .mcond = PTHREAD_COND_INITIALIZER,
        .fmt_lock = PTHREAD_MUTEX_INITIALIZER,
        .want_cpu = -1 };

/* ---------------------------------------------------------------- the writer's side */

/* A chunk mapped with its pages faulted in at once (MAP_POPULATE: one call instead of
 * 512 page faults while a stream records).  Not a transparent huge page: with the usual
 * defrag=madvise policy a fault may compact memory synchronously, a stall of
 * milliseconds inside whatever unit runs.  The mapper keeps SPARE_AHEAD chunks ready
 * (mapper_main), so a stream seldom maps one itself. */
static struct chunk *chunk_new(void)
{
    _Static_assert(sizeof(struct chunk) <= CHUNK_BYTES, "a chunk fits its mapping");
    void *p = mmap(NULL, CHUNK_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void chunk_free(struct chunk *c)
{
    if (c)
        munmap(c, CHUNK_BYTES);
}

static void out_flush(void)
{
    size_t done = 0;
    while (done < T.outlen && !T.write_err) {
        ssize_t w = write(T.fd, T.out + done, T.outlen - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            T.write_err = errno;
            break;
        }
        done += (size_t)w;
    }
    T.outlen = 0;
}

/* The formatting helpers write at a cursor the caller keeps in a local variable (a store
 * through T.out could alias T.outlen otherwise, and every byte would reload it); each
 * event makes room for itself first (out_begin: at least 256 bytes, so that the helpers
 * may copy fixed-size blocks past what they keep) and commits its cursor (out_end).  The
 * file's first event is written at ABT_init, so every later one starts with its comma. */
static inline char *out_begin(size_t n)
{
    if (T.outlen + n > OUT_CAP)
        out_flush();
    return T.out + T.outlen;
}

static inline void out_end(char *p) { T.outlen = (size_t)(p - T.out); }

static inline char *put_mem(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}
#define PUT_LIT(p, s) put_mem((p), (s), sizeof(s) - 1)

static inline char *put_str(char *p, const char *s) { return put_mem(p, s, strlen(s)); }

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

/* decimal, two digits per step, the result copied as one 20-byte block */
static inline char *put_u64(char *p, uint64_t v)
{
    char tmp[40];
    char *end = tmp + 20, *q = end;
    while (v > UINT32_MAX) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        q -= 2;
        memcpy(q, digit_pairs + 2 * r, 2);
    }
    uint32_t w = (uint32_t)v; /* the usual case: 32-bit divisions */
    while (w >= 100) {
        unsigned r = w % 100;
        w /= 100;
        q -= 2;
        memcpy(q, digit_pairs + 2 * r, 2);
    }
    v = w;
    if (v >= 10) {
        q -= 2;
        memcpy(q, digit_pairs + 2 * v, 2);
    } else {
        *--q = (char)('0' + v);
    }
    memcpy(p, q, 20);
    return p + (end - q);
}

static inline char *put_i64(char *p, int64_t v)
{
    if (v < 0) {
        *p++ = '-';
        return put_u64(p, (uint64_t)-v);
    }
    return put_u64(p, (uint64_t)v);
}

/* microseconds with three decimals: the format's unit, nanosecond resolution */
static inline char *put_ts(char *p, uint64_t ns)
{
    p = put_u64(p, ns / 1000);
    unsigned f = (unsigned)(ns % 1000);
    p[0] = '.';
    p[1] = (char)('0' + f / 100);
    memcpy(p + 2, digit_pairs + 2 * (f % 100), 2);
    return p + 4;
}

/* A number formatted once and written by several events (a record's time stamp and
 * unit id; consecutive records of one step share the time stamp too). */
struct num {
    char s[32];
    size_t n;
};

static inline void num_ts(struct num *f, uint64_t ns) { f->n = (size_t)(put_ts(f->s, ns) - f->s); }

static inline void num_u64(struct num *f, uint64_t v) { f->n = (size_t)(put_u64(f->s, v) - f->s); }

static inline char *put_num(char *p, const struct num *f)
{
    memcpy(p, f->s, 24); /* at most 21 characters: one fixed-size copy */
    return p + f->n;
}

/* `,\n{"ph":"P","pid":..,"tid":..,"ts":..` with room for 320 bytes plus `extra` */
static inline char *ev_head(struct weft_trace_buf *b, enum ph_ix ph, const struct num *ts,
                            size_t extra)
{
    char *p = out_begin(320 + extra);
    T.nevents++;
    memcpy(p, b->hd[ph], 64);
    return put_num(p + b->hdlen[ph], ts);
}

static char *json_escape(const char *s)
{
    size_t n = strlen(s);
    char *o = malloc(6 * n + 1), *p = o;
    if (!o)
        return NULL;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            *p++ = '\\';
            *p++ = (char)c;
        } else if (c < 0x20) {
            p += sprintf(p, "\\u%04x", c);
        } else {
            *p++ = (char)c;
        }
    }
    *p = 0;
    return o;
}

/* The function of a module's ELF symbol table (.symtab, so static functions too) that
 * covers offset `off` from the module's load base `base`; false when the file has no
 * such table (stripped) or cannot be read. */
static bool elf_lookup(const char *file, uintptr_t base, uintptr_t addr, char *buf, size_t len)
{
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool found = false;
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = NULL;
    char *str = NULL;
    Elf64_Sym *sym = NULL;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shnum == 0 || eh.e_shnum > 4096)
        goto done;
    sh = malloc((size_t)eh.e_shnum * sizeof *sh);
    if (!sh || pread(fd, sh, (size_t)eh.e_shnum * sizeof *sh, (off_t)eh.e_shoff) !=
                   (ssize_t)((size_t)eh.e_shnum * sizeof *sh))
        goto done;
    uintptr_t key = eh.e_type == ET_DYN ? addr - base : addr;
    for (int i = 0; i < eh.e_shnum && !found; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh.e_shnum ||
            sh[i].sh_entsize != sizeof(Elf64_Sym) || sh[i].sh_size > ((size_t)256 << 20))
            continue;
        const Elf64_Shdr *ss = &sh[sh[i].sh_link];
        if (ss->sh_size > ((size_t)256 << 20))
            continue;
        sym = malloc(sh[i].sh_size);
        str = malloc(ss->sh_size + 1);
        if (!sym || !str ||
            pread(fd, sym, sh[i].sh_size, (off_t)sh[i].sh_offset) != (ssize_t)sh[i].sh_size ||
            pread(fd, str, ss->sh_size, (off_t)ss->sh_offset) != (ssize_t)ss->sh_size)
            goto done;
        str[ss->sh_size] = 0;
        size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t k = 0; k < n; k++) {
            if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || sym[k].st_name >= ss->sh_size)
                continue;
            uintptr_t lo = sym[k].st_value, hi = lo + (sym[k].st_size ? sym[k].st_size : 1);
            if (key >= lo && key < hi) {
                if (key == lo)
                    snprintf(buf, len, "%s", str + sym[k].st_name);
                else
                    snprintf(buf, len, "%s+0x%lx", str + sym[k].st_name, (unsigned long)(key - lo));
                found = true;
                break;
            }
        }
        free(sym);
        free(str);
        sym = NULL;
        str = NULL;
    }
done:
    free(sym);
    free(str);
    free(sh);
    close(fd);
    return found;
}

/* Does dladdr's module name (the path the program was started by, for the program
 * itself: perhaps relative to a directory it has left) name the running program? */
static bool is_main_program(const char *fname)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = 0;
    const char *a = strrchr(exe, '/'), *b = strrchr(fname, '/');
    return strcmp(a ? a + 1 : exe, b ? b + 1 : fname) == 0;
}

static char *resolve(const void *fn)
{
    char buf[512];
    Dl_info di;
    if (dladdr(fn, &di) && di.dli_fname) {
        uintptr_t base = (uintptr_t)di.dli_fbase;
        if (di.dli_sname && di.dli_saddr == fn)
            snprintf(buf, sizeof buf, "%s", di.dli_sname);
        else if (!elf_lookup(di.dli_fname[0] ? di.dli_fname : "/proc/self/exe", base, (uintptr_t)fn,
                             buf, sizeof buf) &&
                 !(is_main_program(di.dli_fname) &&
                   elf_lookup("/proc/self/exe", base, (uintptr_t)fn, buf, sizeof buf))) {
            const char *m = strrchr(di.dli_fname, '/');
            m = m ? m + 1 : di.dli_fname;
            snprintf(buf, sizeof buf, "%s+0x%lx", *m ? m : "?",
                     (unsigned long)((uintptr_t)fn - base));
        }
    } else {
        snprintf(buf, sizeof buf, "%p", fn);
    }
    return json_escape(buf);
}

static const struct name name_unknown = { NULL, "?", 1 }, name_main = { NULL, "main ULT", 8 },
                         name_sched = { NULL, "scheduler ULT", 13 },
                         name_unit = { NULL, "unit", 4 };

/* The JSON-escaped name of a unit function, resolved once (fmt_lock held). */
static const struct name *name_of(const void *fn)
{
    if (T.last_name && T.last_name->fn == fn)
        return T.last_name;
    if (T.names_n * 2 >= T.names_cap) {
        size_t cap = T.names_cap ? 2 * T.names_cap : 64;
        struct name *t = calloc(cap, sizeof *t);
        if (!t)
            return &name_unknown;
        for (size_t i = 0; i < T.names_cap; i++) {
            if (!T.names[i].s)
                continue;
            size_t h = ((uintptr_t)T.names[i].fn >> 4) * 0x9e3779b97f4a7c15ull >> 20;
            while (t[h & (cap - 1)].s)
                h++;
            t[h & (cap - 1)] = T.names[i];
        }
        free(T.names);
        T.names = t;
        T.names_cap = cap;
        T.last_name = NULL;
    }
    size_t h = ((uintptr_t)fn >> 4) * 0x9e3779b97f4a7c15ull >> 20;
    for (;; h++) {
        struct name *e = &T.names[h & (T.names_cap - 1)];
        if (e->s && e->fn == fn)
            return T.last_name = e;
        if (!e->s) {
            char *s = resolve(fn);
            if (!s)
                return &name_unknown;
            e->fn = fn;
            e->s = s;
            e->len = strlen(s);
            T.names_n++;
            return T.last_name = e;
        }
    }
}

static const struct name *unit_name(uint32_t flags, const void *fn)
{
    if (flags & RUN_MAIN)
        return &name_main;
    if (flags & RUN_SCHED)
        return &name_sched;
    if (!fn)
        return &name_unit;
    return name_of(fn);
}

static inline uint64_t to_ns(uint64_t ticks)
{
    return ticks > T.tick0 ? (uint64_t)((double)(ticks - T.tick0) * T.ns_per_tick) : 0;
}

/* an instant (thread scope) named by a string literal */
#define INSTANT(b, ts, what, id)                                                  \
    do {                                                                          \
        char *p_ = ev_head((b), PH_I, (ts), 0);                                   \
        p_ = PUT_LIT(p_, ",\"s\":\"t\",\"name\":\"" what "\",\"args\":{\"id\":"); \
        p_ = put_num(p_, (id));                                                   \
        out_end(PUT_LIT(p_, "}}"));                                               \
    } while (0)

static void span_end(struct weft_trace_buf *b, const struct num *ts, const struct num *id)
{
    char *p = ev_head(b, PH_E, ts, 0);
    p = PUT_LIT(p, ",\"args\":{\"id\":");
    p = put_num(p, id);
    out_end(PUT_LIT(p, "}}"));
    /* honest output: an end that does not match the innermost run is written as it
     * came (tests/trace/check_trace.py flags it) */
    if (b->nopen)
        b->nopen--;
}

static void span_begin(struct weft_trace_buf *b, const struct num *ts, const struct num *idn,
                       uint64_t id, uint32_t flags, const void *fn)
{
    const struct name *nm = unit_name(flags, fn);
    char *p = ev_head(b, PH_B, ts, nm->len);
    p = PUT_LIT(p, ",\"name\":\"");
    p = put_mem(p, nm->s, nm->len);
    p = PUT_LIT(p, "\",\"args\":{\"id\":");
    p = put_num(p, idn);
    p = PUT_LIT(p, "}}");
    if ((flags & (RUN_FIRST | RUN_MAIN)) == RUN_FIRST) { /* the arrow from its creation */
        T.nevents++;
        memcpy(p, b->hd[PH_F], 64);
        p = put_num(p + b->hdlen[PH_F], ts);
        p = PUT_LIT(p, ",\"bp\":\"e\",\"name\":\"run\",\"cat\":\"flow\",\"id\":");
        p = put_num(p, idn);
        p = PUT_LIT(p, "}");
    }
    out_end(p);
    if (WEFT_UNLIKELY(b->nopen == b->capopen)) {
        size_t cap = b->capopen ? 2 * b->capopen : 16;
        uint64_t *o = realloc(b->open, cap * sizeof *o);
        if (o) {
            b->open = o;
            b->capopen = cap;
        }
    }
    if (b->nopen < b->capopen)
        b->open[b->nopen++] = id;
}

/* The records of c from slot `from` up to slot `to` (or the first record boundary past
 * it); returns where it stopped. */
static uint32_t format_chunk(struct chunk *c, uint32_t from, uint32_t to)
{
    struct weft_trace_buf *b = c->buf;
    struct num ts, idn, v;
    char *p;
    uint64_t ts_of = UINT64_MAX; /* the ns that `ts` holds */
    uint32_t i;
    b->used |= c->n > 0;
    if (to > c->n)
        to = c->n;
    for (i = from; i < to; i += rec_slots(REC_KIND(c->r[i].w), REC_AUX(c->r[i].w))) {
        const struct rec *r = &c->r[i];
        uint32_t kind = REC_KIND(r->w), aux = REC_AUX(r->w);
        uint64_t ns = kind == R_RUN_AT ? b->last_ns : to_ns(r->ts), id = REC_ID(r->w);
        if (ns < b->last_ns) /* one track, one clock: never backwards */
            ns = b->last_ns;
        b->last_ns = ns;
        if (ns != ts_of) {
            num_ts(&ts, ns);
            ts_of = ns;
        }
        num_u64(&idn, id);
        switch (kind) {
        case R_CREATE:
            INSTANT(b, &ts, "create", &idn);
            p = ev_head(b, PH_S, &ts, 0);
            p = PUT_LIT(p, ",\"name\":\"run\",\"cat\":\"flow\",\"id\":");
            p = put_num(p, &idn);
            out_end(PUT_LIT(p, "}"));
            break;
        case R_RUN:
        case R_RUN_AT:
            if (aux & RUN_RESUMED)
                INSTANT(b, &ts, "resume", &idn);
            if (aux & RUN_STEAL)
                INSTANT(b, &ts, "steal", &idn);
            span_begin(b, &ts, &idn, id, aux,
                       !run_named(aux)    ? NULL
                       : kind == R_RUN_AT ? (const void *)(uintptr_t)r[0].ts
                                          : (const void *)(uintptr_t)r[1].ts);
            break;
        case R_END:
            if (aux == END_YIELD)
                INSTANT(b, &ts, "yield", &idn);
            else if (aux == END_BLOCK)
                INSTANT(b, &ts, "block", &idn);
            span_end(b, &ts, &idn);
            break;
        case R_RESUME: INSTANT(b, &ts, "resume", &idn); break;
        case R_CANCEL: INSTANT(b, &ts, "cancel", &idn); break;
        case R_MIGRATE:
            p = ev_head(b, PH_I, &ts, 0);
            p = PUT_LIT(p, ",\"s\":\"t\",\"name\":\"migrate\",\"args\":{\"id\":");
            p = put_num(p, &idn);
            p = PUT_LIT(p, ",\"pool\":");
            num_u64(&v, r[1].ts);
            p = put_num(p, &v);
            out_end(PUT_LIT(p, "}}"));
            break;
        case R_COUNTER:
            p = ev_head(b, PH_C, &ts, 0);
            p = PUT_LIT(p, ",\"name\":\"pool ");
            p = put_num(p, &idn);
            p = PUT_LIT(p, " size\",\"args\":{\"size\":");
            num_u64(&v, r[1].ts);
            p = put_num(p, &v);
            out_end(PUT_LIT(p, "}}"));
            break;
        }
    }
    return i;
}

/* Format the next FMT_SLICE slots or so of the oldest queued chunk (a stream's chunks
 * are queued in the order it filled them; the chunk begun is finished first, by
 * whoever formats next), and when it is done keep it as a spare or unmap it; false when
 * there is nothing to format.  In slices (a whole chunk takes ~10 ms), so that the
 * writer, at SCHED_IDLE, lets go of fmt_lock often and stops soon when ABT_finalize
 * asks.  fmt_lock held. */
static bool format_next(void)
{
    struct chunk *c = T.fcur;
    if (!c) {
        pthread_mutex_lock(&T.qlock);
        c = T.qhead;
        if (c) {
            T.qhead = c->next;
            if (!T.qhead)
                T.qtail = NULL;
            T.qlen--;
        }
        pthread_mutex_unlock(&T.qlock);
        if (!c)
            return false;
        T.fcur = c;
        T.fpos = 0;
    }
    T.fpos = format_chunk(c, T.fpos, T.fpos + FMT_SLICE);
    if (T.fpos < c->n)
        return true;
    T.fcur = NULL;
    pthread_mutex_lock(&T.qlock);
    if (T.nspare < MAX_SPARE) {
        c->next = T.spare;
        T.spare = c;
        T.nspare++;
        c = NULL;
    }
    pthread_mutex_unlock(&T.qlock);
    chunk_free(c);
    return true;
}

/* Format every queued chunk, in queue order, and write the result. */
static void drain(void)
{
    pthread_mutex_lock(&T.fmt_lock);
    while (format_next())
        ;
    out_flush();
    pthread_mutex_unlock(&T.fmt_lock);
}

static void *writer_main(void *arg)
{
    (void)arg;
    /* the writer takes only CPU time the streams leave idle (SCHED_IDLE): it must not
     * slow the program it traces; what it has not written when ABT_finalize comes is
     * written there, and a backlog past MAX_QUEUED chunks by the streams that fill them */
    struct sched_param sp = { 0 };
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
    pthread_setname_np(pthread_self(), "weft-trace-out"); /* as top -H and gdb show it */
    pthread_mutex_lock(&T.qlock);
    while (!T.stop) {
        if (!T.qhead) {
            pthread_cond_wait(&T.qcond, &T.qlock);
            continue;
        }
        pthread_mutex_unlock(&T.qlock);
        pthread_mutex_lock(&T.fmt_lock);
        format_next(); /* the output goes to the file as it fills (out_begin) */
        pthread_mutex_unlock(&T.fmt_lock);
        pthread_mutex_lock(&T.qlock);
    }
    pthread_mutex_unlock(&T.qlock);
    pthread_mutex_lock(&T.fmt_lock);
    out_flush();
    pthread_mutex_unlock(&T.fmt_lock);
    return NULL;
}

/* Keep the mapper off `cpu`, the CPU of the stream that asked for the next chunk: a
 * thread woken by another is commonly placed on its waker's CPU, and mapping a chunk
 * (zeroing 2 MiB, 0.1-0.3 ms) there preempts the stream that asked.  Within the CPUs
 * the mapper inherited (`base`, the process's set: it starts before any binding); a
 * set of one CPU, or a failed call, leaves it where it is. */
static void mapper_avoid(const cpu_set_t *base, int cpu, int *avoided)
{
    if (cpu == *avoided || cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, base) ||
        CPU_COUNT(base) < 2)
        return;
    cpu_set_t s = *base;
    CPU_CLR(cpu, &s);
    if (sched_setaffinity(0, sizeof s, &s) == 0)
        *avoided = cpu;
}

/* The mapper keeps SPARE_AHEAD chunks mapped ahead of the streams' need, at the
 * program's own priority (the one it inherited), not the writer's SCHED_IDLE: a stream
 * that needs a chunk and finds none maps it itself, a stall of 512 page faults (0.5-1 ms
 * on a VM, more than recording the ~26,000 ULTs that fill it), so mapping is the
 * program's work, done early, on another CPU than the stream's (mapper_avoid);
 * formatting is not (ABT_finalize does what is left).  A thread of its own because a
 * thread cannot raise its priority back from SCHED_IDLE without privilege. */
static void *mapper_main(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "weft-trace-map");
    cpu_set_t base;
    bool can_avoid = sched_getaffinity(0, sizeof base, &base) == 0;
    int avoided = -1;
    pthread_mutex_lock(&T.qlock);
    while (!T.stop) {
        if (T.nspare >= SPARE_AHEAD) {
            pthread_cond_wait(&T.mcond, &T.qlock);
            continue;
        }
        int want = T.want_cpu;
        pthread_mutex_unlock(&T.qlock);
        if (can_avoid)
            mapper_avoid(&base, want, &avoided);
        struct chunk *c = chunk_new();
        pthread_mutex_lock(&T.qlock);
        if (!c) {
            pthread_cond_wait(&T.mcond, &T.qlock); /* no memory now: try at the next need */
            continue;
        }
        c->next = T.spare;
        T.spare = c;
        T.nspare++;
    }
    pthread_mutex_unlock(&T.qlock);
    return NULL;
}

/* qlock held */
static void enqueue(struct chunk *c)
{
    c->next = NULL;
    if (T.qtail)
        T.qtail->next = c;
    else
        T.qhead = c;
    T.qtail = c;
    T.qlen++;
}

/* ---------------------------------------------------------------- the recording side */

/* The buffer's chunk is full (or it has none): queue it, take a fresh one.  NULL when no
 * memory is left (the event is dropped and counted). */
static WEFT_COLD struct rec *refill(struct weft_trace_buf *b)
{
    struct chunk *c = b->cur, *n;
    bool help = false;
    pthread_mutex_lock(&T.qlock);
    if (c) {
        c->n = (uint32_t)(b->pos - c->r);
        enqueue(c);
        help = T.qlen > MAX_QUEUED;
        pthread_cond_signal(&T.qcond);
    }
    n = T.spare;
    if (n) {
        T.spare = n->next;
        T.nspare--;
    }
    T.want_cpu = sched_getcpu();   /* the mapper keeps off this CPU */
    pthread_cond_signal(&T.mcond); /* map the next one ahead */
    pthread_mutex_unlock(&T.qlock);
    if (help)
        drain(); /* the writer is behind: this stream formats the backlog itself */
    if (!n)
        n = chunk_new();
    b->cur = n;
    if (!n) {
        b->pos = b->lim = b->end = NULL;
        weft_atomic_fetch_add_relaxed(&T.dropped, 1);
        return NULL;
    }
    n->buf = b;
    b->pos = n->r;
    b->end = n->r + CHUNK_RECS;
    /* the buffer's first chunk samples the pools at its next event: a short run still
     * shows them */
    b->lim = c ? n->r + SAMPLE_SLOTS : n->r;
    return b->pos;
}

/* n (1 or 2) consecutive free slots; a chunk's last slot may stay unused */
static inline struct rec *slots(struct weft_trace_buf *b, size_t n)
{
    struct rec *r = b->pos;
    if (WEFT_UNLIKELY((size_t)(b->end - r) < n) && !(r = refill(b)))
        return NULL;
    b->pos = r + n;
    return r;
}

/* The unit's id field (ABT_thread_get_id's id + 1, as records hold it: REC_W), given here
 * if nobody asked yet: from a block of ids this buffer took, so that streams do not
 * contend on the counter.  fresh: the unit is not published yet (creation), a plain
 * store does. */
static WEFT_COLD uint64_t new_id(struct weft_trace_buf *b, weft_unit *u, bool fresh)
{
    if (b->id_next == b->id_end) {
        b->id_next = weft_atomic_fetch_add_relaxed(&weft_g.next_unit_id, 256);
        b->id_end = b->id_next + 256;
    }
    uint64_t v = b->id_next++, old = 0;
    if (fresh) {
        weft_atomic_store_relaxed(&u->id, v);
        return v;
    }
    if (weft_atomic_cas_strong_seq_cst(&u->id, &old, v))
        return v;
    return old;
}

static inline uint64_t unit_id(struct weft_trace_buf *b, weft_unit *u, bool fresh)
{
    uint64_t id = weft_atomic_load_relaxed(&u->id);
    return WEFT_LIKELY(id != 0) ? id : new_id(b, u, fresh);
}

/* Is p the home pool of some stream other than the caller's? */
static bool home_elsewhere(weft_pool *p)
{
    for (struct weft_trace_buf *b = weft_atomic_load_acquire(&T.bufs); b;
         b = weft_atomic_load_acquire(&b->next))
        if (!b->external && weft_atomic_load_relaxed(&b->home) == p)
            return true;
    return false;
}

/* The stream's main scheduler changed (or this is its first run): read its home pool. */
static WEFT_COLD __attribute__((noinline)) weft_pool *home_refresh(struct weft_trace_buf *b,
                                                                   weft_xstream *xs)
{
    weft_sched *ms = xs ? xs->main_sched : NULL;
    weft_pool *home = ms && ms->num_pools > 0 ? ms->pools[0] : NULL;
    b->home_of = ms;
    weft_atomic_store_relaxed(&b->home, home);
    return home;
}

/* A unit from a pool that is not the stream's home: a steal if it is another's home. */
static WEFT_COLD __attribute__((noinline)) uint32_t steal_flag(weft_pool *p)
{
    return home_elsewhere(p) ? RUN_STEAL : 0;
}

/* The flags a run takes from the unit alone (copied bits: enum run_flag) */
static inline uint32_t unit_run_flags(const weft_unit *u)
{
    uint32_t fl = u->flags;
    return (u->ctx ? 0 : RUN_FIRST) | /* a tasklet, or a ULT that never ran */
           (fl & (WEFT_U_MAIN | WEFT_U_SCHED)) | (~fl & WEFT_U_ULT) << 3;
}

/* ... and the steal flag, from the unit's pool and the stream's home */
static inline uint32_t run_flags(struct weft_trace_buf *b, weft_xstream *xs, weft_unit *u)
{
    uint32_t f = unit_run_flags(u);
    /* the home pool, read again only when the main scheduler changed */
    weft_pool *home = weft_atomic_load_relaxed(&b->home);
    if (WEFT_UNLIKELY((xs ? xs->main_sched : NULL) != b->home_of))
        home = home_refresh(b, xs);
    weft_pool *p = u->pool;
    if (WEFT_UNLIKELY(p != home) && p)
        f |= steal_flag(p);
    return f;
}

/* Sizes of the running scheduler's pools (at most 4; not user-defined ones), as counter
 * records. */
static WEFT_COLD void sample_pools(struct weft_trace_buf *b, weft_xstream *xs)
{
    weft_sched *s = xs ? xs->sched : NULL;
    if (!s)
        return;
    for (int i = 0; i < s->num_pools && i < 4; i++) {
        weft_pool *p = s->pools[i];
        size_t n;
        if (weft_pool_can(p, WEFT_POOL_CAP_INLINE_FIFO))
            n = weft_atomic_load_relaxed(&p->size);
        else if (weft_pool_can(p, WEFT_POOL_CAP_SIZE) && !weft_pool_can(p, WEFT_POOL_CAP_BIND))
            n = weft_pool_size(p); /* a built-in kind; a user pool's callback is not called
                                    * from inside an event */
        else
            continue;
        struct rec *r = slots(b, 2);
        if (!r)
            return;
        r[0].ts = weft_ticks();
        r[0].w = REC_W((uint64_t)p->id + 1, 0, R_COUNTER);
        r[1].ts = n;
        r[1].w = 0;
    }
}

/* What each event (by its bit's index) records: the kind, the argument, and ER_FRESH for
 * creation (the unit is not published yet); 0: not recorded (JOIN, FREE: a tool's, not
 * the tracer's).  Filled by weft_trace_init. */
enum { ER_VALID = 1 << 12, ER_FRESH = 1 << 13 };
static uint16_t ev_rec[64];

static void ev_rec_set(uint64_t ev, uint32_t kind, uint32_t aux, uint32_t extra)
{
    ev_rec[__builtin_ctzll(ev)] = (uint16_t)(kind | aux << 4 | ER_VALID | extra);
}

static void ev_rec_fill(void)
{
    ev_rec_set(ABT_TOOL_EVENT_THREAD_CREATE, R_CREATE, 0, ER_FRESH);
    ev_rec_set(ABT_TOOL_EVENT_THREAD_REVIVE, R_CREATE, 0, 0);
    ev_rec_set(ABT_TOOL_EVENT_THREAD_RUN, R_RUN, 0, 0);
    ev_rec_set(ABT_TOOL_EVENT_THREAD_FINISH, R_END, END_FINISH, 0);
    ev_rec_set(ABT_TOOL_EVENT_THREAD_YIELD, R_END, END_YIELD, 0);
    ev_rec_set(ABT_TOOL_EVENT_THREAD_SUSPEND, R_END, END_BLOCK, 0);
    ev_rec_set(ABT_TOOL_EVENT_THREAD_RESUME, R_RESUME, 0, 0);
    ev_rec_set(ABT_TOOL_EVENT_THREAD_CANCEL, R_CANCEL, 0, 0);
    ev_rec_set(WEFT_TOOL_EVENT_MIGRATE, R_MIGRATE, 0, 0);
}

/* Any event, any case (a chunk to refill, an id to give, the external buffer). */
static WEFT_COLD void put(struct weft_trace_buf *b, weft_xstream *xs, weft_unit *u, uint64_t ev,
                          bool same_time)
{
    uint32_t e = ev_rec[__builtin_ctzll(ev) & 63];
    if (WEFT_UNLIKELY(!(e & ER_VALID)))
        return;
    uint32_t kind = e & 0xf, aux = e >> 4 & 0xff;
    uint64_t val = 0; /* the second slot's value */
    bool fresh = e & ER_FRESH;
    if (kind == R_RUN) {
        val = (uint64_t)(uintptr_t)u->fn;
        aux = run_flags(b, xs, u);
    } else if (WEFT_UNLIKELY(kind == R_MIGRATE)) {
        val = u->pool ? (uint64_t)u->pool->id : 0;
    }
    uint64_t id = unit_id(b, u, fresh);
    uint32_t n = rec_slots(kind, aux);
    struct rec *r;
    if (b->lim != b->end && b->lim - b->pos < (ptrdiff_t)n) {
        /* the pools' sizes are due (before this event: a RESUME's fold is kept) */
        if (kind != R_RUN || !same_time) {
            b->lim = b->end;
            sample_pools(b, xs);
            b->lim = b->end - b->pos > SAMPLE_SLOTS ? b->pos + SAMPLE_SLOTS : b->end;
        }
    }
    if (kind == R_RUN && same_time && b->cur && b->pos != b->cur->r &&
        (size_t)(b->end - b->pos) >= n - 1 && b->pos[-1].w == REC_W(id, 0, R_RESUME)) {
        /* the RESUME of this step (a hand-off's joiner): one record for both */
        r = b->pos - 1;
        b->pos += n - 1;
        aux |= RUN_RESUMED;
    } else {
        r = slots(b, n);
        if (WEFT_UNLIKELY(!r))
            return;
        r->ts = same_time && b->last_ts ? b->last_ts : weft_ticks();
        b->last_ts = r->ts;
    }
    r[0].w = REC_W(id, aux, kind);
    if (n == 2) {
        r[1].ts = val;
        r[1].w = 0;
    }
}

static struct weft_trace_buf *buf_new(int tid, bool external)
{
    struct weft_trace_buf *b; /* line-aligned: its recording part is the stream's alone */
    if (posix_memalign((void **)&b, 64, sizeof *b) != 0)
        return NULL;
    memset(b, 0, sizeof *b);
    b->tid = tid;
    b->external = external;
    for (int ph = 0; ph < PH_N; ph++)
        b->hdlen[ph] =
            (uint8_t)snprintf(b->hd[ph], sizeof b->hd[ph],
                              ",\n{\"ph\":\"%c\",\"pid\":%d,\"tid\":%d,\"ts\":", ph_char[ph],
                              (int)T.pid, tid);
    b->next = T.bufs;
    weft_atomic_store_release(&T.bufs, b);
    return b;
}

/* The stream's first event: its rank's buffer (kept from an earlier stream of that rank,
 * or made now). */
static WEFT_COLD struct weft_trace_buf *attach(weft_xstream *xs)
{
    struct weft_trace_buf *b;
    pthread_mutex_lock(&T.reg_lock);
    for (b = T.bufs; b; b = b->next)
        if (!b->external && b->tid == xs->rank)
            break;
    if (!b)
        b = buf_new(xs->rank, false);
    pthread_mutex_unlock(&T.reg_lock);
    if (!b)
        weft_atomic_fetch_add_relaxed(&T.dropped, 1);
    xs->trace = b;
    return b;
}

static WEFT_COLD void record_cold(weft_xstream *xs, weft_unit *u, uint64_t ev, bool same_time)
{
    if (!xs) {
        pthread_mutex_lock(&T.ext_lock);
        put(T.ext, NULL, u, ev, false);
        pthread_mutex_unlock(&T.ext_lock);
        return;
    }
    struct weft_trace_buf *b = xs->trace;
    if (b || (b = attach(xs)))
        put(b, xs, u, ev, same_time);
}

/* The common cases inline, with room in the chunk: a unit with its id (or a creation
 * with ids in hand), a run (folding the RESUME of its step), an end, a resume.  All
 * others, and every case at a chunk's end, go to put. */
void weft_trace_record(weft_xstream *xs, weft_unit *u, uint64_t ev, bool same_time)
{
    struct weft_trace_buf *b;
    if (WEFT_UNLIKELY(!xs) || WEFT_UNLIKELY(!(b = xs->trace))) {
        record_cold(xs, u, ev, same_time);
        return;
    }
    uint32_t e = ev_rec[__builtin_ctzll(ev) & 63], kind = e & 0xf;
    struct rec *r = b->pos;
    uint64_t id = weft_atomic_load_relaxed(&u->id);
    if (WEFT_UNLIKELY(b->lim - r < 2) || WEFT_UNLIKELY(kind >= R_MIGRATE) ||
        WEFT_UNLIKELY(!(e & ER_VALID)))
        goto slow;
    if (id == 0) {
        if (!(e & ER_FRESH) || b->id_next == b->id_end)
            goto slow;
        id = b->id_next++; /* a creation: the unit is not published yet */
        weft_atomic_store_relaxed(&u->id, id);
    }
    uint32_t aux = e >> 4 & 0xff;
    if (kind == R_RUN) {
        aux = run_flags(b, xs, u);
        bool named = run_named(aux); /* else no second slot: the name is fixed */
        if (same_time && r != b->cur->r && r[-1].w == REC_W(id, 0, R_RESUME)) {
            /* the RESUME of this step (a hand-off's joiner): one record for both */
            r[-1].w = REC_W(id, aux | RUN_RESUMED, R_RUN);
            if (named) {
                r[0].ts = (uint64_t)(uintptr_t)u->fn;
                r[0].w = 0;
                b->pos = r + 1;
            }
            return;
        }
        if (named) {
            r[1].ts = (uint64_t)(uintptr_t)u->fn;
            r[1].w = 0;
            b->pos = r + 2;
        } else {
            b->pos = r + 1;
        }
    } else {
        b->pos = r + 1;
    }
    r->ts = same_time && b->last_ts ? b->last_ts : weft_ticks();
    b->last_ts = r->ts;
    r->w = REC_W(id, aux, kind);
    return;
slow:
    put(b, xs, u, ev, same_time);
}

/* A switch in one go (weft_tool_dispatch_switch): the END of `from` and the RUN of `to`
 * (a RESUME folded in) with one time stamp, as an R_END and an R_RUN_AT: the events that
 * weft_trace_record makes of them one by one, in 32 bytes.  Units with ids, room for two
 * slots and no pool sample due; else one event at a time. */
/* weft_trace_switch's general road, out of line so that the common one is a leaf */
static WEFT_COLD __attribute__((noinline)) void switch_slow(weft_xstream *xs, weft_unit *from,
                                                            weft_unit *to, uint64_t evs)
{
    weft_trace_record(xs, from, evs & ~(ABT_TOOL_EVENT_THREAD_RESUME | ABT_TOOL_EVENT_THREAD_RUN),
                      false);
    if (evs & ABT_TOOL_EVENT_THREAD_RESUME)
        weft_trace_record(xs, to, ABT_TOOL_EVENT_THREAD_RESUME, true);
    weft_trace_record(xs, to, ABT_TOOL_EVENT_THREAD_RUN, true);
}

void weft_trace_switch(weft_xstream *xs, weft_unit *from, weft_unit *to, uint64_t evs)
{
    struct weft_trace_buf *b;
    struct rec *r;
    uint64_t idf, idt;
    if (WEFT_UNLIKELY(!xs) || WEFT_UNLIKELY(!(b = xs->trace)) ||
        WEFT_UNLIKELY(b->lim - (r = b->pos) < 2) ||
        WEFT_UNLIKELY(!(idf = weft_atomic_load_relaxed(&from->id))) ||
        WEFT_UNLIKELY(!(idt = weft_atomic_load_relaxed(&to->id)))) {
        switch_slow(xs, from, to, evs);
        return;
    }
    /* the end reason and RESUMED are bits of evs where the records want them (the
     * static assertions at enum end_why and enum run_flag); the function is stored even
     * for the primary ULT and schedulers, whose names the writer knows (no test) */
    /* a unit from a pool other than the stream's home (a steal, perhaps), or a main
     * scheduler that changed: the general road, so that this one calls nothing */
    weft_pool *tp = to->pool;
    if (WEFT_UNLIKELY(xs->main_sched != b->home_of) ||
        WEFT_UNLIKELY(tp != weft_atomic_load_relaxed(&b->home) && tp)) {
        switch_slow(xs, from, to, evs);
        return;
    }
    uint32_t aux = unit_run_flags(to) | ((uint32_t)(evs >> 4) & RUN_RESUMED);
    r[0].w = REC_W(idf, (uint32_t)(evs >> 7) & 3, R_END);
    r[1].ts = (uint64_t)(uintptr_t)to->fn;
    r[1].w = REC_W(idt, aux, R_RUN_AT);
    b->pos = r + 2;
    uint64_t ts = weft_ticks();
    b->last_ts = ts;
    r[0].ts = ts;
}

/* A creation with ids in hand and room in the chunk; else weft_trace_record. */
void weft_trace_create(weft_xstream *xs, weft_unit *u)
{
    struct weft_trace_buf *b;
    struct rec *r;
    if (WEFT_UNLIKELY(!xs) || WEFT_UNLIKELY(!(b = xs->trace)) ||
        WEFT_UNLIKELY(b->lim - (r = b->pos) < 1) || WEFT_UNLIKELY(b->id_next == b->id_end) ||
        WEFT_UNLIKELY(weft_atomic_load_relaxed(&u->id) != 0)) {
        weft_trace_record(xs, u, ABT_TOOL_EVENT_THREAD_CREATE, false);
        return;
    }
    uint64_t id = b->id_next++; /* the unit is not published yet: a plain store */
    weft_atomic_store_relaxed(&u->id, id);
    uint64_t ts = weft_ticks();
    b->last_ts = ts;
    b->pos = r + 1;
    r->ts = ts;
    r->w = REC_W(id, 0, R_CREATE);
}

/* ---------------------------------------------------------------- start and end */

void weft_trace_init(void)
{
    const char *path = getenv("WEFT_TRACE");
    if (!path || !*path)
        return;
    if (!WEFT_TOOL) {
        weft_warn("WEFT_TRACE=%s: this build has no tool events (-DWEFT_TOOL=OFF); the "
                  "program runs untraced",
                  path);
        return;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        weft_warn("WEFT_TRACE=%s: cannot open the trace file for writing (%s); the program "
                  "runs untraced",
                  path, strerror(errno));
        return;
    }
    T.pid = getpid();
    ev_rec_fill();
    T.path = strdup(path);
    T.out = malloc(OUT_CAP);
    T.ext = buf_new(EXT_TID, true);
    if (!T.path || !T.out || !T.ext)
        goto fail;
    T.ext->external = true;
    T.fd = fd;
    T.outlen = 0;
    T.write_err = 0;
    T.nevents = 0;
    T.stop = false;
    weft_atomic_store_relaxed(&T.dropped, 0);
    /* ticks -> ns: two readings of both clocks 2 ms apart */
    uint64_t t0 = weft_ticks(), n0 = weft_clock_ns();
    struct timespec nap = { 0, 2000000 };
    while (nanosleep(&nap, &nap) != 0 && errno == EINTR)
        ;
    uint64_t t1 = weft_ticks(), n1 = weft_clock_ns();
    T.ns_per_tick = t1 > t0 ? (double)(n1 - n0) / (double)(t1 - t0) : 1.0;
    T.tick0 = t1; /* the trace starts now */
    /* the header and the first event (so that every later one starts with its comma) */
    T.outlen = (size_t)snprintf(T.out, OUT_CAP,
                                "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":"
                                "\"weft " ABT_VERSION "\"},\"traceEvents\":[\n"
                                "{\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"name\":\"process_name\","
                                "\"args\":{\"name\":\"weft\"}}",
                                (int)T.pid);
    /* the writer inherits no signal handling and the process's CPU set (the primary
     * stream is bound after this, when ABT_SET_AFFINITY asks) */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int r = pthread_create(&T.writer, NULL, writer_main, NULL);
    if (r == 0) {
        r = pthread_create(&T.mapper, NULL, mapper_main, NULL);
        if (r != 0) {
            pthread_mutex_lock(&T.qlock);
            T.stop = true;
            pthread_cond_signal(&T.qcond);
            pthread_mutex_unlock(&T.qlock);
            pthread_join(T.writer, NULL);
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (r != 0) {
        weft_warn("WEFT_TRACE=%s: cannot start the trace writer (%s); the program runs "
                  "untraced",
                  path, strerror(r));
        goto fail_quiet;
    }
    T.writer_started = true;
    T.on = true;
    weft_tool_set_trace(true, TRACE_EVENTS);
    /* the primary ULT is running already: its run starts with the trace */
    weft_xstream *xs = weft_xs_self();
    weft_trace_record(xs, xs->main_unit, ABT_TOOL_EVENT_THREAD_RUN, false);
    return;
fail:
    weft_warn("WEFT_TRACE=%s: out of memory; the program runs untraced", path);
fail_quiet:
    close(fd);
    T.fd = -1;
    free(T.path);
    free(T.out);
    T.path = T.out = NULL;
    if (T.ext) {
        T.bufs = NULL;
        free(T.ext);
        T.ext = NULL;
    }
}

static void meta(const char *what, int tid, const char *name, int sort)
{
    char *p = out_begin(256 + strlen(name));
    p = PUT_LIT(p, ",\n{\"ph\":\"M\",\"pid\":");
    p = put_i64(p, T.pid);
    p = PUT_LIT(p, ",\"tid\":");
    p = put_i64(p, tid);
    p = PUT_LIT(p, ",\"name\":\"");
    p = put_str(p, what);
    if (sort >= 0) {
        p = PUT_LIT(p, "\",\"args\":{\"sort_index\":");
        p = put_i64(p, sort);
    } else {
        p = PUT_LIT(p, "\",\"args\":{\"name\":\"");
        p = put_str(p, name);
        *p++ = '"';
    }
    out_end(PUT_LIT(p, "}}"));
}

void weft_trace_finalize(void)
{
    if (!T.on)
        return;
    uint64_t end_ticks = weft_ticks(); /* the trace ends here, not after the writing */
    T.on = false;
    weft_tool_set_trace(false, 0);
    weft_xstream *self = weft_xs_self();
    if (self)
        self->trace = NULL;
    if (getpid() != T.pid) {
        /* a forked child: the writer thread and the file belong to the parent */
        close(T.fd);
        T.fd = -1;
        return;
    }
    pthread_mutex_lock(&T.qlock);
    T.stop = true;
    pthread_cond_signal(&T.qcond);
    pthread_cond_signal(&T.mcond);
    pthread_mutex_unlock(&T.qlock);
    pthread_join(T.writer, NULL);
    pthread_join(T.mapper, NULL);
    T.writer_started = false;
    /* no stream records any more: queue the partial chunks, oldest buffers first */
    pthread_mutex_lock(&T.qlock);
    for (struct weft_trace_buf *b = T.bufs; b; b = b->next) {
        if (b->cur) {
            b->cur->n = (uint32_t)(b->pos - b->cur->r);
            enqueue(b->cur);
            b->cur = NULL;
        }
    }
    pthread_mutex_unlock(&T.qlock);
    drain();
    pthread_mutex_lock(&T.fmt_lock);
    uint64_t end = to_ns(end_ticks);
    char name[64];
    for (struct weft_trace_buf *b = T.bufs; b; b = b->next) {
        uint64_t ns = end > b->last_ns ? end : b->last_ns;
        struct num tsn, idn;
        num_ts(&tsn, ns);
        while (b->nopen) { /* runs still going at ABT_finalize (the primary ULT) end here */
            num_u64(&idn, b->open[b->nopen - 1]);
            span_end(b, &tsn, &idn);
        }
        if (!b->used)
            continue;
        if (b->external)
            snprintf(name, sizeof name, "external threads");
        else
            snprintf(name, sizeof name, "stream %d%s", b->tid, b->tid == 0 ? " (primary)" : "");
        meta("thread_name", b->tid, name, -1);
        meta("thread_sort_index", b->tid, "", b->tid);
    }
    uint64_t dropped = weft_atomic_load_relaxed(&T.dropped);
    out_end(PUT_LIT(out_begin(16), "\n]}\n"));
    out_flush();
    if (close(T.fd) != 0 && !T.write_err)
        T.write_err = errno;
    T.fd = -1;
    if (T.write_err)
        weft_warn("WEFT_TRACE=%s: writing the trace failed (%s); the file is incomplete", T.path,
                  strerror(T.write_err));
    if (dropped)
        weft_warn("WEFT_TRACE=%s: %llu event(s) were lost for want of memory", T.path,
                  (unsigned long long)dropped);
    pthread_mutex_unlock(&T.fmt_lock);
    /* free everything */
    while (T.bufs) {
        struct weft_trace_buf *b = T.bufs;
        T.bufs = b->next;
        free(b->open);
        free(b);
    }
    T.ext = NULL;
    while (T.spare) {
        struct chunk *c = T.spare;
        T.spare = c->next;
        chunk_free(c);
    }
    T.nspare = 0;
    for (size_t i = 0; i < T.names_cap; i++)
        free(T.names[i].s);
    free(T.names);
    T.names = NULL;
    T.names_cap = T.names_n = 0;
    free(T.out);
    T.out = NULL;
    free(T.path);
    T.path = NULL;
}

void weft_trace_print_config(FILE *fp)
{
    if (T.on)
        fprintf(fp, " - trace (WEFT_TRACE): %s\n", T.path);
    else
        fprintf(fp, " - trace (WEFT_TRACE): off\n");
}
