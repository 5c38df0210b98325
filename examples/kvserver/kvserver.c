/* examples/kvserver/kvserver.c - a key-value server over TCP on weft and weft_io: one ULT
 * per connection on N execution streams, values in memory, and an optional append-only
 * log (group commit: a frame of requests written with weft_io_pwrite, weft_io_fdatasync,
 * then applied and acknowledged; replayed at start: a crash loses no acknowledged write,
 * and no GET ever sees a write a crash could lose).  Protocol: kv.h (GET/PUT/DEL lines).
 *
 *   kvserver [-a ADDR] [-p PORT] [-s STREAMS] [-l LOGFILE] [-i SECS] [-q] [-S] [--repair]
 *
 * Connections are dealt round-robin to the streams, each with its own pool, and stay
 * there (the ring of their stream completes their I/O); -S puts every stream on one
 * shared pool instead (a ULT then resumes wherever a stream is free).  -i SECS closes a
 * connection that sent nothing for SECS seconds (or did not take a reply for as long).
 *
 * Prints "kvserver: listening on ADDR:PORT ..." on stdout once it accepts (PORT 0: any
 * free port, the line says which).  SIGINT or SIGTERM: stop accepting, close every
 * connection after the request it is in, sync the log, exit 0.  Out of descriptors, new
 * connections wait in the listen backlog until others close.
 *
 * The log's format, its torn tail and its damage: "the log" below.  A damaged frame
 * before the tail makes the server refuse to start (exit 1, naming the file and the
 * offset); --repair cuts the log there instead and says how much it dropped. */
#define _GNU_SOURCE 1
#include <abt.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <poll.h>
#include <stdatomic.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <weft_io.h>

#define KV_LOCK_T       ABT_mutex
#define KV_LOCK_INIT(l) ABT_mutex_create(&(l))
#define KV_LOCK_FREE(l) ABT_mutex_free(&(l))
#define KV_LOCK(l)      ABT_mutex_lock(l)
#define KV_UNLOCK(l)    ABT_mutex_unlock(l)
#include "kv.h"

static kv_store store;
static int lfd;
static int quiet;
static volatile int stopping;
static int idle_ms = -1; /* -i: a connection silent for that long is closed; -1: never */

/* ---- the log ----
 * Format 2 (this server writes it):
 *   header  "WEFTKVLG" | u32 version (2) | u32 CRC32C of the 12 bytes before it
 *   frame   "KVFR" | u32 payload length | u32 record count | u32 CRC32C of (length, count,
 *           payload) | payload, the records of one group commit:
 *   record  op ('P' or 'D') | u32 key length | u32 value length | key | value
 * integers little endian.  Frames are written one at a time, each after the previous one
 * is durable (fdatasync), so only the last frame can be torn by a crash, even a power
 * loss that writes pages out of order.  Replay: a damaged or incomplete frame with no
 * valid frame after it is that torn tail, and is cut; one with a valid frame after it is
 * damage to acknowledged data, and the server refuses to start (--repair cuts there).
 * Format 1 (older servers: no header; records 'K', op, u32 key and value lengths, key,
 * value, FNV-1a of the record) is read by the same rules and rewritten in format 2. */
#define LOG_MAGIC    "WEFTKVLG"
#define LOG_VERSION  2
#define LOG_HDR      16
#define FRAME_MAGIC  "KVFR"
#define FRAME_HDR    16
#define FRAME_MAX    (64u << 20) /* payload bound at replay (frames are <= 4 MiB + a record) */
#define FRAME_TARGET (4u << 20)  /* a group commit takes requests up to this much payload */
#define REC_HDR      9

static int logfd = -1;
static const char *log_path;
static int repair;
static off_t log_end;
static ABT_mutex log_lock;
static ABT_cond log_cond;

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1; /* Castagnoli, reflected */
        crc_table[i] = c;
    }
}

static uint32_t crc32c(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    while (n--)
        crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static uint32_t fnv1a(const unsigned char *p, size_t n) /* format 1's checksum */
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}

