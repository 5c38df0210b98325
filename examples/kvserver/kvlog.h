/* examples/kvserver/kvlog.h - the kvserver's append-only log: its format, the frames
 * of a group commit made durable one at a time, and the replay at start (torn tail cut,
 * damage refused or, with --repair, cut).  Included once, by kvserver.c, after the store
 * `store` and the globals `quiet` and `repair` are declared. */
#ifndef KV_LOG_H
#define KV_LOG_H

/* ---- the log ----
 * Format 2 (this server writes it):
 *   header  "WEFTKVLG" | u32 version (2) | u32 CRC32C of the 12 bytes before it
 *   frame   "KVFR" | u32 payload length | u32 record count | u32 CRC32C of (length, count,
 *           payload) | payload, the records of one group commit:
 *   record  op | u32 key length | u32 value length | key | value, op one of
 *           'M'  an item: the value is u32 flags | i64 expiry time | i64 time stored |
 *                the item's value (times: Unix seconds; expiry 0: never)
 *           'D'  the key removed (no value)
 *           'F'  flush_all (no key; the value is i64: 0 at once, else the Unix time
 *                of a delayed flush)
 *           'P'  a key and its value, flags 0, no expiry (written by older servers)
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
#define REC_META     20          /* an 'M' record's flags and times */
#define REC_VAL_MAX  (ST_ITEM_MAX + REC_META)
#define FRAME_TARGET (4u << 20) /* a group commit takes requests up to this much payload */
#define REC_HDR      9

static int logfd = -1;
static const char *log_path;
static int repair;
static off_t log_end;

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

static int log_broken; /* a failed write could not be undone: every later write fails */

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
        int op = r[0];
        if ((op != 'P' && op != 'D' && op != 'M' && op != 'F') || (kl == 0) != (op == 'F') ||
            kl > ST_KEY_MAX || vl > REC_VAL_MAX || (op == 'M' && vl < REC_META) ||
            (op == 'F' && vl != 8) || (op == 'D' && vl) || (size_t)kl + vl > len - p - REC_HDR)
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
    if (p[0] != 'K' || (p[1] != 'P' && p[1] != 'D') || kl == 0 || kl > ST_KEY_MAX ||
        vl > REC_VAL_MAX)
        return REC_BAD;
    size_t len = 14 + (size_t)kl + vl;
    if (len > size - off || get32(p + len - 4) != fnv1a(p, len - 4))
        return REC_BAD;
    *n = len;
    return REC_OK;
}

static uint64_t get64(const unsigned char *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

static void put64(unsigned char *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

/* Replay: the item of key k becomes this one (or, expired since, none): 0, or -1 when
 * out of memory. */
static int replay_put(const char *k, size_t kl, const char *v, size_t vl, uint32_t flags,
                      int64_t exptime, int64_t time)
{
    if (exptime && exptime <= st_now()) {
        st_delete(&store, k, kl);
        return 0;
    }
    st_item *it = st_alloc(k, kl, vl, flags, exptime);
    if (!it)
        return -1;
    memcpy(it->data + kl, v, vl);
    it->time = time;
    st_link(&store, it);
    return 0;
}

static int apply_frame(const unsigned char *f)
{
    uint32_t count = get32(f + 8);
    const unsigned char *r = f + FRAME_HDR;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t kl = get32(r + 1), vl = get32(r + 5);
        const char *k = (const char *)r + REC_HDR;
        const unsigned char *v = r + REC_HDR + kl;
        int rc = 0;
        switch (r[0]) {
        case 'P': rc = replay_put(k, kl, (const char *)v, vl, 0, 0, 0); break;
        case 'M':
            rc = replay_put(k, kl, (const char *)v + REC_META, vl - REC_META, get32(v),
                            (int64_t)get64(v + 4), (int64_t)get64(v + 12));
            break;
        case 'D': st_delete(&store, k, kl); break;
        case 'F':
            atomic_store(&store.flush_at, (int64_t)get64(v)); /* 0: at once, none pending */
            if (!get64(v))
                st_flush(&store);
            break;
        }
        if (rc < 0)
            return -1;
        r += REC_HDR + kl + vl;
    }
    return (int)count;
}

/* An 'M' record of item it at p: the end of the record. */
static unsigned char *rec_item(unsigned char *p, const st_item *it)
{
    p[0] = 'M';
    put32(p + 1, it->klen);
    put32(p + 5, REC_META + it->vlen);
    memcpy(p + REC_HDR, it->data, it->klen);
    unsigned char *m = p + REC_HDR + it->klen;
    put32(m, it->flags);
    put64(m + 4, (uint64_t)it->exptime);
    put64(m + 12, (uint64_t)it->time);
    memcpy(m + REC_META, st_val(it), it->vlen);
    return m + REC_META + it->vlen;
}

static size_t rec_item_size(const st_item *it) { return REC_HDR + it->klen + REC_META + it->vlen; }

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

static int snap_item(const st_item *it, void *arg)
{
    snap *s = arg;
    if (s->used + rec_item_size(it) > (1u << 20) && snap_flush(s) < 0)
        return -1;
    rec_item(s->buf + FRAME_HDR + s->used, it);
    s->used += rec_item_size(it);
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
    s.buf = malloc(FRAME_HDR + (1u << 20) + REC_HDR + ST_KEY_MAX + REC_VAL_MAX);
    unsigned char h[LOG_HDR];
    log_header(h);
    int rc = -1;
    if (s.buf && write_all(s.fd, h, LOG_HDR, 0) == 0) {
        s.off = LOG_HDR;
        if (st_foreach(&store, snap_item, &s) == 0 && snap_flush(&s) == 0 &&
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
            if (p[1] == 'P' &&
                replay_put((char *)p + 10, kl, (char *)p + 10 + kl, vl, 0, 0, 0) < 0) {
                free(buf);
                errno = ENOMEM;
                return -1;
            }
            if (p[1] == 'D')
                st_delete(&store, (char *)p + 10, kl);
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

#endif
