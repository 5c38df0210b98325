/* examples/kvserver/store.h - the kvserver's item store: a hash table in shards, each
 * shard with its own lock and LRU list, a memory bound over all of them with LRU
 * eviction, expiry times, flush_all's invalidation and cas uniques.
 *
 * Items are immutable once linked: a change makes a new item and links it in place of
 * the old one.  (A cas unique and a time of 0 are given at link.)  A reader takes a reference under
 * the shard lock (st_get) and reads the item without it; the last reference frees it.  So a value
 * of 1 MiB is copied to the socket without holding any lock.
 *
 * Memory: an item counts ST_ITEM_OVERHEAD + key + value bytes.  After a link makes the
 * total exceed the bound, the least recently used items go: each shard keeps its items in
 * the order of their last link, and a read only marks its item used (second chance: no
 * relink, no clock read on the get path).  Eviction looks at each shard's oldest item; a
 * used one is moved to the front, unmarked, with the time of that move, and the next one
 * looked at; of the shards' oldest unused items, the one with the oldest time
 * (CLOCK_MONOTONIC) goes, until the total is under the bound again.
 *
 * Time is Unix time in seconds (CLOCK_REALTIME_COARSE).  An item is invalid when its
 * expiry time has come, or when a delayed flush_all's time has come and the item was
 * stored before it; an invalid item is removed when a request meets it (lazy expiry) or
 * when the sweeper passes (st_sweep). */
#ifndef KV_STORE_H
#define KV_STORE_H

#include <abt.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ST_SHARDS        64
#define ST_BUCKETS0      1024 /* buckets per shard at start; doubled as the shard fills */
#define ST_KEY_MAX       250
#define ST_ITEM_MAX      (1u << 20) /* memcached's item size limit: 1 MiB with overhead */
#define ST_ITEM_OVERHEAD 56         /* bytes counted per item beyond its key and value */

typedef struct st_item {
    struct st_item *hnext;         /* hash chain */
    struct st_item *lprev, *lnext; /* LRU of its shard: head most recent */
    _Atomic uint32_t refs;         /* the table's link (while linked) + readers */
    uint32_t flags;
    uint32_t klen, vlen;
    uint64_t hash, cas;
    int64_t exptime; /* absolute Unix time; 0: never */
    int64_t time;    /* when stored */
    uint64_t atime;  /* last link or second chance (ns, CLOCK_MONOTONIC) */
    uint8_t used;    /* read since atime (under the shard lock) */
    char data[];     /* key, then value, then "\r\n" */
} st_item;

typedef struct {
    ABT_mutex lock;
    st_item **b;
    size_t nb, n; /* buckets, items */
    st_item *head, *tail;
    char pad[64];
} st_shard;

typedef struct {
    st_shard s[ST_SHARDS];
    size_t limit;                /* bytes; the -m bound */
    _Atomic size_t used;         /* bytes of linked items */
    _Atomic uint64_t cas_next;   /* last cas unique handed out */
    _Atomic int64_t flush_at;    /* a delayed flush_all's time; 0: none */
    _Atomic unsigned evict_next; /* next shard to evict from */
    _Atomic uint64_t evictions, reclaimed, total_items, expired_unfetched;
} st_store;

static inline int64_t st_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME_COARSE, &t);
    return (int64_t)t.tv_sec;
}