static uint32_t get32(const unsigned char *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int write_all(int fd, const void *b, size_t n, off_t off)
{
    const char *p = b;
    while (n) {
        ssize_t w = weft_io_pwrite(fd, p, n, off);
        if (w < 0)
            return -1;
        p += w, n -= (size_t)w, off += w;
    }
    return 0;
}

/* ---- group commit ----
 * A PUT or DEL joins the queue of pending requests.  Whoever finds no commit in progress
 * leads one: it takes the queue (up to FRAME_TARGET bytes), writes it as one frame,
 * fdatasyncs, and only then applies the requests to memory in queue order and writes
 * their replies; the requests that came meanwhile wait for the next commit, led by one
 * of them.  So a value is visible to GETs only once it is durable, memory follows the
 * log's order, and one fdatasync covers every request that came while the last one ran. */
typedef struct pending {
    struct pending *next;
    const kv_req *req;
    char *reply; /* where the reply line goes */
    size_t rlen;
    int done; /* log_lock: 1 answered */
} pending;

static pending *q_head, **q_tail = &q_head; /* log_lock */
static int committing;                      /* log_lock */
static int log_broken; /* a failed write could not be undone: every later write fails */

static size_t rec_size(const kv_req *r) { return REC_HDR + r->klen + r->vlen; }

static unsigned char *rec_put(unsigned char *p, int op, const char *k, size_t kl, const char *v,
                              size_t vl)
{
    p[0] = (unsigned char)op;
    put32(p + 1, (uint32_t)kl);
    put32(p + 5, (uint32_t)vl);
    memcpy(p + REC_HDR, k, kl);
    if (vl)
        memcpy(p + REC_HDR + kl, v, vl);
    return p + REC_HDR + kl + vl;
}

/* The CRC32C of a frame's length, count and payload (the fields around its own). */
static uint32_t frame_crc(const unsigned char *f, size_t payload)
{
    return crc32c(crc32c(0, f + 4, 8), f + FRAME_HDR, payload);
}

static void frame_seal(unsigned char *f, size_t payload, uint32_t count)
{
    memcpy(f, FRAME_MAGIC, 4);
    put32(f + 4, (uint32_t)payload);
    put32(f + 8, count);
    put32(f + 12, frame_crc(f, payload));
}

/* Write frame f (n bytes) at the end of the log and make it durable: 0, or -1.  A failure
 * is undone (the log cut back to its end and synced), or the log is marked broken. */
static int log_append(const unsigned char *f, size_t n)
{
    if (log_broken)
        return -1;
    if (write_all(logfd, f, n, log_end) == 0 && weft_io_fdatasync(logfd) == 0) {
        log_end += (off_t)n;
        return 0;
    }
    /* after a failed fdatasync the frame may or may not be on the device: remove it, so
     * that no unacknowledged request reappears at replay */
    if (weft_io_ftruncate(logfd, log_end) < 0 || weft_io_fdatasync(logfd) < 0) {
        log_broken = 1;
        fprintf(stderr,
                "kvserver: log %s: write failed and could not be undone: %s; "
                "refusing every later write\n",
                log_path, strerror(errno));
    }
    return -1;
}

/* Lead one commit of the requests in batch (a list of `count`, `payload` bytes). */
static void commit_batch(pending *batch, size_t payload, uint32_t count)
{
    unsigned char *f = malloc(FRAME_HDR + payload);
    int ok = 0;
    if (f) {
        unsigned char *p = f + FRAME_HDR;
        for (pending *q = batch; q; q = q->next)
            p = rec_put(p, q->req->op == KV_PUT ? 'P' : 'D', q->req->key, q->req->klen, q->req->val,
                        q->req->vlen);
        frame_seal(f, payload, count);
        int tmo = weft_io_set_timeout(-1); /* the idle limit is not the device's */
        ok = log_append(f, FRAME_HDR + payload) == 0;
        weft_io_set_timeout(tmo);
        free(f);
    }
    for (pending *q = batch; q; q = q->next) { /* durable: now visible, in log order */
        if (ok) {
            q->rlen = kv_exec(&store, q->req, q->reply);
        } else {
            kv_req e = { .op = KV_BAD, .err = "log write failed" };
            q->rlen = kv_exec(&store, &e, q->reply);
        }
    }
}

/* Make r durable, then apply it and write its reply into `reply`; returns its length. */
static size_t log_and_apply(const kv_req *r, char *reply)
{
    pending me = { .req = r, .reply = reply };
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
        size_t payload = rec_size(last->req);
        uint32_t count = 1;
        while (last->next && payload + rec_size(last->next->req) <= FRAME_TARGET) {
            last = last->next;
            payload += rec_size(last->req);
            count++;
        }
        q_head = last->next;
        if (!q_head)
            q_tail = &q_head;
        last->next = NULL;
        committing = 1;
        ABT_mutex_unlock(log_lock);
        commit_batch(batch, payload, count);
        ABT_mutex_lock(log_lock);
        for (pending *q = batch, *nx; q; q = nx) {
            nx = q->next;
            q->done = 1;
        }
        committing = 0;
        ABT_cond_broadcast(log_cond);
    }
    ABT_mutex_unlock(log_lock);
    return me.rlen;
}

