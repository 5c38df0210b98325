/* examples/kvserver/mutate.h - what a changing command of memcached's protocol does to
 * the item of its key: set, add, replace, append, prepend, cas, delete, incr, decr,
 * touch, gat/gats (a touch that answers the value) and flush_all.
 *
 * mut_decide is a function of the command and of the key's current valid item alone:
 * it makes the new item (or decides the removal) and the reply, and changes nothing.
 * The caller applies the outcome: at once under the shard lock without a log, or after
 * the log made it durable (kvserver.c's group commit, which decides a whole batch in
 * order first).  Items are immutable, so every change is a new item. */
#ifndef KV_MUTATE_H
#define KV_MUTATE_H

#include <inttypes.h>
#include <stdio.h>

#include "store.h"

enum mut_cmd {
    M_SET,
    M_ADD,
    M_REPLACE,
    M_APPEND,
    M_PREPEND,
    M_CAS,
    M_DELETE,
    M_INCR,
    M_DECR,
    M_TOUCH,
    M_GAT,
    M_FLUSH,
    M_TOOBIG, /* a set refused as too large: removes the old item, as memcached does */
};

typedef struct {
    enum mut_cmd cmd;
    const char *key;
    size_t klen;
    const char *data; /* storage commands: the value */
    size_t vlen;
    uint32_t flags;
    int64_t exptime; /* absolute (0: never); M_FLUSH: the time of a delayed flush, 0 now */
    uint64_t arg;    /* cas: the unique; incr/decr: the delta */
    int noreply;
    int with_cas; /* gats */
} mut;

enum mut_kind { R_NONE, R_PUT, R_DEL, R_FLUSH, R_FLUSH_AT };

typedef struct {
    enum mut_kind kind;
    st_item *item;     /* R_PUT: the new item (one reference, the caller's) */
    const char *reply; /* a fixed reply line with "\r\n", or NULL: */
    char num[24];      /* incr/decr: the new value */
    int value;         /* gat: reply with the value of item */
} mut_res;

/* memcached's rule: 0 never; negative: already expired; up to 30 days: relative to now;
 * more: an absolute Unix time. */
static inline int64_t mut_exptime(int64_t e, int64_t now)
{
    if (e == 0)
        return 0;
    if (e < 0)
        return now - 1 > 0 ? now - 1 : 1;
    if (e > 60 * 60 * 24 * 30)
        return e <= now ? (now - 1 > 0 ? now - 1 : 1) : e;
    return now + e;
}

