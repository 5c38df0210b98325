/* src/core/tool/trace_write.c - the trace's writer side: chunks in and out, the JSON
 * made of their records, function names resolved, the writer and mapper threads, the
 * file's head and tail (the model: trace.c).  The output buffer, the name table and each
 * buffer's writing fields belong to whoever holds fmt_lock; the queue and the spare
 * chunks to qlock. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/runtime.h"
#include "core/tool/trace_buf.h"

/* ---------------------------------------------------------------- the writer's side */

/* A chunk mapped with its pages faulted in at once (MAP_POPULATE: one call instead of
 * 512 page faults while a stream records).  Not a transparent huge page: with the usual
 * defrag=madvise policy a fault may compact memory synchronously, a stall of
 * milliseconds inside whatever unit runs.  The mapper keeps SPARE_AHEAD chunks ready
 * (weft_trace_mapper_main), so a stream seldom maps one itself. */
struct chunk *weft_trace_chunk_new(void)
{
    _Static_assert(sizeof(struct chunk) <= CHUNK_BYTES, "a chunk fits its mapping");
    void *p = mmap(NULL, CHUNK_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void weft_trace_chunk_free(struct chunk *c)
{
    if (c)
        munmap(c, CHUNK_BYTES);
}

static void out_flush(void)
{
    size_t done = 0;
    while (done < weft_trace_g.outlen && !weft_trace_g.write_err) {
        ssize_t w = write(weft_trace_g.fd, weft_trace_g.out + done, weft_trace_g.outlen - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            weft_trace_g.write_err = errno;
            break;
        }
        done += (size_t)w;
    }
    weft_trace_g.outlen = 0;
}

/* The formatting helpers write at a cursor the caller keeps in a local variable (a store
 * through weft_trace_g.out could alias weft_trace_g.outlen otherwise, and every byte would reload
 * it); each event makes room for itself first (out_begin: at least 256 bytes, so that the helpers
 * may copy fixed-size blocks past what they keep) and commits its cursor (out_end).  The
 * file's first event is written at ABT_init, so every later one starts with its comma. */
static inline char *out_begin(size_t n)
{
    if (weft_trace_g.outlen + n > OUT_CAP)
        out_flush();
    return weft_trace_g.out + weft_trace_g.outlen;
}

static inline void out_end(char *p) { weft_trace_g.outlen = (size_t)(p - weft_trace_g.out); }

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
    weft_trace_g.nevents++;
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
    if (weft_trace_g.last_name && weft_trace_g.last_name->fn == fn)
        return weft_trace_g.last_name;
    if (weft_trace_g.names_n * 2 >= weft_trace_g.names_cap) {
        size_t cap = weft_trace_g.names_cap ? 2 * weft_trace_g.names_cap : 64;
        struct name *t = calloc(cap, sizeof *t);
        if (!t)
            return &name_unknown;
        for (size_t i = 0; i < weft_trace_g.names_cap; i++) {
            if (!weft_trace_g.names[i].s)
                continue;
            size_t h = ((uintptr_t)weft_trace_g.names[i].fn >> 4) * 0x9e3779b97f4a7c15ull >> 20;
            while (t[h & (cap - 1)].s)
                h++;
            t[h & (cap - 1)] = weft_trace_g.names[i];
        }
        free(weft_trace_g.names);
        weft_trace_g.names = t;
        weft_trace_g.names_cap = cap;
        weft_trace_g.last_name = NULL;
    }
    size_t h = ((uintptr_t)fn >> 4) * 0x9e3779b97f4a7c15ull >> 20;
    for (;; h++) {
        struct name *e = &weft_trace_g.names[h & (weft_trace_g.names_cap - 1)];
        if (e->s && e->fn == fn)
            return weft_trace_g.last_name = e;
        if (!e->s) {
            char *s = resolve(fn);
            if (!s)
                return &name_unknown;
            e->fn = fn;
            e->s = s;
            e->len = strlen(s);
            weft_trace_g.names_n++;
            return weft_trace_g.last_name = e;
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
    return ticks > weft_trace_g.tick0
               ? (uint64_t)((double)(ticks - weft_trace_g.tick0) * weft_trace_g.ns_per_tick)
               : 0;
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
        weft_trace_g.nevents++;
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
    struct chunk *c = weft_trace_g.fcur;
    if (!c) {
        pthread_mutex_lock(&weft_trace_g.qlock);
        c = weft_trace_g.qhead;
        if (c) {
            weft_trace_g.qhead = c->next;
            if (!weft_trace_g.qhead)
                weft_trace_g.qtail = NULL;
            weft_trace_g.qlen--;
        }
        pthread_mutex_unlock(&weft_trace_g.qlock);
        if (!c)
            return false;
        weft_trace_g.fcur = c;
        weft_trace_g.fpos = 0;
    }
    weft_trace_g.fpos = format_chunk(c, weft_trace_g.fpos, weft_trace_g.fpos + FMT_SLICE);
    if (weft_trace_g.fpos < c->n)
        return true;
    weft_trace_g.fcur = NULL;
    pthread_mutex_lock(&weft_trace_g.qlock);
    if (weft_trace_g.nspare < MAX_SPARE) {
        c->next = weft_trace_g.spare;
        weft_trace_g.spare = c;
        weft_trace_g.nspare++;
        c = NULL;
    }
    pthread_mutex_unlock(&weft_trace_g.qlock);
    weft_trace_chunk_free(c);
    return true;
}

/* Format every queued chunk, in queue order, and write the result. */
void weft_trace_drain(void)
{
    pthread_mutex_lock(&weft_trace_g.fmt_lock);
    while (format_next())
        ;
    out_flush();
    pthread_mutex_unlock(&weft_trace_g.fmt_lock);
}

void *weft_trace_writer_main(void *arg)
{
    (void)arg;
    /* the writer takes only CPU time the streams leave idle (SCHED_IDLE): it must not
     * slow the program it traces; what it has not written when ABT_finalize comes is
     * written there, and a backlog past MAX_QUEUED chunks by the streams that fill them */
    struct sched_param sp = { 0 };
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
    pthread_setname_np(pthread_self(), "weft-trace-out"); /* as top -H and gdb show it */
    pthread_mutex_lock(&weft_trace_g.qlock);
    while (!weft_trace_g.stop) {
        if (!weft_trace_g.qhead) {
            pthread_cond_wait(&weft_trace_g.qcond, &weft_trace_g.qlock);
            continue;
        }
        pthread_mutex_unlock(&weft_trace_g.qlock);
        pthread_mutex_lock(&weft_trace_g.fmt_lock);
        format_next(); /* the output goes to the file as it fills (out_begin) */
        pthread_mutex_unlock(&weft_trace_g.fmt_lock);
        pthread_mutex_lock(&weft_trace_g.qlock);
    }
    pthread_mutex_unlock(&weft_trace_g.qlock);
    pthread_mutex_lock(&weft_trace_g.fmt_lock);
    out_flush();
    pthread_mutex_unlock(&weft_trace_g.fmt_lock);
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
void *weft_trace_mapper_main(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "weft-trace-map");
    cpu_set_t base;
    bool can_avoid = sched_getaffinity(0, sizeof base, &base) == 0;
    int avoided = -1;
    pthread_mutex_lock(&weft_trace_g.qlock);
    while (!weft_trace_g.stop) {
        if (weft_trace_g.nspare >= SPARE_AHEAD) {
            pthread_cond_wait(&weft_trace_g.mcond, &weft_trace_g.qlock);
            continue;
        }
        int want = weft_trace_g.want_cpu;
        pthread_mutex_unlock(&weft_trace_g.qlock);
        if (can_avoid)
            mapper_avoid(&base, want, &avoided);
        struct chunk *c = weft_trace_chunk_new();
        pthread_mutex_lock(&weft_trace_g.qlock);
        if (!c) {
            pthread_cond_wait(&weft_trace_g.mcond,
                              &weft_trace_g.qlock); /* no memory now: try at the next need */
            continue;
        }
        c->next = weft_trace_g.spare;
        weft_trace_g.spare = c;
        weft_trace_g.nspare++;
    }
    pthread_mutex_unlock(&weft_trace_g.qlock);
    return NULL;
}

void weft_trace_enqueue(struct chunk *c)
{
    c->next = NULL;
    if (weft_trace_g.qtail)
        weft_trace_g.qtail->next = c;
    else
        weft_trace_g.qhead = c;
    weft_trace_g.qtail = c;
    weft_trace_g.qlen++;
}

/* The file's head: the header and its first event (so that every later one starts with
 * its comma), in the output buffer (ABT_init, before the writer starts). */
void weft_trace_write_head(void)
{
    weft_trace_g.outlen =
        (size_t)snprintf(weft_trace_g.out, OUT_CAP,
                         "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":"
                         "\"weft " ABT_VERSION "\"},\"traceEvents\":[\n"
                         "{\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"name\":\"process_name\","
                         "\"args\":{\"name\":\"weft\"}}",
                         (int)weft_trace_g.pid);
}

static void meta(const char *what, int tid, const char *name, int sort)
{
    char *p = out_begin(256 + strlen(name));
    p = PUT_LIT(p, ",\n{\"ph\":\"M\",\"pid\":");
    p = put_i64(p, weft_trace_g.pid);
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

/* The end of the file (the last ABT_finalize, every chunk formatted): the runs still open
 * end at `end_ticks`, each track gets its name, the file is closed; a failed write or
 * lost events get one message each. */
void weft_trace_write_tail(uint64_t end_ticks)
{
    pthread_mutex_lock(&weft_trace_g.fmt_lock);
    uint64_t end = to_ns(end_ticks);
    char name[64];
    for (struct weft_trace_buf *b = weft_trace_g.bufs; b; b = b->next) {
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
    uint64_t dropped = weft_atomic_load_relaxed(&weft_trace_g.dropped);
    out_end(PUT_LIT(out_begin(16), "\n]}\n"));
    out_flush();
    if (close(weft_trace_g.fd) != 0 && !weft_trace_g.write_err)
        weft_trace_g.write_err = errno;
    weft_trace_g.fd = -1;
    if (weft_trace_g.write_err)
        weft_warn("WEFT_TRACE=%s: writing the trace failed (%s); the file is incomplete",
                  weft_trace_g.path, strerror(weft_trace_g.write_err));
    if (dropped)
        weft_warn("WEFT_TRACE=%s: %llu event(s) were lost for want of memory", weft_trace_g.path,
                  (unsigned long long)dropped);
    pthread_mutex_unlock(&weft_trace_g.fmt_lock);
}