/* ---- replay ---- */

enum { REC_OK, REC_BAD };

/* Format 2: is there a whole, valid frame at off?  Its size in *n. */
static int frame_at(const unsigned char *b, size_t size, size_t off, size_t *n)
{
    if (size - off < FRAME_HDR || memcmp(b + off, FRAME_MAGIC, 4))
        return REC_BAD;
    const unsigned char *f = b + off;
    uint32_t len = get32(f + 4), count = get32(f + 8);
    if (len > FRAME_MAX || count == 0 || len > size - off - FRAME_HDR ||
        frame_crc(f, len) != get32(f + 12))
        return REC_BAD;
    /* the payload must be exactly `count` well-formed records */
    size_t p = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (len - p < REC_HDR)
            return REC_BAD;
        const unsigned char *r = f + FRAME_HDR + p;
        uint32_t kl = get32(r + 1), vl = get32(r + 5);
        if ((r[0] != 'P' && r[0] != 'D') || kl == 0 || kl > KV_KEY_MAX || vl > KV_LINE_MAX ||
            (size_t)kl + vl > len - p - REC_HDR)
            return REC_BAD;
        p += REC_HDR + kl + vl;
    }
    if (p != len)
        return REC_BAD;
    *n = FRAME_HDR + (size_t)len;
    return REC_OK;
}

/* Format 1: a whole, valid record at off? */
static int rec1_at(const unsigned char *b, size_t size, size_t off, size_t *n)
{
    if (size - off < 14)
        return REC_BAD;
    const unsigned char *p = b + off;
    uint32_t kl = get32(p + 2), vl = get32(p + 6);
    if (p[0] != 'K' || (p[1] != 'P' && p[1] != 'D') || kl == 0 || kl > KV_KEY_MAX ||
        vl > KV_LINE_MAX)
        return REC_BAD;
    size_t len = 14 + (size_t)kl + vl;
    if (len > size - off || get32(p + len - 4) != fnv1a(p, len - 4))
        return REC_BAD;
    *n = len;
    return REC_OK;
}

static int apply_frame(const unsigned char *f)
{
    uint32_t count = get32(f + 8);
    const unsigned char *r = f + FRAME_HDR;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t kl = get32(r + 1), vl = get32(r + 5);
        const char *k = (const char *)r + REC_HDR;
        if (r[0] == 'P') {
            if (kv_put(&store, k, kl, k + kl, vl) < 0)
                return -1;
        } else {
            kv_del(&store, k, kl);
        }
        r += REC_HDR + kl + vl;
    }
    return (int)count;
}

/* A snapshot of the store as format-2 frames (the rewrite of a format-1 log). */
typedef struct {
    int fd;
    off_t off;
    unsigned char *buf;
    size_t used, count; /* payload bytes and records in buf */
} snap;

static int snap_flush(snap *s)
{
    if (!s->count)
        return 0;
    frame_seal(s->buf, s->used, (uint32_t)s->count);
    if (write_all(s->fd, s->buf, FRAME_HDR + s->used, s->off) < 0)
        return -1;
    s->off += (off_t)(FRAME_HDR + s->used);
    s->used = s->count = 0;
    return 0;
}

static int snap_item(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
    snap *s = arg;
    if (s->used + REC_HDR + kl + vl > (1u << 20) && snap_flush(s) < 0)
        return -1;
    rec_put(s->buf + FRAME_HDR + s->used, 'P', k, kl, v, vl);
    s->used += REC_HDR + kl + vl;
    s->count++;
    return 0;
}

static void log_header(unsigned char h[LOG_HDR])
{
    memcpy(h, LOG_MAGIC, 8);
    put32(h + 8, LOG_VERSION);
    put32(h + 12, crc32c(0, h, 12));
}