static inline int mut_parse_u64(const char *p, size_t n, uint64_t *out)
{
    if (!n || n > 20)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        uint64_t d = (uint64_t)(p[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* An item's value as incr/decr's number: digits, with blanks around them allowed. */
static inline int mut_number(const char *p, size_t n, uint64_t *out)
{
    size_t a = 0, b = n;
    while (a < b && (p[a] == ' ' || p[a] == '\t'))
        a++;
    while (b > a && (p[b - 1] == ' ' || p[b - 1] == '\t' || p[b - 1] == '\r' || p[b - 1] == '\n'))
        b--;
    while (b - a > 1 && p[a] == '0') /* leading zeros do not count towards 20 digits */
        a++;
    return mut_parse_u64(p + a, b - a, out);
}

static const char MR_STORED[] = "STORED\r\n", MR_NOT_STORED[] = "NOT_STORED\r\n",
                  MR_EXISTS[] = "EXISTS\r\n", MR_NOT_FOUND[] = "NOT_FOUND\r\n",
                  MR_DELETED[] = "DELETED\r\n", MR_TOUCHED[] = "TOUCHED\r\n", MR_OK[] = "OK\r\n",
                  MR_OOM[] = "SERVER_ERROR out of memory storing object\r\n",
                  MR_TOOBIG[] = "SERVER_ERROR object too large for cache\r\n",
                  MR_NONNUM[] = "CLIENT_ERROR cannot increment or decrement non-numeric value\r\n";

static inline st_item *mut_new(st_store *st, const mut *m, size_t vlen, uint32_t flags,
                               int64_t exptime, mut_res *r)
{
    if (st_item_size(m->klen, vlen) > st->limit) {
        r->reply = MR_OOM;
        return NULL;
    }
    st_item *it = st_alloc(m->key, m->klen, vlen, flags, exptime);
    if (!it) {
        r->reply = MR_OOM;
        return NULL;
    }
    it->cas = atomic_fetch_add_explicit(&st->cas_next, 1, memory_order_relaxed) + 1;
    it->time = st_now();
    r->kind = R_PUT;
    r->item = it;
    return it;
}

/* Decide command m given cur, its key's valid item (NULL: none). */
static inline void mut_decide(st_store *st, const mut *m, const st_item *cur, mut_res *r)
{
    memset(r, 0, sizeof *r);
    st_item *it;
    switch (m->cmd) {
    case M_ADD:
    case M_REPLACE:
        if ((m->cmd == M_ADD) == (cur != NULL)) {
            r->reply = MR_NOT_STORED;
            return;
        }
        /* fall through */
    case M_SET:
        if ((it = mut_new(st, m, m->vlen, m->flags, m->exptime, r))) {
            memcpy(it->data + m->klen, m->data, m->vlen);
            r->reply = MR_STORED;
        }
        return;
    case M_CAS:
        if (!cur) {
            r->reply = MR_NOT_FOUND;
        } else if (cur->cas != m->arg) {
            r->reply = MR_EXISTS;
        } else if ((it = mut_new(st, m, m->vlen, m->flags, m->exptime, r))) {
            memcpy(it->data + m->klen, m->data, m->vlen);
            r->reply = MR_STORED;
        }
        return;
    case M_APPEND:
    case M_PREPEND: {
        if (!cur) {
            r->reply = MR_NOT_STORED;
            return;
        }
        size_t n = (size_t)cur->vlen + m->vlen;
        if (st_item_size(m->klen, n) > ST_ITEM_MAX) {
            r->reply = MR_OOM;
            return;
        }
        if ((it = mut_new(st, m, n, cur->flags, cur->exptime, r))) {
            char *v = it->data + m->klen;
            if (m->cmd == M_APPEND) {
                memcpy(v, st_val(cur), cur->vlen);
                memcpy(v + cur->vlen, m->data, m->vlen);
            } else {
                memcpy(v, m->data, m->vlen);
                memcpy(v + m->vlen, st_val(cur), cur->vlen);
            }
            r->reply = MR_STORED;
        }
        return;
    }
    case M_DELETE:
        if (cur) {
            r->kind = R_DEL;
            r->reply = MR_DELETED;
        } else {
            r->reply = MR_NOT_FOUND;
        }
        return;
    case M_TOOBIG:
        r->kind = cur ? R_DEL : R_NONE;
        r->reply = MR_TOOBIG;
        return;
    case M_INCR:
    case M_DECR: {
        uint64_t v;
        if (!cur) {
            r->reply = MR_NOT_FOUND;
            return;
        }
        if (mut_number(st_val(cur), cur->vlen, &v) < 0) {
            r->reply = MR_NONNUM;
            return;
        }
        if (m->cmd == M_INCR)
            v += m->arg; /* wraps at 2^64, as memcached's does */
        else
            v = v > m->arg ? v - m->arg : 0;
        int n = snprintf(r->num, sizeof r->num, "%" PRIu64, v);
        /* a shorter number keeps the value's length, blank-padded (memcached's) */
        size_t len = (size_t)n < cur->vlen ? cur->vlen : (size_t)n;
        if ((it = mut_new(st, m, len, cur->flags, cur->exptime, r))) {
            char *p = it->data + m->klen;
            memcpy(p, r->num, (size_t)n);
            memset(p + n, ' ', len - (size_t)n);
        } else {
            r->num[0] = 0;
        }
        return;
    }
    case M_TOUCH:
    case M_GAT:
        if (!cur) {
            r->reply = m->cmd == M_TOUCH ? MR_NOT_FOUND : NULL;
            return;
        }
        if (st_item_size(cur->klen, cur->vlen) > st->limit ||
            !(it = malloc(sizeof *it + cur->klen + cur->vlen + 2))) {
            r->reply = MR_OOM;
            return;
        }
        memcpy(it, cur, sizeof *it + cur->klen + cur->vlen + 2);
        it->hnext = it->lprev = it->lnext = NULL;
        atomic_init(&it->refs, 1);
        it->exptime = m->exptime; /* the cas unique and the time stay */
        r->kind = R_PUT;
        r->item = it;
        if (m->cmd == M_TOUCH)
            r->reply = MR_TOUCHED;
        else
            r->value = 1;
        return;
    case M_FLUSH:
        r->kind = m->exptime ? R_FLUSH_AT : R_FLUSH;
        r->reply = MR_OK;
        return;
    }
}

#endif
