/* examples/kvserver/kvserver.c - weft-kvserver: a memcached-protocol (ASCII) cache
 * server on weft and weft_io: one ULT per connection on N execution streams, items in
 * memory under a memory bound with LRU eviction (store.h), and an optional append-only
 * log (kvlog.h; group commit: a frame of changes written with weft_io_pwrite,
 * weft_io_fdatasync, then applied and acknowledged; replayed at start: a crash loses no
 * acknowledged change, and no read ever sees a change a crash could lose).
 *
 *   weft-kvserver [-p PORT] [-l ADDR] [-t STREAMS] [-m MIB] [-c MAXCONN] [-L LOGFILE]
 *                 [-i SECS] [-q] [-S] [--repair]
 *
 * The protocol is memcached's ASCII protocol: get, gets, gat, gats (many keys), set,
 * add, replace, append, prepend, cas, delete, incr, decr, touch, flush_all, version,
 * verbosity, stats (general, settings, reset), quit, and noreply; flags, expiry times
 * (relative up to 30 days, else absolute Unix times; negative: expired), keys of up to
 * 250 bytes, items of up to 1 MiB, memcached's ERROR / CLIENT_ERROR / SERVER_ERROR
 * replies.  Expired items go when a request meets them, and a sweeper ULT removes the
 * others (a pass over every shard in 4 s).
 *
 * Connections are dealt round-robin to the streams, each with its own pool, and stay
 * there (the ring of their stream completes their I/O); -S puts every stream on one
 * shared pool instead.  -i SECS closes a connection that sent nothing for SECS seconds
 * (or did not take a reply for as long).  Past -c MAXCONN connections a new one gets
 * "ERROR Too many open connections" and is closed, as with memcached.
 *
 * Prints "kvserver: listening on ADDR:PORT ..." on stdout once it accepts (PORT 0: any
 * free port, the line says which).  SIGINT or SIGTERM: stop accepting, close every
 * connection after the request it is in, sync the log, exit 0.  Out of descriptors, new
 * connections wait in the listen backlog until others close.  A damaged log: kvlog.h. */
#define _GNU_SOURCE 1
#include <abt.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/uio.h>
#include <unistd.h>
#include <weft_io.h>

#include "store.h"
#include "mutate.h"

#define KV_VERSION "1.6.0-weft"

static st_store store;
static int lfd;
static int quiet;
static volatile int stopping;
static int idle_ms = -1; /* -i: a connection silent for that long is closed; -1: never */
static _Atomic int verbosity;
static long maxconns = 1024;
static int nstreams = 4;
static int port = 11211;
static const char *addr = "127.0.0.1";
static int64_t started;

#include "kvlog.h"

/* ---- statistics: a block per stream, each written only by its stream ---- */
typedef struct {
    _Atomic uint64_t cmd_get, cmd_set, cmd_touch, cmd_flush, get_hits, get_misses, delete_hits,
        delete_misses, incr_hits, incr_misses, decr_hits, decr_misses, cas_hits, cas_misses,
        cas_badval, touch_hits, touch_misses, bytes_read, bytes_written;
    char pad[64];
} kv_stats;

static kv_stats stats[257];

static kv_stats *my_stats(void)
{
    int r;
    if (ABT_self_get_xstream_rank(&r) != ABT_SUCCESS || r < 0 || r >= 256)
        r = 256;
    return &stats[r];
}

/* one writer per block (the stream; ULTs do not preempt each other), any readers */
#define STAT_ADD(s, f, n)                                                                     \
    atomic_store_explicit(&(s)->f, atomic_load_explicit(&(s)->f, memory_order_relaxed) + (n), \
                          memory_order_relaxed)

static uint64_t stat_sum(size_t off)
{
    uint64_t n = 0;
    for (int i = 0; i < 257; i++)
        n += atomic_load_explicit((_Atomic uint64_t *)((char *)&stats[i] + off),
                                  memory_order_relaxed);
    return n;
}

static void stats_reset(void)
{
    for (int i = 0; i < 257; i++)
        for (size_t off = 0; off < offsetof(kv_stats, pad); off += sizeof(uint64_t))
            atomic_store_explicit((_Atomic uint64_t *)((char *)&stats[i] + off), 0,
                                  memory_order_relaxed);
}

/* ---- output buffers ----
 * A reply is bytes in `p`, plus, for values of at least OB_REF_MIN bytes, references to
 * the items themselves: seg[i] says that item it's value and "\r\n" go at offset off of
 * p (the item held by a reference until the flush sends it, with one sendmsg for the
 * whole reply), so a large value is copied once, by the kernel, as memcached does. */
#define OB_REF_MIN 512
#define OB_SEGS    16

typedef struct {
    size_t off;
    st_item *it;
} oseg;

typedef struct {
    char *p;
    size_t len, cap;
    size_t ext; /* bytes of the referenced values */
    int nseg;
    oseg seg[OB_SEGS];
} obuf;

#define OBUF_MIN 2048

static int ob_room(obuf *o, size_t n)
{
    if (o->cap - o->len >= n)
        return 0;
    size_t cap = o->cap ? o->cap : OBUF_MIN;
    while (cap - o->len < n)
        cap *= 2;
    char *p = realloc(o->p, cap);
    if (!p)
        return -1;
    o->p = p;
    o->cap = cap;
    return 0;
}

static int ob_add(obuf *o, const char *s, size_t n)
{
    if (ob_room(o, n) < 0)
        return -1;
    memcpy(o->p + o->len, s, n);
    o->len += n;
    return 0;
}

static int ob_str(obuf *o, const char *s) { return ob_add(o, s, strlen(s)); }

/* ' ' and v in decimal at p; the end.  (snprintf's format parsing costs more than the
 * rest of a small get's reply.) */
