/* src/core/tool/trace_record.c - the trace's recording side: each stream appends 16-byte
 * records to its own buffer, without a lock or an atomic; external threads share one
 * under ext_lock (the model: trace.c).  A buffer's recording fields belong to the stream
 * of its rank. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool/pool.h"
#include "core/runtime.h"
#include "core/tool/trace_buf.h"

static const char ph_char[PH_N] = { 'i', 'B', 'E', 's', 'f', 'C' };

/* ---------------------------------------------------------------- the recording side */

/* The buffer's chunk is full (or it has none): queue it, take a fresh one.  NULL when no
 * memory is left (the event is dropped and counted). */
static WEFT_COLD struct rec *refill(struct weft_trace_buf *b)
{
    struct chunk *c = b->cur, *n;
    bool help = false;
    pthread_mutex_lock(&weft_trace_g.qlock);
    if (c) {
        c->n = (uint32_t)(b->pos - c->r);
        weft_trace_enqueue(c);
        help = weft_trace_g.qlen > MAX_QUEUED;
        pthread_cond_signal(&weft_trace_g.qcond);
    }
    n = weft_trace_g.spare;
    if (n) {
        weft_trace_g.spare = n->next;
        weft_trace_g.nspare--;
    }
    weft_trace_g.want_cpu = sched_getcpu();   /* the mapper keeps off this CPU */
    pthread_cond_signal(&weft_trace_g.mcond); /* map the next one ahead */
    pthread_mutex_unlock(&weft_trace_g.qlock);
    if (help)
        weft_trace_drain(); /* the writer is behind: this stream formats the backlog itself */
    if (!n)
        n = weft_trace_chunk_new();
    b->cur = n;
    if (!n) {
        b->pos = b->lim = b->end = NULL;
        weft_atomic_fetch_add_relaxed(&weft_trace_g.dropped, 1);
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
    for (struct weft_trace_buf *b = weft_atomic_load_acquire(&weft_trace_g.bufs); b;
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
 * the tracer's).  Filled by weft_trace_events_init. */
enum { ER_VALID = 1 << 12, ER_FRESH = 1 << 13 };
static uint16_t ev_rec[64];

static void ev_rec_set(uint64_t ev, uint32_t kind, uint32_t aux, uint32_t extra)
{
    ev_rec[__builtin_ctzll(ev)] = (uint16_t)(kind | aux << 4 | ER_VALID | extra);
}

void weft_trace_events_init(void)
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

struct weft_trace_buf *weft_trace_buf_new(int tid, bool external)
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
                              (int)weft_trace_g.pid, tid);
    b->next = weft_trace_g.bufs;
    weft_atomic_store_release(&weft_trace_g.bufs, b);
    return b;
}

/* The stream's first event: its rank's buffer (kept from an earlier stream of that rank,
 * or made now). */
static WEFT_COLD struct weft_trace_buf *attach(weft_xstream *xs)
{
    struct weft_trace_buf *b;
    pthread_mutex_lock(&weft_trace_g.reg_lock);
    for (b = weft_trace_g.bufs; b; b = b->next)
        if (!b->external && b->tid == xs->rank)
            break;
    if (!b)
        b = weft_trace_buf_new(xs->rank, false);
    pthread_mutex_unlock(&weft_trace_g.reg_lock);
    if (!b)
        weft_atomic_fetch_add_relaxed(&weft_trace_g.dropped, 1);
    xs->trace = b;
    return b;
}

static WEFT_COLD void record_cold(weft_xstream *xs, weft_unit *u, uint64_t ev, bool same_time)
{
    if (!xs) {
        pthread_mutex_lock(&weft_trace_g.ext_lock);
        put(weft_trace_g.ext, NULL, u, ev, false);
        pthread_mutex_unlock(&weft_trace_g.ext_lock);
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
