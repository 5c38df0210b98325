/* examples/kvserver/kv.h - a key-value store and a line protocol of its own, for the
 * comparison servers of bench/io (thread per connection, epoll loop; the kvserver itself
 * speaks memcached's protocol: kvserver.c).
 * Header-only; the includer defines the lock it wants before including it:
 *   KV_LOCK_T, KV_LOCK_INIT(l), KV_LOCK_FREE(l), KV_LOCK(l), KV_UNLOCK(l)  (none: no locks)
 *
 * Protocol: one request per line ('\n', an optional '\r' before it is ignored):
 *   PUT <key> <value>   -> "OK"                 (value: the rest of the line, may be empty)
 *   GET <key>           -> "VALUE <value>" | "NOT_FOUND"
 *   DEL <key>           -> "DELETED" | "NOT_FOUND"
 *   anything else       -> "ERROR <reason>"
 * Keys are 1..KV_KEY_MAX bytes without spaces; a line is at most KV_LINE_MAX bytes. */
#ifndef KV_H
#define KV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef KV_LOCK_T
#define KV_LOCK_T       int
#define KV_LOCK_INIT(l) ((void)(l))
#define KV_LOCK_FREE(l) ((void)(l))
#define KV_LOCK(l)      ((void)(l))
#define KV_UNLOCK(l)    ((void)(l))
#endif

#define KV_KEY_MAX  250
#define KV_LINE_MAX 65536
#define KV_SHARDS   64
#define KV_BUCKETS  4096 /* per shard */

typedef struct kv_item {
    struct kv_item *next;
    uint32_t klen, vlen;
    char data[]; /* key, then value */
} kv_item;

typedef struct {
    KV_LOCK_T lock;
    kv_item **b;
    size_t n;
} kv_shard;

typedef struct {
    kv_shard s[KV_SHARDS];
} kv_store;

static inline uint64_t kv_hash(const char *k, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)k[i]) * 1099511628211ull;
    return h;
}

static inline int kv_init(kv_store *st)
{
    for (int i = 0; i < KV_SHARDS; i++) {
        KV_LOCK_INIT(st->s[i].lock);
        st->s[i].b = calloc(KV_BUCKETS, sizeof(kv_item *));
        st->s[i].n = 0;
        if (!st->s[i].b)
            return -1;
    }
    return 0;
}

static inline void kv_destroy(kv_store *st)
{
    for (int i = 0; i < KV_SHARDS; i++) {
        for (size_t j = 0; st->s[i].b && j < KV_BUCKETS; j++)
            for (kv_item *it = st->s[i].b[j], *nx; it; it = nx) {
                nx = it->next;
                free(it);
            }
        free(st->s[i].b);
        KV_LOCK_FREE(st->s[i].lock);
    }
}

/* Set key to value: 0, or -1 when out of memory. */
static inline int kv_put(kv_store *st, const char *k, size_t kl, const char *v, size_t vl)
{
    uint64_t h = kv_hash(k, kl);
    kv_shard *s = &st->s[h % KV_SHARDS];
    kv_item *n = malloc(sizeof *n + kl + vl);
    if (!n)
        return -1;
    n->klen = (uint32_t)kl;
    n->vlen = (uint32_t)vl;
    memcpy(n->data, k, kl);
    memcpy(n->data + kl, v, vl);
    KV_LOCK(s->lock);
    kv_item **pp = &s->b[(h >> 8) % KV_BUCKETS];
    while (*pp && ((*pp)->klen != kl || memcmp((*pp)->data, k, kl)))
        pp = &(*pp)->next;
    kv_item *old = *pp;
    n->next = old ? old->next : NULL;
    *pp = n;
    if (!old)
        s->n++;
    KV_UNLOCK(s->lock);
    free(old);
    return 0;
}

/* Delete key: true if it was there. */
static inline bool kv_del(kv_store *st, const char *k, size_t kl)
{
    uint64_t h = kv_hash(k, kl);
    kv_shard *s = &st->s[h % KV_SHARDS];
    KV_LOCK(s->lock);
    kv_item **pp = &s->b[(h >> 8) % KV_BUCKETS];
    while (*pp && ((*pp)->klen != kl || memcmp((*pp)->data, k, kl)))
        pp = &(*pp)->next;
    kv_item *old = *pp;
    if (old) {
        *pp = old->next;
        s->n--;
    }
    KV_UNLOCK(s->lock);
    free(old);
    return old != NULL;
}