/* Write the store as a new format-2 log in path.tmp, durable, and rename it over path. */
static int rewrite_log(const char *path)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snap s = { .fd = weft_io_open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) };
    if (s.fd < 0)
        return -1;
    s.buf = malloc(FRAME_HDR + (1u << 20) + REC_HDR + KV_KEY_MAX + KV_LINE_MAX);
    unsigned char h[LOG_HDR];
    log_header(h);
    int rc = -1;
    if (s.buf && write_all(s.fd, h, LOG_HDR, 0) == 0) {
        s.off = LOG_HDR;
        if (kv_foreach(&store, snap_item, &s) == 0 && snap_flush(&s) == 0 &&
            weft_io_fdatasync(s.fd) == 0 && weft_io_rename(tmp, path) == 0)
            rc = 0;
    }
    free(s.buf);
    if (rc < 0) {
        int e = errno;
        weft_io_close(s.fd);
        weft_io_unlink(tmp);
        errno = e;
        return -1;
    }
    /* the rename itself durable: sync the directory */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = 0;
    int dfd = weft_io_open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        weft_io_fsync(dfd);
        weft_io_close(dfd);
    }
    weft_io_close(logfd);
    logfd = s.fd;
    log_end = s.off;
    return 0;
}

static int replay(const char *path)
{
    log_path = path;
    logfd = weft_io_open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (logfd < 0)
        return -1;
    struct stat st;
    if (weft_io_fstat(logfd, &st) < 0)
        return -1;
    size_t size = (size_t)st.st_size;
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf)
        return -1;
    size_t got = 0;
    while (got < size) {
        ssize_t r = weft_io_pread(logfd, buf + got, size - got, (off_t)got);
        if (r <= 0) {
            free(buf);
            if (r == 0)
                errno = EIO; /* shrank under us */
            return -1;
        }
        got += (size_t)r;
    }
    int version;
    size_t off;
    unsigned char h[LOG_HDR];
    log_header(h);
    if (size >= LOG_HDR && !memcmp(buf, LOG_MAGIC, 8)) {
        if (get32(buf + 12) != crc32c(0, buf, 12)) {
            fprintf(stderr, "kvserver: log %s: damaged header at offset 0; refusing to start\n",
                    path);
            exit(1);
        }
        if (get32(buf + 8) != LOG_VERSION) {
            fprintf(stderr,
                    "kvserver: log %s: format version %u, this server reads 1 and 2; "
                    "refusing to start\n",
                    path, get32(buf + 8));
            exit(1);
        }
        version = 2;
        off = LOG_HDR;
    } else if (size < LOG_HDR && !memcmp(buf, h, size)) {
        version = 2; /* empty, or the header of a new log torn by a crash: write it */
        off = 0;
        if (write_all(logfd, h, LOG_HDR, 0) < 0 || weft_io_fdatasync(logfd) < 0) {
            free(buf);
            return -1;
        }
        size = 0;
        log_end = LOG_HDR;
    } else if (buf[0] == 'K') {
        version = 1;
        off = 0;
    } else {
        fprintf(stderr,
                "kvserver: log %s: not a kvserver log (no format-2 header, no format-1 "
                "record at offset 0); refusing to start\n",
                path);
        exit(1);
    }
    int (*at)(const unsigned char *, size_t, size_t, size_t *) = version == 2 ? frame_at : rec1_at;
    size_t nrec = 0, n = 0;
    while (off < size && at(buf, size, off, &n) == REC_OK) {
        if (version == 2) {
            int k = apply_frame(buf + off);
            if (k < 0) {
                free(buf);
                errno = ENOMEM;
                return -1;
            }
            nrec += (size_t)k;
        } else {
            const unsigned char *p = buf + off;
            uint32_t kl = get32(p + 2), vl = get32(p + 6);
            if (p[1] == 'P' && kv_put(&store, (char *)p + 10, kl, (char *)p + 10 + kl, vl) < 0) {
                free(buf);
                errno = ENOMEM;
                return -1;
            }
            if (p[1] == 'D')
                kv_del(&store, (char *)p + 10, kl);
            nrec++;
        }
        off += n;
    }
    if (off < size) {
        /* a bad or incomplete unit at off: the torn tail if nothing valid follows */
        size_t next = off + 1;
        while (next < size && at(buf, size, next, &n) != REC_OK)
            next++;
        if (next < size) {
            size_t lost_units = 0; /* whole valid units after the damage */
            for (size_t y = next; y < size;) {
                if (at(buf, size, y, &n) == REC_OK) {
                    lost_units++;
                    y += n;
                } else {
                    y++;
                }
            }
            if (!repair) {
                fprintf(stderr,
                        "kvserver: log %s: damaged %s at offset %zu, with %zu valid %s after it "
                        "(the first at offset %zu); refusing to start.  Restore the file, or "
                        "start with --repair to cut the log at offset %zu (dropping %zu bytes)\n",
                        path, version == 2 ? "frame" : "record", off, lost_units,
                        version == 2 ? "frames" : "records", next, off, size - off);
                exit(1);
            }
            fprintf(stderr,
                    "kvserver: log %s: --repair: cut at offset %zu, the first damaged %s: "
                    "dropped %zu bytes (%zu valid %s after the damage)\n",
                    path, off, version == 2 ? "frame" : "record", size - off, lost_units,
                    version == 2 ? "frames" : "records");
        } else if (!quiet) {
            fprintf(stderr, "kvserver: log %s: torn tail of %zu bytes at offset %zu cut\n", path,
                    size - off, off);
        }
        if (weft_io_ftruncate(logfd, (off_t)off) < 0 || weft_io_fdatasync(logfd) < 0) {
            free(buf);
            return -1;
        }
    }
    free(buf);
    if (size)
        log_end = (off_t)off;
    if (version == 1) {
        if (rewrite_log(path) < 0)
            return -1;
        if (!quiet)
            fprintf(stderr,
                    "kvserver: log %s: format 1 read (%zu records), rewritten in format 2\n", path,
                    nrec);
    } else if (!quiet) {
        fprintf(stderr, "kvserver: log %s: %zu records replayed\n", path, nrec);
    }
    return 0;
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