static inline uint64_t st_mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline uint64_t st_hash(const char *k, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)k[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

static inline size_t st_item_size(size_t kl, size_t vl) { return ST_ITEM_OVERHEAD + kl + vl; }

static inline const char *st_key(const st_item *it) { return it->data; }
static inline const char *st_val(const st_item *it) { return it->data + it->klen; }

/* A new, unlinked item (one reference: the caller's) with room for a value of vl bytes
 * (the caller fills it); NULL when out of memory. */
static inline st_item *st_alloc(const char *k, size_t kl, size_t vl, uint32_t flags,
                                int64_t exptime)
{
    st_item *it = malloc(sizeof *it + kl + vl + 2);
    if (!it)
        return NULL;
    it->hnext = it->lprev = it->lnext = NULL;
    atomic_init(&it->refs, 1);
    it->flags = flags;
    it->klen = (uint32_t)kl;
    it->vlen = (uint32_t)vl;
    it->hash = st_hash(k, kl);
    it->cas = 0;
    it->exptime = exptime;
    it->time = 0;
    memcpy(it->data, k, kl);
    it->data[kl + vl] = '\r';
    it->data[kl + vl + 1] = '\n';
    return it;
}

static inline void st_ref(st_item *it)
{
    atomic_fetch_add_explicit(&it->refs, 1, memory_order_relaxed);
}

static inline void st_release(st_item *it)
{
    if (it && atomic_fetch_sub_explicit(&it->refs, 1, memory_order_acq_rel) == 1)
        free(it);
}

static inline int st_init(st_store *st, size_t limit)
{
    memset(st, 0, sizeof *st);
    st->limit = limit;
    for (int i = 0; i < ST_SHARDS; i++) {
        st_shard *s = &st->s[i];
        if (ABT_mutex_create(&s->lock) != ABT_SUCCESS)
            return -1;
        s->nb = ST_BUCKETS0;
        s->b = calloc(s->nb, sizeof *s->b);
        if (!s->b)
            return -1;
    }
    return 0;
}

static inline st_shard *st_shard_of(st_store *st, uint64_t h) { return &st->s[h % ST_SHARDS]; }

static inline st_item **st_slot(st_shard *s, uint64_t h, const char *k, size_t kl)
{
    st_item **pp = &s->b[(h / ST_SHARDS) & (s->nb - 1)];
    while (*pp && ((*pp)->hash != h || (*pp)->klen != kl || memcmp((*pp)->data, k, kl)))
        pp = &(*pp)->hnext;
    return pp;
}

static inline void lru_unlink(st_shard *s, st_item *it)
{
    if (it->lprev)
        it->lprev->lnext = it->lnext;
    else
        s->head = it->lnext;
    if (it->lnext)
        it->lnext->lprev = it->lprev;
    else
        s->tail = it->lprev;
    it->lprev = it->lnext = NULL;
}

static inline void lru_push(st_shard *s, st_item *it)
{
    it->lprev = NULL;
    it->lnext = s->head;
    if (s->head)
        s->head->lprev = it;
    s->head = it;
    if (!s->tail)
        s->tail = it;
}

/* Shard locked: unlink the item at *pp (drops the table's reference). */
static inline void st_unlink_at(st_store *st, st_shard *s, st_item **pp)
{
    st_item *it = *pp;
    *pp = it->hnext;
    lru_unlink(s, it);
    s->n--;
    atomic_fetch_sub_explicit(&st->used, st_item_size(it->klen, it->vlen), memory_order_relaxed);
    st_release(it);
}

static inline void st_unlink(st_store *st, st_shard *s, st_item *it)
{
    st_unlink_at(st, s, st_slot(s, it->hash, it->data, it->klen));
}

static inline int st_invalid(st_store *st, const st_item *it, int64_t now)
{
    if (it->exptime && it->exptime <= now)
        return 1;
    int64_t f = atomic_load_explicit(&st->flush_at, memory_order_relaxed);
    return f && f <= now && it->time < f;
}

/* Shard locked: the valid item of key, or NULL (an invalid one met is removed). */
static inline st_item *st_find_locked(st_store *st, st_shard *s, uint64_t h, const char *k,
                                      size_t kl)
{
    st_item **pp = st_slot(s, h, k, kl);
    if (!*pp)
        return NULL;
    if (st_invalid(st, *pp, st_now())) {
        atomic_fetch_add_explicit(&st->reclaimed, 1, memory_order_relaxed);
        st_unlink_at(st, s, pp);
        return NULL;
    }
    return *pp;
}

static inline void st_grow(st_shard *s)
{
    size_t nb = s->nb * 2;
    st_item **b = calloc(nb, sizeof *b);
    if (!b)
        return; /* longer chains, still correct */
    for (size_t i = 0; i < s->nb; i++)
        for (st_item *it = s->b[i], *nx; it; it = nx) {
            nx = it->hnext;
            st_item **pp = &b[(it->hash / ST_SHARDS) & (nb - 1)];
            it->hnext = *pp;
            *pp = it;
        }
    free(s->b);
    s->b = b;
    s->nb = nb;
}

static inline void st_evict_item(st_store *st, st_shard *s, st_item *v)
{
    if (v->exptime && v->exptime <= st_now())
        atomic_fetch_add_explicit(&st->reclaimed, 1, memory_order_relaxed);
    else
        atomic_fetch_add_explicit(&st->evictions, 1, memory_order_relaxed);
    st_unlink(st, s, v);
}

/* Shard locked: link `it` (the table takes over the caller's reference) in place of
 * the item of the same key, if any; gives it a cas unique and its time.  *over: whether
 * the store is now over its bound (the caller then calls st_evict, without the lock). */
static inline void st_link_locked(st_store *st, st_shard *s, st_item *it, int64_t now, int *over)
{
    st_item **pp = st_slot(s, it->hash, it->data, it->klen);
    if (*pp)
        st_unlink_at(st, s, pp);
    if (!it->cas)
        it->cas = atomic_fetch_add_explicit(&st->cas_next, 1, memory_order_relaxed) + 1;
    if (!it->time)
        it->time = now;
    it->atime = st_mono();
    it->used = 0;
    pp = st_slot(s, it->hash, it->data, it->klen);
    it->hnext = NULL;
    *pp = it;
    lru_push(s, it);
    s->n++;
    atomic_fetch_add_explicit(&st->total_items, 1, memory_order_relaxed);
    size_t used = atomic_fetch_add_explicit(&st->used, st_item_size(it->klen, it->vlen),
                                            memory_order_relaxed) +
                  st_item_size(it->klen, it->vlen);
    *over = used > st->limit;
    if (s->n > s->nb * 2)
        st_grow(s);
}

/* Shard locked: its oldest item that was not read since its time, `keep` aside; a read one
 * on the way gets its second chance (to the front, unmarked, timed now). */
static inline st_item *st_lru_victim(st_shard *s, const st_item *keep)
{
    uint64_t now = 0;
    for (size_t n = s->n + 1; n; n--) {
        st_item *t = s->tail;
        if (t == keep)
            t = t->lprev;
        if (!t || !t->used)
            return t;
        t->used = 0;
        t->atime = now ? now : (now = st_mono());
        lru_unlink(s, t);
        lru_push(s, t);
    }
    return NULL;
}

/* Not holding any shard lock: while over the bound, evict the least recently used item
 * (the oldest of the shards' oldest); `keep`, just stored, stays. */
static inline void st_evict(st_store *st, const st_item *keep)
{
    while (atomic_load_explicit(&st->used, memory_order_relaxed) > st->limit) {
        int best = -1;
        uint64_t oldest = UINT64_MAX;
        for (int i = 0; i < ST_SHARDS; i++) {
            st_shard *s = &st->s[i];
            ABT_mutex_lock(s->lock);
            st_item *t = st_lru_victim(s, keep);
            if (t && t->atime < oldest) {
                oldest = t->atime;
                best = i;
            }
            ABT_mutex_unlock(s->lock);
        }
        if (best < 0)
            return; /* nothing left to evict */
        st_shard *s = &st->s[best];
        ABT_mutex_lock(s->lock);
        st_item *t = st_lru_victim(s, keep);
        if (t)
            st_evict_item(st, s, t);
        ABT_mutex_unlock(s->lock);
    }
}

/* Link `it` (takes the caller's reference) in place of its key's item. */
static inline void st_link(st_store *st, st_item *it)
{
    st_shard *s = st_shard_of(st, it->hash);
    int over;
    ABT_mutex_lock(s->lock);
    st_link_locked(st, s, it, st_now(), &over);
    ABT_mutex_unlock(s->lock);
    if (over)
        st_evict(st, it);
}

/* Remove key: 1 if a valid item was there. */
static inline int st_delete(st_store *st, const char *k, size_t kl)
{
    uint64_t h = st_hash(k, kl);
    st_shard *s = st_shard_of(st, h);
    ABT_mutex_lock(s->lock);
    st_item *it = st_find_locked(st, s, h, k, kl);
    if (it)
        st_unlink(st, s, it);
    ABT_mutex_unlock(s->lock);
    return it != NULL;
}

/* The valid item of key with a reference for the caller (st_release), bumped to the
 * head of its LRU; NULL if none. */
static inline st_item *st_get(st_store *st, const char *k, size_t kl)
{
    uint64_t h = st_hash(k, kl);
    st_shard *s = st_shard_of(st, h);
    ABT_mutex_lock(s->lock);
    st_item *it = st_find_locked(st, s, h, k, kl);
    if (it) {
        if (!it->used)
            it->used = 1;
        st_ref(it);
    }
    ABT_mutex_unlock(s->lock);
    return it;
}

/* Remove every item. */
static inline void st_flush(st_store *st)
{
    for (int i = 0; i < ST_SHARDS; i++) {
        st_shard *s = &st->s[i];
        ABT_mutex_lock(s->lock);
        while (s->tail)
            st_unlink(st, s, s->tail);
        ABT_mutex_unlock(s->lock);
    }
}

/* The sweeper's pass over shards [from, from + n): removes the invalid items. */
static inline void st_sweep(st_store *st, int from, int n)
{
    int64_t now = st_now();
    for (int i = from; i < from + n && i < ST_SHARDS; i++) {
        st_shard *s = &st->s[i];
        ABT_mutex_lock(s->lock);
        for (size_t j = 0; j < s->nb; j++)
            for (st_item **pp = &s->b[j]; *pp;) {
                if (st_invalid(st, *pp, now)) {
                    atomic_fetch_add_explicit(&st->reclaimed, 1, memory_order_relaxed);
                    st_unlink_at(st, s, pp);
                } else {
                    pp = &(*pp)->hnext;
                }
            }
        ABT_mutex_unlock(s->lock);
    }
}

static inline size_t st_count(st_store *st)
{
    size_t n = 0;
    for (int i = 0; i < ST_SHARDS; i++) {
        ABT_mutex_lock(st->s[i].lock);
        n += st->s[i].n;
        ABT_mutex_unlock(st->s[i].lock);
    }
    return n;
}

/* Call fn(item, arg) for every valid item, oldest first per shard (each shard locked
 * meanwhile); stops at, and returns, the first nonzero result of fn. */
static inline int st_foreach(st_store *st, int (*fn)(const st_item *it, void *arg), void *arg)
{
    int64_t now = st_now();
    for (int i = 0; i < ST_SHARDS; i++) {
        st_shard *s = &st->s[i];
        int rc = 0;
        ABT_mutex_lock(s->lock);
        for (st_item *it = s->tail; it && !rc; it = it->lprev)
            if (!st_invalid(st, it, now))
                rc = fn(it, arg);
        ABT_mutex_unlock(s->lock);
        if (rc)
            return rc;
    }
    return 0;
}

static inline void st_destroy(st_store *st)
{
    for (int i = 0; i < ST_SHARDS; i++) {
        st_shard *s = &st->s[i];
        while (s->tail)
            st_unlink(st, s, s->tail);
        free(s->b);
        ABT_mutex_free(&s->lock);
    }
}

#endif