/* Copy the value of key into out (at most cap bytes): its length, or -1 if absent. */
static inline long kv_get(kv_store *st, const char *k, size_t kl, char *out, size_t cap)
{
    uint64_t h = kv_hash(k, kl);
    kv_shard *s = &st->s[h % KV_SHARDS];
    long r = -1;
    KV_LOCK(s->lock);
    for (kv_item *it = s->b[(h >> 8) % KV_BUCKETS]; it; it = it->next)
        if (it->klen == kl && !memcmp(it->data, k, kl)) {
            r = it->vlen;
            memcpy(out, it->data + kl, it->vlen < cap ? it->vlen : cap);
            break;
        }
    KV_UNLOCK(s->lock);
    return r;
}

/* Call fn(key, klen, value, vlen, arg) for every item, shard by shard (each shard locked
 * meanwhile); stops at, and returns, the first nonzero result of fn. */
static inline int
kv_foreach(kv_store *st, int (*fn)(const char *k, size_t kl, const char *v, size_t vl, void *arg),
           void *arg)
{
    for (int i = 0; i < KV_SHARDS; i++) {
        kv_shard *s = &st->s[i];
        int rc = 0;
        KV_LOCK(s->lock);
        for (size_t j = 0; j < KV_BUCKETS && !rc; j++)
            for (kv_item *it = s->b[j]; it && !rc; it = it->next)
                rc = fn(it->data, it->klen, it->data + it->klen, it->vlen, arg);
        KV_UNLOCK(s->lock);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- the protocol ---- */

enum kv_op { KV_BAD, KV_PUT, KV_GET, KV_DEL };

typedef struct {
    enum kv_op op;
    const char *key, *val;
    size_t klen, vlen;
    const char *err; /* KV_BAD: why */
} kv_req;

/* Parse one line (without its '\n'). */
static inline kv_req kv_parse(const char *l, size_t n)
{
    kv_req r = { KV_BAD, NULL, NULL, 0, 0, "unknown command" };
    if (n && l[n - 1] == '\r')
        n--;
    if (n >= 4 && !memcmp(l, "PUT ", 4))
        r.op = KV_PUT;
    else if (n >= 4 && !memcmp(l, "GET ", 4))
        r.op = KV_GET;
    else if (n >= 4 && !memcmp(l, "DEL ", 4))
        r.op = KV_DEL;
    else
        return r;
    const char *k = l + 4, *end = l + n;
    const char *sp = memchr(k, ' ', (size_t)(end - k));
    r.key = k;
    r.klen = (size_t)((sp ? sp : end) - k);
    if (r.klen == 0 || r.klen > KV_KEY_MAX) {
        r.op = KV_BAD;
        r.err = r.klen ? "key too long" : "missing key";
        return r;
    }
    if (r.op == KV_PUT) {
        if (!sp) {
            r.op = KV_BAD;
            r.err = "missing value";
            return r;
        }
        r.val = sp + 1;
        r.vlen = (size_t)(end - r.val);
    } else if (sp) {
        r.op = KV_BAD;
        r.err = "extra argument";
    }
    return r;
}

/* Execute a parsed request (PUT already made durable by the caller if it logs) and
 * append the reply line to out (room for KV_LINE_MAX + 16 bytes); returns its length. */
static inline size_t kv_exec(kv_store *st, const kv_req *r, char *out)
{
    switch (r->op) {
    case KV_PUT:
        if (kv_put(st, r->key, r->klen, r->val, r->vlen) < 0) {
            memcpy(out, "ERROR out of memory\n", 20);
            return 20;
        }
        memcpy(out, "OK\n", 3);
        return 3;
    case KV_GET: {
        long v = kv_get(st, r->key, r->klen, out + 6, KV_LINE_MAX);
        if (v < 0) {
            memcpy(out, "NOT_FOUND\n", 10);
            return 10;
        }
        memcpy(out, "VALUE ", 6);
        out[6 + v] = '\n';
        return (size_t)v + 7;
    }
    case KV_DEL:
        if (kv_del(st, r->key, r->klen)) {
            memcpy(out, "DELETED\n", 8);
            return 8;
        }
        memcpy(out, "NOT_FOUND\n", 10);
        return 10;
    default: {
        size_t n = strlen(r->err);
        memcpy(out, "ERROR ", 6);
        memcpy(out + 6, r->err, n);
        out[6 + n] = '\n';
        return n + 7;
    }
    }
}

#endif