static char *put_num(char *p, uint64_t v)
{
    char t[20];
    int n = 0;
    do
        t[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    *p++ = ' ';
    while (n)
        *p++ = t[--n];
    return p;
}

/* "VALUE key flags bytes [cas]\r\n" + value + "\r\n" */
static int ob_value(obuf *o, const st_item *it, int with_cas)
{
    int ref = it->vlen >= OB_REF_MIN && o->nseg < OB_SEGS;
    if (ob_room(o, it->klen + (ref ? 0 : it->vlen) + 80) < 0)
        return -1;
    char *p = o->p + o->len;
    memcpy(p, "VALUE ", 6);
    memcpy(p + 6, it->data, it->klen);
    p += 6 + it->klen;
    p = put_num(p, it->flags);
    p = put_num(p, it->vlen);
    if (with_cas)
        p = put_num(p, it->cas);
    *p++ = '\r';
    *p++ = '\n';
    if (ref) {
        o->len = (size_t)(p - o->p);
        st_ref((st_item *)it);
        o->seg[o->nseg++] = (oseg){ o->len, (st_item *)it };
        o->ext += it->vlen + 2u;
        return 0;
    }
    memcpy(p, st_val(it), it->vlen + 2);
    o->len = (size_t)(p + it->vlen + 2 - o->p);
    return 0;
}

/* Write the outcome r of a changing command into o (nothing with noreply, or for a gat
 * miss). */
static int ob_result(obuf *o, const mut *m, const mut_res *r)
{
    if (m->noreply)
        return 0;
    if (r->value)
        return ob_value(o, r->item, m->with_cas);
    if (r->reply)
        return ob_str(o, r->reply);
    if (r->num[0]) {
        if (ob_str(o, r->num) < 0)
            return -1;
        return ob_add(o, "\r\n", 2);
    }
    return 0;
}

static void count_result(kv_stats *s, const mut *m, const mut_res *r)
{
    int hit = r->kind != R_NONE;
    switch (m->cmd) {
    case M_CAS:
        if (r->reply == MR_NOT_FOUND)
            STAT_ADD(s, cas_misses, 1);
        else if (r->reply == MR_EXISTS)
            STAT_ADD(s, cas_badval, 1);
        else
            STAT_ADD(s, cas_hits, 1);
        break;
    case M_DELETE:
        if (hit)
            STAT_ADD(s, delete_hits, 1);
        else
            STAT_ADD(s, delete_misses, 1);
        break;
    case M_INCR:
        if (r->reply == MR_NOT_FOUND)
            STAT_ADD(s, incr_misses, 1);
        else
            STAT_ADD(s, incr_hits, 1);
        break;
    case M_DECR:
        if (r->reply == MR_NOT_FOUND)
            STAT_ADD(s, decr_misses, 1);
        else
            STAT_ADD(s, decr_hits, 1);
        break;
    case M_TOUCH:
    case M_GAT:
        STAT_ADD(s, cmd_touch, 1);
        if (hit)
            STAT_ADD(s, touch_hits, 1);
        else
            STAT_ADD(s, touch_misses, 1);
        if (m->cmd == M_GAT) {
            STAT_ADD(s, cmd_get, 1);
            if (hit)
                STAT_ADD(s, get_hits, 1);
            else
                STAT_ADD(s, get_misses, 1);
        }
        break;
    case M_FLUSH: STAT_ADD(s, cmd_flush, 1); break;
    default: STAT_ADD(s, cmd_set, 1); break;
    }
}

/* Apply the outcome of a decided command (no shard lock held): a put takes r->item's
 * reference, unless keep (then the caller still owns one). */
static void apply_result(mut_res *r, const mut *m, int keep)
{
    switch (r->kind) {
    case R_PUT:
        if (keep)
            st_ref(r->item);
        st_link(&store, r->item);
        break;
    case R_DEL: st_delete(&store, m->key, m->klen); break;
    case R_FLUSH: /* at once: also cancels a delayed flush not yet due, as memcached's does */
        atomic_store(&store.flush_at, 0);
        st_flush(&store);
        break;
    case R_FLUSH_AT: atomic_store(&store.flush_at, m->exptime); break;
    case R_NONE: break;
    }
}

/* Without a log: decide and apply m atomically (under its shard's lock), reply into o. */
static int run_direct(const mut *m, obuf *o)
{
    mut_res r;
    if (m->cmd == M_FLUSH) {
        mut_decide(&store, m, NULL, &r);
        apply_result(&r, m, 0);
    } else {
        uint64_t h = st_hash(m->key, m->klen);
        st_shard *s = st_shard_of(&store, h);
        int over = 0;
        ABT_mutex_lock(s->lock);
        st_item *cur = st_find_locked(&store, s, h, m->key, m->klen);
        mut_decide(&store, m, cur, &r);
        if (r.kind == R_PUT) {
            if (r.value)
                st_ref(r.item); /* gat: the reply needs it after the link */
            st_link_locked(&store, s, r.item, st_now(), &over);
        } else if (r.kind == R_DEL) {
            st_unlink(&store, s, cur);
        }
        ABT_mutex_unlock(s->lock);
        if (over)
            st_evict(&store, r.item); /* compared, not read: it may be gone */
    }
    count_result(my_stats(), m, &r);
    int rc = ob_result(o, m, &r);
    if (r.value)
        st_release(r.item);
    return rc;
}

/* ---- group commit ----
 * With a log, a changing command joins the queue of pending commands.  Whoever finds no
 * commit in progress leads one: it takes the queue (up to FRAME_TARGET bytes of
 * records), decides each command in queue order against the store and the outcomes of
 * the commands before it in the batch, writes the changes as one frame, fdatasyncs, and
 * only then applies them to memory in queue order and writes the replies; the commands
 * that came meanwhile wait for the next commit, led by one of them.  So a change is
 * visible only once it is durable, memory follows the log's order, the log holds
 * outcomes (replay needs no clock, cas unique or memory bound to agree), and one
 * fdatasync covers every command that came while the last one ran. */
typedef struct pending {
    struct pending *next;
    const mut *m;
    obuf *out;
    mut_res r;
    int rc;   /* writing the reply: 0, or -1 when out of memory */
    int done; /* log_lock: 1 answered */
} pending;

static ABT_mutex log_lock;
static ABT_cond log_cond;
static pending *q_head, **q_tail = &q_head; /* log_lock */
static int committing;                      /* log_lock */

/* The log record bytes command m may need (its largest outcome). */
static size_t rec_bound(const mut *m)
{
    switch (m->cmd) {
    case M_SET:
    case M_ADD:
    case M_REPLACE:
    case M_CAS: return REC_HDR + m->klen + REC_META + m->vlen;
    case M_DELETE:
    case M_TOOBIG: return REC_HDR + m->klen;
    case M_FLUSH: return REC_HDR + 8;
    default: return REC_HDR + m->klen + REC_META + ST_ITEM_MAX;
    }
}

static size_t rec_size_of(const pending *q)
{
    switch (q->r.kind) {
    case R_PUT: return rec_item_size(q->r.item);
    case R_DEL: return REC_HDR + q->m->klen;
    case R_FLUSH:
    case R_FLUSH_AT: return REC_HDR + 8;
    default: return 0;
    }
}

/* Decide q given the batch before it: the latest outcome there for its key, or the
 * store's item. */
static void decide_in_batch(pending *batch, pending *q)
{
    const mut *m = q->m;
    if (m->cmd == M_FLUSH) {
        mut_decide(&store, m, NULL, &q->r);
        return;
    }
    uint64_t h = st_hash(m->key, m->klen);
    int found = 0;
    st_item *cur = NULL;
    for (pending *p = batch; p != q; p = p->next) {
        if (p->r.kind == R_FLUSH) {
            found = 1, cur = NULL;
        } else if (p->m->cmd != M_FLUSH && p->m->klen == m->klen &&
                   (p->r.kind == R_PUT || p->r.kind == R_DEL) &&
                   st_hash(p->m->key, p->m->klen) == h && !memcmp(p->m->key, m->key, m->klen)) {
            found = 1;
            cur = p->r.kind == R_PUT ? p->r.item : NULL;
        }
    }
    if (found) {
        if (cur && st_invalid(&store, cur, st_now()))
            cur = NULL;
        mut_decide(&store, m, cur, &q->r);
    } else {
        cur = st_get(&store, m->key, m->klen);
        mut_decide(&store, m, cur, &q->r);
        st_release(cur);
    }
}

static const char MR_LOGFAIL[] = "SERVER_ERROR log write failed\r\n";

/* Lead one commit of the commands in batch. */
static void commit_batch(pending *batch)
{
    size_t payload = 0;
    uint32_t count = 0;
    for (pending *q = batch; q; q = q->next) {
        decide_in_batch(batch, q);
        size_t n = rec_size_of(q);
        payload += n;
        count += n != 0;
    }
    int ok = 1;
    if (count) {
        unsigned char *f = malloc(FRAME_HDR + payload);
        ok = 0;
        if (f) {
            unsigned char *p = f + FRAME_HDR;
            for (pending *q = batch; q; q = q->next) {
                switch (q->r.kind) {
                case R_PUT: p = rec_item(p, q->r.item); break;
                case R_DEL: p = rec_put(p, 'D', q->m->key, q->m->klen, NULL, 0); break;
                case R_FLUSH:
                case R_FLUSH_AT: {
                    unsigned char t[8];
                    put64(t, q->r.kind == R_FLUSH ? 0 : (uint64_t)q->m->exptime);
                    p = rec_put(p, 'F', "", 0, (const char *)t, 8);
                    break;
                }
                default: break;
                }
            }
            frame_seal(f, payload, count);
            int tmo = weft_io_set_timeout(-1); /* the idle limit is not the device's */
            ok = log_append(f, FRAME_HDR + payload) == 0;
            weft_io_set_timeout(tmo);
            free(f);
        }
    }
    kv_stats *s = my_stats();
    for (pending *q = batch; q; q = q->next) { /* durable: now visible, in log order */
        if (!ok && q->r.kind != R_NONE) {
            if (q->r.kind == R_PUT)
                st_release(q->r.item);
            memset(&q->r, 0, sizeof q->r);
            q->r.reply = MR_LOGFAIL;
        }
        apply_result(&q->r, q->m, q->r.value);
        count_result(s, q->m, &q->r);
        q->rc = ob_result(q->out, q->m, &q->r);
        if (q->r.value)
            st_release(q->r.item);
    }
}

/* Make m's outcome durable, then apply it and write its reply into out. */
static int log_and_apply(const mut *m, obuf *out)
{
    pending me = { .m = m, .out = out };
    ABT_mutex_lock(log_lock);
    *q_tail = &me;
    q_tail = &me.next;
    while (!me.done) {
        if (committing) {
            ABT_cond_wait(log_cond, log_lock);
            continue;
        }
        /* lead: take the queue's head, up to FRAME_TARGET bytes (at least one) */
        pending *batch = q_head, *last = q_head;
        size_t payload = rec_bound(last->m);
        while (last->next && payload + rec_bound(last->next->m) <= FRAME_TARGET) {
            last = last->next;
            payload += rec_bound(last->m);
        }
        q_head = last->next;
        if (!q_head)
            q_tail = &q_head;
        last->next = NULL;
        committing = 1;
        ABT_mutex_unlock(log_lock);
        commit_batch(batch);
        ABT_mutex_lock(log_lock);
        for (pending *q = batch, *nx; q; q = nx) {
            nx = q->next;
            q->done = 1;
        }
        committing = 0;
        ABT_cond_broadcast(log_cond);
    }
    ABT_mutex_unlock(log_lock);
    return me.rc;
}

static int run_mut(const mut *m, obuf *o)
{
    return logfd >= 0 ? log_and_apply(m, o) : run_direct(m, o);
}

/* ---- the commands ---- */
typedef struct {
    const char *p;
    size_t n;
} tok;

#define MAX_TOKENS 8 /* more than this: the command has too many tokens (ERROR) */

/* Split line [p, end) at spaces: up to max tokens, returns their count (max + 1 when
 * there are more); *rest: where the rest begins. */
static int tokenize(const char *p, const char *end, tok *t, int max, const char **rest)
{
    int n = 0;
    for (;;) {
        while (p < end && *p == ' ')
            p++;
        if (p == end)
            break;
        if (n == max) {
            n++;
            break;
        }
        const char *s = p;
        while (p < end && *p != ' ')
            p++;
        t[n].p = s;
        t[n].n = (size_t)(p - s);
        n++;
    }
    if (rest)
        *rest = p;
    return n;
}

static int tok_is(const tok *t, const char *s)
{
    return t->n == strlen(s) && !memcmp(t->p, s, t->n);
}

static int parse_i64(const tok *t, int64_t *out)
{
    uint64_t v;
    int neg = t->n && t->p[0] == '-';
    if (mut_parse_u64(t->p + neg, t->n - (size_t)neg, &v) < 0 || v > (uint64_t)INT64_MAX)
        return -1;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 0;
}

static const char E_ERROR[] = "ERROR\r\n", E_FORMAT[] = "CLIENT_ERROR bad command line format\r\n",
                  E_CHUNK[] = "CLIENT_ERROR bad data chunk\r\n",
                  E_EXPTIME[] = "CLIENT_ERROR invalid exptime argument\r\n",
                  E_DELTA[] = "CLIENT_ERROR invalid numeric delta argument\r\n",
                  E_DELETE[] = "CLIENT_ERROR bad command line format.  "
                               "Usage: delete <key> [noreply]\r\n";

typedef struct {
    int fd;
    obuf out;
    size_t swallow; /* bytes of a refused value still to skip */
    kv_stats *st;
} session;

enum { C_OK, C_MORE, C_CLOSE, C_TOOLONG };

static int send_all(int fd, const char *b, size_t n);

/* Drop the references of o's segments (sent, or the connection is gone). */
static void ob_release(obuf *o)
{
    for (int i = 0; i < o->nseg; i++)
        st_release(o->seg[i].it);
    o->nseg = 0;
    o->ext = 0;
}

/* Send o's bytes and referenced values in order, resuming after short sends. */
static int send_segs(int fd, obuf *o)
{
    struct iovec iov[2 * OB_SEGS + 1];
    int n = 0;
    size_t pos = 0;
    for (int i = 0; i < o->nseg; i++) {
        if (o->seg[i].off > pos)
            iov[n++] = (struct iovec){ o->p + pos, o->seg[i].off - pos };
        iov[n++] = (struct iovec){ (char *)st_val(o->seg[i].it), o->seg[i].it->vlen + 2u };
        pos = o->seg[i].off;
    }
    if (o->len > pos)
        iov[n++] = (struct iovec){ o->p + pos, o->len - pos };
    struct iovec *v = iov;
    while (n) {
        struct msghdr mh = { .msg_iov = v, .msg_iovlen = (size_t)n };
        ssize_t w = weft_io_sendmsg(fd, &mh, MSG_NOSIGNAL);
        if (w < 0)
            return -1;
        while (n && (size_t)w >= v->iov_len)
            w -= (ssize_t)v->iov_len, v++, n--;
        if (n) {
            v->iov_base = (char *)v->iov_base + w;
            v->iov_len -= (size_t)w;
        }
    }
    return 0;
}

static int flush_out(session *c)
{
    obuf *o = &c->out;
    if (!o->len && !o->nseg)
        return 0;
    STAT_ADD(my_stats(), bytes_written, o->len + o->ext);
    int rc = o->nseg ? send_segs(c->fd, o) : send_all(c->fd, o->p, o->len);
    ob_release(o);
    o->len = 0;
    return rc;
}

static int reply(session *c, const char *s) { return ob_str(&c->out, s); }

static void stat_line(obuf *o, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void stat_line(obuf *o, const char *name, const char *fmt, ...)
{
    char v[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    char l[200];
    int n = snprintf(l, sizeof l, "STAT %s %s\r\n", name, v);
    ob_add(o, l, (size_t)n);
}

static _Atomic long nconns_now, total_conns_a, rejected_conns_a;

static void cmd_stats(session *c, const tok *t, int nt)
{
    obuf *o = &c->out;
    if (nt == 2 && tok_is(&t[1], "reset")) {
        stats_reset();
        atomic_store(&store.evictions, 0);
        atomic_store(&store.reclaimed, 0);
        atomic_store(&store.total_items, 0);
        reply(c, "RESET\r\n");
        return;
    }
    if (nt == 2 && tok_is(&t[1], "settings")) {
        stat_line(o, "maxbytes", "%zu", store.limit);
        stat_line(o, "maxconns", "%ld", maxconns);
        stat_line(o, "tcpport", "%d", port);
        stat_line(o, "inter", "%s", addr);
        stat_line(o, "verbosity", "%d", verbosity);
        stat_line(o, "evictions", "on");
        stat_line(o, "num_threads", "%d", nstreams);
        stat_line(o, "cas_enabled", "yes");
        stat_line(o, "item_size_max", "%u", ST_ITEM_MAX);
        stat_line(o, "idle_timeout", "%d", idle_ms < 0 ? 0 : idle_ms / 1000);
        stat_line(o, "log", "%s", logfd >= 0 ? log_path : "none");
        reply(c, "END\r\n");
        return;
    }
    if (nt != 1) {
        reply(c, E_ERROR);
        return;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    int64_t now = st_now();
#define SUM(f) stat_sum(offsetof(kv_stats, f))
    stat_line(o, "pid", "%d", (int)getpid());
    stat_line(o, "uptime", "%lld", (long long)(now - started));
    stat_line(o, "time", "%lld", (long long)now);
    stat_line(o, "version", "%s", KV_VERSION);
    stat_line(o, "pointer_size", "%d", (int)(8 * sizeof(void *)));
    stat_line(o, "rusage_user", "%ld.%06ld", (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec);
    stat_line(o, "rusage_system", "%ld.%06ld", (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec);
    stat_line(o, "max_connections", "%ld", maxconns);
    stat_line(o, "curr_connections", "%ld", atomic_load(&nconns_now));
    stat_line(o, "total_connections", "%ld", atomic_load(&total_conns_a));
    stat_line(o, "rejected_connections", "%ld", atomic_load(&rejected_conns_a));
    stat_line(o, "cmd_get", "%" PRIu64, SUM(cmd_get));
    stat_line(o, "cmd_set", "%" PRIu64, SUM(cmd_set));
    stat_line(o, "cmd_flush", "%" PRIu64, SUM(cmd_flush));
    stat_line(o, "cmd_touch", "%" PRIu64, SUM(cmd_touch));
    stat_line(o, "get_hits", "%" PRIu64, SUM(get_hits));
    stat_line(o, "get_misses", "%" PRIu64, SUM(get_misses));
    stat_line(o, "delete_misses", "%" PRIu64, SUM(delete_misses));
    stat_line(o, "delete_hits", "%" PRIu64, SUM(delete_hits));
    stat_line(o, "incr_misses", "%" PRIu64, SUM(incr_misses));
    stat_line(o, "incr_hits", "%" PRIu64, SUM(incr_hits));
    stat_line(o, "decr_misses", "%" PRIu64, SUM(decr_misses));
    stat_line(o, "decr_hits", "%" PRIu64, SUM(decr_hits));
    stat_line(o, "cas_misses", "%" PRIu64, SUM(cas_misses));
    stat_line(o, "cas_hits", "%" PRIu64, SUM(cas_hits));
    stat_line(o, "cas_badval", "%" PRIu64, SUM(cas_badval));
    stat_line(o, "touch_hits", "%" PRIu64, SUM(touch_hits));
    stat_line(o, "touch_misses", "%" PRIu64, SUM(touch_misses));
    stat_line(o, "bytes_read", "%" PRIu64, SUM(bytes_read));
    stat_line(o, "bytes_written", "%" PRIu64, SUM(bytes_written));
    stat_line(o, "limit_maxbytes", "%zu", store.limit);
    stat_line(o, "threads", "%d", nstreams);
    stat_line(o, "bytes", "%zu", atomic_load(&store.used));
    stat_line(o, "curr_items", "%zu", st_count(&store));
    stat_line(o, "total_items", "%" PRIu64, atomic_load(&store.total_items));
    stat_line(o, "evictions", "%" PRIu64, atomic_load(&store.evictions));
    stat_line(o, "reclaimed", "%" PRIu64, atomic_load(&store.reclaimed));
#undef SUM
    reply(c, "END\r\n");
}

/* get, gets, gat, gats: keys from `p` to `end`. */
static int cmd_retrieve(session *c, const char *p, const char *end, int with_cas, int touch,
                        int64_t exptime)
{
    tok k;
    const char *rest;
    while (tokenize(p, end, &k, 1, &rest) >= 1) {
        p = k.p + k.n;
        if (k.n > ST_KEY_MAX)
            return reply(c, E_FORMAT);
        if (touch) {
            mut m = {
                .cmd = M_GAT, .key = k.p, .klen = k.n, .exptime = exptime, .with_cas = with_cas
            };
            if (run_mut(&m, &c->out) < 0)
                return -1;
        } else {
            STAT_ADD(c->st, cmd_get, 1);
            st_item *it = st_get(&store, k.p, k.n);
            if (!it) {
                STAT_ADD(c->st, get_misses, 1);
                continue;
            }
            STAT_ADD(c->st, get_hits, 1);
            int rc = ob_value(&c->out, it, with_cas);
            st_release(it);
            if (rc < 0)
                return -1;
        }
        if (c->out.len + c->out.ext > 65536 && flush_out(c) < 0)
            return -1;
    }
    return reply(c, "END\r\n");
}

/* Storage commands: set add replace append prepend (5 or 6 tokens), cas (6 or 7).  `line`
 * is the command line, `avail` the bytes buffered from it on; *used: how many the
 * command takes (C_MORE: how many it needs). */
static int cmd_store(session *c, enum mut_cmd cmd, const tok *t, int nt, const char *line,
                     size_t llen, size_t avail, size_t *used)
{
    int is_cas = cmd == M_CAS, base = is_cas ? 6 : 5;
    *used = llen;
    if (nt != base && nt != base + 1)
        return reply(c, E_ERROR) < 0 ? C_CLOSE : C_OK;
    mut m = { .cmd = cmd, .key = t[1].p, .klen = t[1].n };
    m.noreply = nt == base + 1 && tok_is(&t[base], "noreply");
    uint64_t flags, cas = 0;
    int64_t exptime, vlen;
    if (t[1].n > ST_KEY_MAX || mut_parse_u64(t[2].p, t[2].n, &flags) < 0 ||
        parse_i64(&t[3], &exptime) < 0 || parse_i64(&t[4], &vlen) < 0 || vlen < 0 ||
        vlen > INT32_MAX - 2 || (is_cas && mut_parse_u64(t[5].p, t[5].n, &cas) < 0)) {
        if (!m.noreply && reply(c, E_FORMAT) < 0)
            return C_CLOSE;
        return C_OK;
    }
    m.flags = (uint32_t)flags; /* memcached keeps the low 32 bits */
    m.exptime = mut_exptime(exptime, st_now());
    m.arg = cas;
    m.vlen = (size_t)vlen;
    if (st_item_size(m.klen, m.vlen) > ST_ITEM_MAX) {
        c->swallow = m.vlen + 2;
        mut big = m;
        big.cmd = M_TOOBIG;
        if (cmd == M_SET) /* a refused set leaves no stale value */
            return run_mut(&big, &c->out) < 0 ? C_CLOSE : C_OK;
        if (!m.noreply && reply(c, MR_TOOBIG) < 0)
            return C_CLOSE;
        return C_OK;
    }
    *used = llen + m.vlen + 2;
    if (avail < *used)
        return C_MORE;
    const char *d = line + llen;
    if (d[m.vlen] != '\r' || d[m.vlen + 1] != '\n') {
        if (!m.noreply && reply(c, E_CHUNK) < 0)
            return C_CLOSE;
        return C_OK;
    }
    m.data = d;
    return run_mut(&m, &c->out) < 0 ? C_CLOSE : C_OK;
}

/* One command at `line` (llen bytes with its '\n'; avail bytes buffered from it). */
static int command(session *c, const char *line, size_t llen, size_t avail, size_t *used)
{
    *used = llen;
    size_t n = llen - 1; /* without '\n' */
    if (n && line[n - 1] == '\r')
        n--;
    const char *z = memchr(line, 0, n); /* a NUL ends the command, as with memcached */
    if (z)
        n = (size_t)(z - line);
    const char *end = line + n, *rest;
    tok t[MAX_TOKENS + 1] = { { 0 } };
    int nt = tokenize(line, end, t, 1, &rest);
    if (nt == 0)
        return reply(c, E_ERROR) < 0 ? C_CLOSE : C_OK;
    tok cmd = t[0];
    int gets = tok_is(&cmd, "gets");
    if (gets || tok_is(&cmd, "get")) {
        if (nt < 2)
            return reply(c, E_ERROR) < 0 ? C_CLOSE : C_OK;
        return cmd_retrieve(c, cmd.p + cmd.n, end, gets, 0, 0) < 0 ? C_CLOSE : C_OK;
    }
    int gats = tok_is(&cmd, "gats");
    if (gats || tok_is(&cmd, "gat")) {
        tok e[2];
        if (tokenize(cmd.p + cmd.n, end, e, 1, NULL) < 1)
            return reply(c, E_ERROR) < 0 ? C_CLOSE : C_OK;
        int64_t x;
        if (parse_i64(&e[0], &x) < 0)
            return reply(c, E_EXPTIME) < 0 ? C_CLOSE : C_OK;
        return cmd_retrieve(c, e[0].p + e[0].n, end, gats, 1, mut_exptime(x, st_now())) < 0
                   ? C_CLOSE
                   : C_OK;
    }
    nt = tokenize(line, end, t, MAX_TOKENS, NULL);
    static const struct {
        const char *name;
        enum mut_cmd cmd;
    } storage[] = { { "set", M_SET },       { "add", M_ADD },         { "replace", M_REPLACE },
                    { "append", M_APPEND }, { "prepend", M_PREPEND }, { "cas", M_CAS } };
    for (size_t i = 0; i < sizeof storage / sizeof storage[0]; i++)
        if (tok_is(&cmd, storage[i].name))
            return cmd_store(c, storage[i].cmd, t, nt, line, llen, avail, used);
    int rc = 0;
    if (tok_is(&cmd, "delete")) {
        if (nt < 2 || nt > 4) {
            rc = reply(c, E_ERROR);
        } else if (t[1].n > ST_KEY_MAX) {
            rc = reply(c, E_FORMAT);
        } else {
            int noreply = tok_is(&t[nt - 1], "noreply") && nt > 2;
            int zero = nt >= 3 && tok_is(&t[2], "0");
            if ((nt == 3 && !noreply && !zero) || (nt == 4 && (!zero || !noreply))) {
                rc = reply(c, E_DELETE);
            } else {
                mut m = { .cmd = M_DELETE, .key = t[1].p, .klen = t[1].n, .noreply = noreply };
                rc = run_mut(&m, &c->out);
            }
        }
    } else if (tok_is(&cmd, "incr") || tok_is(&cmd, "decr")) {
        uint64_t d;
        if (nt != 3 && nt != 4) {
            rc = reply(c, E_ERROR);
        } else {
            mut m = { .cmd = cmd.p[0] == 'i' ? M_INCR : M_DECR,
                      .key = t[1].p,
                      .klen = t[1].n,
                      .noreply = nt == 4 && tok_is(&t[3], "noreply") };
            if (t[1].n > ST_KEY_MAX)
                rc = m.noreply ? 0 : reply(c, E_FORMAT);
            else if (mut_parse_u64(t[2].p, t[2].n, &d) < 0)
                rc = m.noreply ? 0 : reply(c, E_DELTA);
            else
                m.arg = d, rc = run_mut(&m, &c->out);
        }
    } else if (tok_is(&cmd, "touch")) {
        int64_t x;
        if (nt != 3 && nt != 4) {
            rc = reply(c, E_ERROR);
        } else {
            mut m = { .cmd = M_TOUCH,
                      .key = t[1].p,
                      .klen = t[1].n,
                      .noreply = nt == 4 && tok_is(&t[3], "noreply") };
            if (t[1].n > ST_KEY_MAX)
                rc = m.noreply ? 0 : reply(c, E_FORMAT);
            else if (parse_i64(&t[2], &x) < 0)
                rc = m.noreply ? 0 : reply(c, E_EXPTIME);
            else
                m.exptime = mut_exptime(x, st_now()), rc = run_mut(&m, &c->out);
        }
    } else if (tok_is(&cmd, "flush_all")) {
        if (nt > 3) {
            rc = reply(c, E_ERROR);
        } else {
            mut m = { .cmd = M_FLUSH, .noreply = tok_is(&t[nt - 1], "noreply") && nt > 1 };
            int64_t x = 0;
            if (nt > 1 && !(nt == 2 && m.noreply) && parse_i64(&t[1], &x) < 0) {
                rc = m.noreply ? 0 : reply(c, E_EXPTIME);
            } else {
                m.exptime = x > 0 ? mut_exptime(x, st_now()) : 0;
                rc = run_mut(&m, &c->out);
            }
        }
    } else if (tok_is(&cmd, "version")) {
        rc = reply(c, "VERSION " KV_VERSION "\r\n");
    } else if (tok_is(&cmd, "verbosity")) {
        uint64_t v;
        if (nt != 2 && nt != 3) {
            rc = reply(c, E_ERROR);
        } else if (tok_is(&t[nt - 1], "noreply")) { /* silent, even about a bad level */
            if (mut_parse_u64(t[1].p, t[1].n, &v) == 0)
                verbosity = (int)v;
        } else if (mut_parse_u64(t[1].p, t[1].n, &v) < 0) {
            rc = reply(c, E_FORMAT);
        } else {
            verbosity = (int)v;
            rc = reply(c, MR_OK);
        }
    } else if (tok_is(&cmd, "stats")) {
        cmd_stats(c, t, nt);
    } else if (tok_is(&cmd, "quit")) {
        return C_CLOSE;
    } else {
        rc = reply(c, E_ERROR);
    }
    return rc < 0 ? C_CLOSE : C_OK;
}

/* ---- connections ---- */
typedef struct conn {
    struct conn *next, *prev;
    int fd;
} conn;

static ABT_mutex conns_lock;
static ABT_cond conns_gone;
static conn *conns;
static long nconns;

static void conn_add(conn *c)
{
    ABT_mutex_lock(conns_lock);
    c->prev = NULL;
    c->next = conns;
    if (conns)
        conns->prev = c;
    conns = c;
    nconns++;
    atomic_store(&nconns_now, nconns);
    ABT_mutex_unlock(conns_lock);
}

/* Out of descriptors, the acceptor waits on this eventfd (made at start) until a
 * connection closes; closes counts the closes, starved says that it waits. */
static int freed_fd = -1;
static _Atomic unsigned long closes;
static _Atomic int starved;

static void conn_del(conn *c)
{
    atomic_fetch_add(&closes, 1);
    if (atomic_load(&starved)) {
        uint64_t one = 1;
        ssize_t w = write(freed_fd, &one, sizeof one); /* an eventfd: never blocks */
        (void)w;
    }
    ABT_mutex_lock(conns_lock);
    if (c->prev)
        c->prev->next = c->next;
    else
        conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    if (--nconns == 0)
        ABT_cond_broadcast(conns_gone);
    atomic_store(&nconns_now, nconns);
    ABT_mutex_unlock(conns_lock);
}

static int send_all(int fd, const char *b, size_t n)
{
    while (n) {
        ssize_t w = weft_io_send(fd, b, n, MSG_NOSIGNAL);
        if (w < 0)
            return -1;
        b += w, n -= (size_t)w;
    }
    return 0;
}

#define IN_MIN    2048
#define LINE_MAX_ 2048       /* a command line without its '\n' past this: closed */
#define RLINE_MAX (1u << 20) /* the same for get, gets, gat, gats (many keys) */
#define OUT_FLUSH 65536

static int is_retrieval(const char *p, size_t n)
{
    return (n >= 4 && (!memcmp(p, "get ", 4) || !memcmp(p, "gat ", 4))) ||
           (n >= 5 && (!memcmp(p, "gets ", 5) || !memcmp(p, "gats ", 5)));
}

static void serve(void *arg)
{
    conn *cn = arg;
    session c = { .fd = cn->fd };
    size_t cap = IN_MIN, have = 0, need = 0;
    char *in = malloc(cap);
    if (!in)
        goto done;
    if (idle_ms >= 0)
        weft_io_set_timeout(idle_ms); /* every recv and send of this connection */
    for (;;) {
        if (need > cap || have == cap) { /* a value (or a line) longer than the buffer */
            size_t ncap = cap * 2;
            while (ncap < need)
                ncap *= 2;
            char *p = realloc(in, ncap);
            if (!p)
                break;
            in = p, cap = ncap;
        }
        ssize_t r = weft_io_recv(c.fd, in + have, cap - have, 0);
        if (r <= 0)
            break; /* EOF, reset, idle time-out (ETIMEDOUT) or shut down by a stop */
        c.st = my_stats();
        STAT_ADD(c.st, bytes_read, (uint64_t)r);
        have += (size_t)r;
        size_t start = 0;
        int rc = C_OK;
        need = 0;
        while (start < have) {
            if (c.swallow) {
                size_t k = have - start < c.swallow ? have - start : c.swallow;
                start += k;
                c.swallow -= k;
                continue;
            }
            char *nl = memchr(in + start, '\n', have - start);
            if (!nl) {
                size_t pending = have - start;
                if (pending > (is_retrieval(in + start, pending) ? RLINE_MAX : LINE_MAX_))
                    rc = C_TOOLONG; /* memcached closes, too */
                break;
            }
            size_t used;
            c.st = my_stats();
            rc = command(&c, in + start, (size_t)(nl - (in + start)) + 1, have - start, &used);
            if (rc == C_MORE) {
                need = used;
                rc = C_OK;
                break;
            }
            if (rc == C_CLOSE)
                break;
            start += used;
            if (c.out.len + c.out.ext >= OUT_FLUSH && flush_out(&c) < 0) {
                rc = C_CLOSE;
                break;
            }
        }
        if (flush_out(&c) < 0 || rc == C_CLOSE)
            break;
        if (rc == C_TOOLONG) {
            /* a lingering close: closing with unread input would reset the connection
             * and could destroy the replies before the client reads them */
            weft_io_shutdown(c.fd, SHUT_WR);
            int old = weft_io_set_timeout(idle_ms >= 0 && idle_ms < 1000 ? idle_ms : 1000);
            for (size_t drained = 0; drained < (1u << 20);) {
                ssize_t k = weft_io_recv(c.fd, in, cap, 0);
                if (k <= 0)
                    break;
                drained += (size_t)k;
            }
            weft_io_set_timeout(old);
            break;
        }
        memmove(in, in + start, have - start);
        have -= start;
        if (cap > 4 * IN_MIN && have < IN_MIN && !need) { /* give a big buffer back */
            char *p = realloc(in, IN_MIN);
            if (p)
                in = p, cap = IN_MIN;
        }
        if (c.out.cap > 4 * OBUF_MIN) {
            free(c.out.p);
            c.out = (obuf){ 0 };
        }
    }
done:
    free(in);
    ob_release(&c.out);
    free(c.out.p);
    weft_io_close(cn->fd);
    conn_del(cn); /* after the close: an acceptor out of descriptors may take this one */
    free(cn);
}

static ABT_pool pool;        /* shared by every stream (-S), or stream 0's */
static ABT_pool spools[256]; /* one per stream (default) */
static int nspools, next_spool;

/* Accept until the stop.  Out of descriptors (EMFILE, ENFILE) or of memory, the
 * connection stays in the listen backlog: the acceptor parks until one of our
 * connections closes (or 100 ms: ENFILE is also freed by other processes), so it neither
 * spins nor keeps the other ULTs of its stream (the signal reader) from running; the
 * connected clients are served meanwhile, and the waiting ones as others close. */
static void acceptor(void *arg)
{
    int told = 0;
    while (!stopping) {
        unsigned long c0 = atomic_load(&closes);
        int fd = weft_io_accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) {
            int e = errno;
            if (e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM) {
                if (!told++ && !quiet)
                    fprintf(stderr,
                            "kvserver: accept: %s: new connections wait in the backlog "
                            "until others close\n",
                            strerror(e));
                atomic_store(&starved, 1);
                if (atomic_load(&closes) == c0) /* else one closed already: try again */
                    weft_io_poll(freed_fd, POLLIN, 100);
                atomic_store(&starved, 0);
                uint64_t v;
                ssize_t r = read(freed_fd, &v, sizeof v); /* O_NONBLOCK: EAGAIN if none */
                (void)r;
            } else if (e != EINTR && e != ECONNABORTED && e != EAGAIN) {
                weft_io_poll(-1, 0, 10); /* an unexpected error: do not spin on it */
            }
            continue;
        }
        atomic_fetch_add(&total_conns_a, 1);
        if (atomic_load(&nconns_now) >= maxconns) { /* memcached's answer past -c */
            static const char full[] = "ERROR Too many open connections\r\n";
            ssize_t w = send(fd, full, sizeof full - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
            (void)w;
            atomic_fetch_add(&rejected_conns_a, 1);
            weft_io_close(fd);
            continue;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        conn *c = malloc(sizeof *c);
        if (!c) {
            weft_io_close(fd);
            continue;
        }
        c->fd = fd;
        conn_add(c);
        /* per-stream pools: connections are dealt round-robin and stay on their
         * stream, whose ring completes their I/O (no cross-stream wake-up per request) */
        ABT_pool p = nspools ? spools[next_spool++ % nspools] : pool;
        if (ABT_thread_create(p, serve, c, ABT_THREAD_ATTR_NULL, NULL) != ABT_SUCCESS) {
            weft_io_close(fd);
            conn_del(c);
            free(c);
        }
    }
}

/* The sweeper: every second a quarter of the shards loses its invalid items. */
static int stop_fd = -1;

static void sweeper(void *arg)
{
    int from = 0;
    while (weft_io_poll(stop_fd, POLLIN, 1000) == 0) {
        st_sweep(&store, from, ST_SHARDS / 4);
        from = (from + ST_SHARDS / 4) % ST_SHARDS;
    }
}

/* Make the calling stream's I/O backend (its ring) now, while descriptors are free: a
 * stream whose first I/O came when the process is out of descriptors would wait for its
 * I/O in slices until one is free (weft_io.h). */
static void warm(void *arg)
{
    struct stat st;
    (void)weft_io_fstat(lfd, &st);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: weft-kvserver [-p PORT] [-l ADDR] [-t STREAMS] [-m MIB] [-c MAXCONN]\n"
            "                     [-L LOGFILE] [-i SECS] [-q] [-S] [--repair]\n"
            "  -p, --port PORT            TCP port (11211; 0: any free port)\n"
            "  -l, --listen ADDR          listen on ADDR (127.0.0.1)\n"
            "  -t, --threads N            execution streams (4)\n"
            "  -m, --memory-limit MIB     item memory (64 MiB); least recently used items go\n"
            "  -c, --conn-limit N         simultaneous connections (1024)\n"
            "  -L, --log FILE             append-only log of every change, replayed at start\n"
            "  -i, --idle-timeout SECS    close a connection idle for SECS seconds (never)\n"
            "  -q, --quiet                no notices on stderr\n"
            "  -S, --shared-pool          one pool for every stream\n"
            "      --repair               cut a damaged log at its first damaged frame (and say\n"
            "                             what it drops)\n");
    exit(2);
}

static long num_arg(const char *opt, const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi) {
        fprintf(stderr, "weft-kvserver: %s %s: a number from %ld to %ld expected\n", opt, s, lo,
                hi);
        usage();
    }
    return v;
}

int main(int argc, char **argv)
{
    const char *logpath = NULL;
    int opt, shared_pool = 0;
    long mib = 64;
    static const struct option longs[] = {
        { "port", required_argument, NULL, 'p' },
        { "listen", required_argument, NULL, 'l' },
        { "threads", required_argument, NULL, 't' },
        { "memory-limit", required_argument, NULL, 'm' },
        { "conn-limit", required_argument, NULL, 'c' },
        { "log", required_argument, NULL, 'L' },
        { "idle-timeout", required_argument, NULL, 'i' },
        { "quiet", no_argument, NULL, 'q' },
        { "shared-pool", no_argument, NULL, 'S' },
        { "repair", no_argument, NULL, 'R' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    char *end;
    while ((opt = getopt_long(argc, argv, "p:l:t:m:c:L:i:qSh", longs, NULL)) != -1) {
        switch (opt) {
        case 'S': shared_pool = 1; break;
        case 'R': repair = 1; break;
        case 'i': {
            double secs = strtod(optarg, &end);
            if (end == optarg || *end || !(secs > 0) || secs > 2000000) {
                fprintf(stderr, "weft-kvserver: -i %s: a number of seconds > 0 expected\n", optarg);
                usage();
            }
            idle_ms = (int)(secs * 1000 + 0.5);
            if (idle_ms < 1)
                idle_ms = 1;
            break;
        }
        case 'p': port = (int)num_arg("-p", optarg, 0, 65535); break;
        case 'l': addr = optarg; break;
        case 't': nstreams = (int)num_arg("-t", optarg, 1, 256); break;
        case 'm': mib = num_arg("-m", optarg, 1, 1L << 30); break;
        case 'c': maxconns = num_arg("-c", optarg, 1, 1L << 24); break;
        case 'L': logpath = optarg; break;
        case 'q': quiet = 1; break;
        default: usage();
        }
    }
    if (optind < argc)
        usage();
    if (repair && !logpath) {
        fprintf(stderr, "weft-kvserver: --repair needs a log (-L FILE)\n");
        usage();
    }
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
        fprintf(stderr, "weft-kvserver: -l %s: an IPv4 address expected\n", addr);
        usage();
    }
    crc_init();
    started = st_now();

    /* SIGINT/SIGTERM arrive through a signalfd read by the main ULT; every stream
     * inherits the mask. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    int sfd = signalfd(-1, &stop, SFD_CLOEXEC);
    if (sfd < 0) {
        perror("weft-kvserver: signalfd");
        return 1;
    }

    if (ABT_init(0, NULL) != ABT_SUCCESS) {
        fprintf(stderr, "weft-kvserver: ABT_init failed\n");
        return 1;
    }
    ABT_xstream xs[256];
    ABT_xstream_self(&xs[0]);
    if (shared_pool) {
        ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool);
        ABT_xstream_set_main_sched_basic(xs[0], ABT_SCHED_BASIC_WAIT, 1, &pool);
        for (int i = 1; i < nstreams; i++)
            ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &pool, ABT_SCHED_CONFIG_NULL, &xs[i]);
    } else {
        nspools = nstreams;
        for (int i = 0; i < nstreams; i++)
            ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &spools[i]);
        pool = spools[0];
        ABT_xstream_set_main_sched_basic(xs[0], ABT_SCHED_BASIC_WAIT, 1, &spools[0]);
        for (int i = 1; i < nstreams; i++)
            ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &spools[i], ABT_SCHED_CONFIG_NULL,
                                     &xs[i]);
    }
    ABT_mutex_create(&log_lock);
    ABT_cond_create(&log_cond);
    ABT_mutex_create(&conns_lock);
    ABT_cond_create(&conns_gone);
    if (st_init(&store, (size_t)mib << 20) < 0) {
        fprintf(stderr, "weft-kvserver: out of memory\n");
        return 1;
    }
    if (logpath && replay(logpath) < 0) {
        fprintf(stderr, "weft-kvserver: log %s: %s\n", logpath, strerror(errno));
        return 1;
    }

    lfd = weft_io_socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    socklen_t al = sizeof a;
    if (lfd < 0 || weft_io_bind(lfd, (struct sockaddr *)&a, sizeof a) < 0 ||
        weft_io_listen(lfd, 4096) < 0 || getsockname(lfd, (struct sockaddr *)&a, &al) < 0) {
        fprintf(stderr, "weft-kvserver: %s:%d: %s\n", addr, port, strerror(errno));
        return 1;
    }
    printf("kvserver: listening on %s:%d (%d streams, weft_io %s%s%s)\n", addr, ntohs(a.sin_port),
           nstreams, weft_io_backend(), logpath ? ", log " : "", logpath ? logpath : "");
    fflush(stdout);
    port = ntohs(a.sin_port);

    freed_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (freed_fd < 0 || stop_fd < 0) {
        perror("weft-kvserver: eventfd");
        return 1;
    }
    for (int i = 0; i < nspools; i++) { /* each stream's ring, before any client */
        ABT_thread w;
        if (ABT_thread_create(spools[i], warm, NULL, ABT_THREAD_ATTR_NULL, &w) == ABT_SUCCESS) {
            ABT_thread_join(w);
            ABT_thread_free(&w);
        }
    }

    ABT_thread acc, sweep;
    ABT_thread_create(pool, acceptor, NULL, ABT_THREAD_ATTR_NULL, &acc);
    ABT_thread_create(pool, sweeper, NULL, ABT_THREAD_ATTR_NULL, &sweep);

    struct signalfd_siginfo si;
    while (weft_io_read(sfd, &si, sizeof si) != (ssize_t)sizeof si)
        ;
    /* stop: no new connection, every connection ends after its current request */
    stopping = 1;
    uint64_t one64 = 1;
    if (write(stop_fd, &one64, sizeof one64) < 0)
        perror("weft-kvserver: eventfd");
    ABT_thread_cancel(acc); /* parked in accept: woken and ended (weft_io.h) */
    ABT_thread_join(acc);
    ABT_thread_free(&acc);
    ABT_thread_join(sweep);
    ABT_thread_free(&sweep);
    ABT_mutex_lock(conns_lock);
    for (conn *c = conns; c; c = c->next)
        shutdown(c->fd, SHUT_RDWR);
    while (nconns)
        ABT_cond_wait(conns_gone, conns_lock);
    ABT_mutex_unlock(conns_lock);
    weft_io_close(lfd);
    if (logfd >= 0) {
        weft_io_fdatasync(logfd);
        weft_io_close(logfd);
    }
    if (!quiet)
        fprintf(stderr, "kvserver: signal %u: stopped\n", si.ssi_signo);
    for (int i = 1; i < nstreams; i++) {
        ABT_xstream_join(xs[i]);
        ABT_xstream_free(&xs[i]);
    }
    ABT_mutex_free(&log_lock);
    ABT_cond_free(&log_cond);
    ABT_mutex_free(&conns_lock);
    close(freed_fd);
    close(stop_fd);
    ABT_cond_free(&conns_gone);
    st_destroy(&store);
    ABT_finalize();
    close(sfd);
    return 0;
}