#define OUT_CAP (4 * (KV_LINE_MAX + 16))

static void serve(void *arg)
{
    conn *c = arg;
    char *in = malloc(KV_LINE_MAX + 1), *out = malloc(OUT_CAP);
    size_t have = 0;
    if (!in || !out)
        goto done;
    if (idle_ms >= 0)
        weft_io_set_timeout(idle_ms); /* every recv and send of this connection */
    for (;;) {
        ssize_t r = weft_io_recv(c->fd, in + have, KV_LINE_MAX + 1 - have, 0);
        if (r <= 0)
            break; /* EOF, reset, idle time-out (ETIMEDOUT) or shut down by a stop */
        have += (size_t)r;
        size_t start = 0, olen = 0;
        char *nl;
        while ((nl = memchr(in + start, '\n', have - start))) {
            kv_req q = kv_parse(in + start, (size_t)(nl - (in + start)));
            if (logfd >= 0 && (q.op == KV_PUT || q.op == KV_DEL)) {
                olen += log_and_apply(&q, out + olen); /* visible once durable */
            } else {
                olen += kv_exec(&store, &q, out + olen);
            }
            start = (size_t)(nl - in) + 1;
            if (OUT_CAP - olen < KV_LINE_MAX + 16) {
                if (send_all(c->fd, out, olen) < 0)
                    goto done;
                olen = 0;
            }
        }
        if (olen && send_all(c->fd, out, olen) < 0)
            goto done;
        memmove(in, in + start, have - start);
        have -= start;
        if (have > KV_LINE_MAX) {
            /* reply, then a lingering close: closing with unread input would reset the
             * connection and could destroy the reply before the client reads it */
            send_all(c->fd, "ERROR line too long\n", 20);
            weft_io_shutdown(c->fd, SHUT_WR);
            int old = weft_io_set_timeout(idle_ms >= 0 && idle_ms < 1000 ? idle_ms : 1000);
            for (size_t drained = 0; drained < (1u << 20);) {
                ssize_t k = weft_io_recv(c->fd, in, KV_LINE_MAX, 0);
                if (k <= 0)
                    break;
                drained += (size_t)k;
            }
            weft_io_set_timeout(old);
            break;
        }
    }
done:
    free(in);
    free(out);
    weft_io_close(c->fd);
    conn_del(c); /* after the close: an acceptor out of descriptors may take this one */
    free(c);
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
            "usage: kvserver [-a ADDR] [-p PORT] [-s STREAMS] [-l LOGFILE] [-i SECS] [-q] [-S]\n"
            "                [--repair]\n"
            "  -a, --addr ADDR          listen on ADDR (127.0.0.1)\n"
            "  -p, --port PORT          TCP port (7379; 0: any free port)\n"
            "  -s, --streams N          execution streams (2)\n"
            "  -l, --log FILE           append-only log, replayed at start\n"
            "  -i, --idle-timeout SECS  close a connection idle for SECS seconds (default: "
            "never)\n"
            "  -q, --quiet              no notices on stderr\n"
            "  -S, --shared-pool        one pool for every stream\n"
            "      --repair             cut a damaged log at its first damaged frame (and say "
            "what it drops)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *addr = "127.0.0.1", *logpath = NULL;
    int port = 7379, nstreams = 2, opt, shared_pool = 0;
    static const struct option longs[] = {
        { "addr", required_argument, NULL, 'a' },
        { "port", required_argument, NULL, 'p' },
        { "streams", required_argument, NULL, 's' },
        { "log", required_argument, NULL, 'l' },
        { "idle-timeout", required_argument, NULL, 'i' },
        { "quiet", no_argument, NULL, 'q' },
        { "shared-pool", no_argument, NULL, 'S' },
        { "repair", no_argument, NULL, 'R' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    char *end;
    while ((opt = getopt_long(argc, argv, "a:p:s:l:i:qS", longs, NULL)) != -1) {
        switch (opt) {
        case 'S': shared_pool = 1; break;
        case 'R': repair = 1; break;
        case 'i': {
            double secs = strtod(optarg, &end);
            if (end == optarg || *end || !(secs > 0) || secs > 2000000) {
                fprintf(stderr, "kvserver: -i %s: a number of seconds > 0 expected\n", optarg);
                usage();
            }
            idle_ms = (int)(secs * 1000 + 0.5);
            if (idle_ms < 1)
                idle_ms = 1;
            break;
        }
        case 'a': addr = optarg; break;
        case 'p': port = atoi(optarg); break;
        case 's': nstreams = atoi(optarg); break;
        case 'l': logpath = optarg; break;
        case 'q': quiet = 1; break;
        default: usage();
        }
    }
    if (optind < argc || nstreams < 1 || nstreams > 256 || port < 0 || port > 65535)
        usage();
    if (repair && !logpath) {
        fprintf(stderr, "kvserver: --repair needs a log (-l FILE)\n");
        usage();
    }
    crc_init();

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
        perror("kvserver: signalfd");
        return 1;
    }

    if (ABT_init(0, NULL) != ABT_SUCCESS) {
        fprintf(stderr, "kvserver: ABT_init failed\n");
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
    if (kv_init(&store) < 0) {
        fprintf(stderr, "kvserver: out of memory\n");
        return 1;
    }
    if (logpath && replay(logpath) < 0) {
        fprintf(stderr, "kvserver: log %s: %s\n", logpath, strerror(errno));
        return 1;
    }

    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    if (inet_pton(AF_INET, addr, &a.sin_addr) != 1)
        usage();
    lfd = weft_io_socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    socklen_t al = sizeof a;
    if (lfd < 0 || weft_io_bind(lfd, (struct sockaddr *)&a, sizeof a) < 0 ||
        weft_io_listen(lfd, 4096) < 0 || getsockname(lfd, (struct sockaddr *)&a, &al) < 0) {
        fprintf(stderr, "kvserver: %s:%d: %s\n", addr, port, strerror(errno));
        return 1;
    }
    printf("kvserver: listening on %s:%d (%d streams, weft_io %s%s%s)\n", addr, ntohs(a.sin_port),
           nstreams, weft_io_backend(), logpath ? ", log " : "", logpath ? logpath : "");
    fflush(stdout);

    freed_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (freed_fd < 0) {
        perror("kvserver: eventfd");
        return 1;
    }
    for (int i = 0; i < nspools; i++) { /* each stream's ring, before any client */
        ABT_thread w;
        if (ABT_thread_create(spools[i], warm, NULL, ABT_THREAD_ATTR_NULL, &w) == ABT_SUCCESS) {
            ABT_thread_join(w);
            ABT_thread_free(&w);
        }
    }

    ABT_thread acc;
    ABT_thread_create(pool, acceptor, NULL, ABT_THREAD_ATTR_NULL, &acc);

    struct signalfd_siginfo si;
    while (weft_io_read(sfd, &si, sizeof si) != (ssize_t)sizeof si)
        ;
    /* stop: no new connection, every connection ends after its current request */
    stopping = 1;
    ABT_thread_cancel(acc); /* parked in accept: woken and ended (weft_io.h) */
    ABT_thread_join(acc);
    ABT_thread_free(&acc);
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
    ABT_cond_free(&conns_gone);
    kv_destroy(&store);
    ABT_finalize();
    close(sfd);
    return 0;
}
