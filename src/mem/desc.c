/* src/mem/desc.c - slow paths of descriptor allocation: slabs and the depot.
 * Fast paths are inline in mem.h.
 *
 * Descriptors are carved from slabs of SLAB_UNITS.  A slab is SLAB_UNITS * desc_size
 * bytes, a whole number of pages (desc_size is a multiple of 64), and starts zeroed (the
 * "released" state of core/unit/unit.h).  Slabs live in chunks: CHUNK_SIZE-aligned anonymous
 * mappings (MAP_NORESERVE) whose first page holds the chunk's record, so the slab of a
 * descriptor is found from its address alone.  A descriptor is never freed alone: a
 * full stream cache spills into the depot, and ABT_finalize unmaps every chunk at once,
 * which also reclaims units the program never freed.  The depot is a LIFO list under a
 * mutex; a stream moves descriptors to or from it in batches, so the mutex is taken at
 * most once per DEPOT_BATCH operations.
 *
 * Giving memory back (trim.c decides how many): when the depot holds more than its mark,
 * it counts its descriptors per slab, and slabs whose SLAB_UNITS descriptors are all in
 * the depot leave the list and have their pages dropped (MADV_DONTNEED); such a "dormant"
 * slab reads as zeros, which is exactly a fresh slab, so it is the first one carved
 * again.  A slab with one descriptor live or in a stream cache stays (caches trim
 * themselves first, so after a burst nearly every slab is free).  Chunks stay mapped
 * until ABT_finalize (their record page: 4 KiB per MiB of descriptors), so a handle into
 * a dormant slab still points at weft's memory (zeros: a free descriptor).  A descriptor
 * that comes back from a dormant slab is zeroed, then set up again by desc_init (core
 * seeds its handle generation from a process-wide counter, so handles kept from before
 * the trim stay stale; while dormant, the zero handle word matches no handle).  Rejected: freeing
 * slabs to malloc (stack dumps and stale handles would read freed memory), MADV_FREE (RSS falls
 * only under pressure). */
#include <string.h>
#include <sys/mman.h>

#include "mem/mem.h"

#define DEPOT_BATCH     64
#define SLAB_UNITS      64
#define CHUNK_MIN       (1u << 20)
#define CHUNK_MAX_SLABS 256 /* a slab is at least 64 * 64 bytes = 4 KiB */
/* The depot keeps this many descriptors whatever its mark. */
#define DEPOT_FLOOR     256

enum { SLAB_UNCARVED = 0, SLAB_ACTIVE, SLAB_DORMANT, SLAB_DROPPING };

struct chunk { /* at the start of its own mapping */
    struct chunk *next;
    char *slabs; /* the first slab: one page after the record */
    uint32_t nslabs, ncarved, ndormant;
    uint8_t state[CHUNK_MAX_SLABS];
    uint16_t count[CHUNK_MAX_SLABS]; /* depot descriptors per slab, during a trim */
};

struct weft_mem_config weft_mem_cfg;
uint64_t weft_mem_desc_trim_at = UINT64_MAX;

static pthread_mutex_t depot_lock = PTHREAD_MUTEX_INITIALIZER;
/* protected by depot_lock */
static struct weft_mem_node *depot_descs;
static size_t depot_num;
static struct chunk *chunks;
static size_t chunks_dormant; /* dormant slabs in all chunks */
static uint32_t depot_taken, depot_mark;
static uint64_t depot_next_trim;
static uint32_t depot_returns; /* lone frees (no cache), to pace trim checks */
static size_t chunk_size;      /* set by weft_mem_init */

static size_t slab_bytes(void) { return SLAB_UNITS * weft_mem_cfg.desc_size; }
static size_t pg_size(void)
{
    return weft_mem_cfg.sys_page_size ? weft_mem_cfg.sys_page_size : 4096;
}

static struct chunk *chunk_of(const void *d)
{
    return (struct chunk *)((uintptr_t)d & ~(uintptr_t)(chunk_size - 1));
}

static size_t slab_index(struct chunk *ch, const void *d)
{
    return (size_t)((const char *)d - ch->slabs) / slab_bytes();
}

static void depot_push(struct weft_mem_node *v)
{
    v->next = depot_descs;
    depot_descs = v;
    depot_num++;
}

/* Take up to `n` descriptors from the depot into the stream cache (as many as its array
 * has room for).  Lock held. */
static void refill_cache(struct weft_mem_cache *c, int n)
{
    for (int i = 0; c && i < n && depot_descs && c->num_descs < c->cap_descs; i++) {
        struct weft_mem_node *v = depot_descs;
        depot_descs = v->next;
        depot_num--;
        c->descs[c->num_descs++] = v;
        c->desc_mark++;
        depot_taken++;
    }
}

/* A new chunk, CHUNK-aligned.  Lock held. */
static struct chunk *new_chunk(void)
{
    char *raw = weft_map_anon(2 * chunk_size, MAP_NORESERVE);
    if (!raw)
        return NULL;
    char *al = (char *)(((uintptr_t)raw + chunk_size - 1) & ~(uintptr_t)(chunk_size - 1));
    if (al > raw)
        munmap(raw, (size_t)(al - raw));
    munmap(al + chunk_size, (size_t)(raw + 2 * chunk_size - (al + chunk_size)));
    struct chunk *ch = (struct chunk *)al;
    size_t head = (sizeof(*ch) + pg_size() - 1) / pg_size() * pg_size();
    ch->slabs = al + head;
    size_t n = (chunk_size - head) / slab_bytes();
    ch->nslabs = (uint32_t)(n < CHUNK_MAX_SLABS ? n : CHUNK_MAX_SLABS);
    ch->next = chunks;
    chunks = ch;
    return ch;
}

/* A zeroed slab, dormant or new: one descriptor for the caller, the rest to the depot.
 * Lock held. */
static void *new_slab(void)
{
    struct chunk *ch = NULL;
    size_t i = 0;
    if (chunks_dormant) {
        for (ch = chunks; ch && ch->ndormant == 0; ch = ch->next)
            ;
        WEFT_ASSERT(ch != NULL);
        while (ch->state[i] != SLAB_DORMANT)
            i++;
        ch->ndormant--;
        chunks_dormant--;
    } else {
        ch = chunks;
        if (!ch || ch->ncarved == ch->nslabs)
            ch = new_chunk();
        if (!ch)
            return NULL;
        i = ch->ncarved++;
    }
    ch->state[i] = SLAB_ACTIVE;
    size_t dsz = weft_mem_cfg.desc_size;
    char *units = ch->slabs + i * slab_bytes();
    if (weft_mem_cfg.desc_init) /* the owner's first state (core: the handle word) */
        for (int k = 0; k < SLAB_UNITS; k++)
            weft_mem_cfg.desc_init(units + (size_t)k * dsz);
    for (int k = SLAB_UNITS - 1; k >= 1; k--)
        depot_push((struct weft_mem_node *)(units + (size_t)k * dsz));
    return units;
}

void weft_mem_init(const struct weft_mem_config *cfg)
{
    WEFT_ASSERT(cfg->desc_size % WEFT_CACHE_LINE == 0);
    weft_mem_cfg = *cfg;
    size_t pg = pg_size();
    chunk_size = CHUNK_MIN;
    while (chunk_size < pg + SLAB_UNITS * cfg->desc_size || chunk_size < 2 * pg)
        chunk_size *= 2;
}

void *weft_desc_alloc_slow(struct weft_mem_cache *c)
{
    if (c) /* room for the refill (before the lock: it may allocate) */
        weft_mem_cache_grow(&c->descs, &c->cap_descs, DEPOT_BATCH - 1, weft_mem_cfg.max_descs);
    pthread_mutex_lock(&depot_lock);
    struct weft_mem_node *u = depot_descs;
    if (u) {
        depot_descs = u->next;
        depot_num--;
    } else {
        u = new_slab();
    }
    if (u) {
        depot_taken++;
        refill_cache(c, DEPOT_BATCH);
    }
    pthread_mutex_unlock(&depot_lock);
    return u;
}

void weft_desc_free_slow(struct weft_mem_cache *c, void *desc)
{
    if (c && weft_mem_cache_grow(&c->descs, &c->cap_descs, c->num_descs, weft_mem_cfg.max_descs)) {
        c->descs[c->num_descs++] = desc; /* the array had not grown to its bound yet */
        return;
    }
    pthread_mutex_lock(&depot_lock);
    depot_push(desc);
    /* a full stream cache also spills one batch (what a refill takes): enough that the
     * next frees find room.  Half of it, as before, made a stream that cycles through a
     * little more than its bound (N = ABT_MEM_MAX_NUM_DESCS units created, then freed)
     * refill half of its next creations from the shared depot, a lock round each 64:
     * bench/fork_join, tasklets, N = 4096, 2 streams each forking, 33 ns per unit against
     * 22 with a larger cache */
    if (c) {
        c->desc_mark = weft_mem_cfg.max_descs;
        uint32_t n = c->num_descs < DEPOT_BATCH ? c->num_descs : DEPOT_BATCH;
        while (n--)
            depot_push(c->descs[--c->num_descs]);
    }
    /* a spill, or every 64th lone free (external threads): time to check */
    bool due = weft_mem_cfg.trim_ns && depot_num > DEPOT_FLOOR + SLAB_UNITS &&
               (c || ++depot_returns % 64 == 0);
    pthread_mutex_unlock(&depot_lock);
    if (due) /* memory came back: the depot may trim (trim.c) */
        weft_desc_depot_trim(weft_mem_now());
}

void weft_desc_flush(struct weft_mem_cache *c)
{
    pthread_mutex_lock(&depot_lock);
    while (c->num_descs)
        depot_push(c->descs[--c->num_descs]);
    pthread_mutex_unlock(&depot_lock);
}

void weft_desc_cache_shrink(struct weft_mem_cache *c, uint32_t keep)
{
    if (c->num_descs <= keep)
        return;
    /* the oldest go (the bottom of the array), the `keep` most recent stay */
    uint32_t n = c->num_descs - keep;
    pthread_mutex_lock(&depot_lock);
    for (uint32_t i = 0; i < n; i++)
        depot_push(c->descs[i]);
    pthread_mutex_unlock(&depot_lock);
    memmove(c->descs, c->descs + n, (size_t)keep * sizeof *c->descs);
    c->num_descs = keep;
}

/* Drop up to `want` slabs whose descriptors are all in the depot.  Lock held. */
static void drop_free_slabs(size_t want)
{
    for (struct weft_mem_node *v = depot_descs; v; v = v->next) {
        struct chunk *ch = chunk_of(v);
        ch->count[slab_index(ch, v)]++;
    }
    size_t chosen = 0;
    for (struct chunk *ch = chunks; ch; ch = ch->next)
        for (uint32_t i = 0; i < ch->ncarved; i++) {
            if (chosen < want && ch->count[i] == SLAB_UNITS) {
                WEFT_ASSERT(ch->state[i] == SLAB_ACTIVE);
                ch->state[i] = SLAB_DROPPING;
                chosen++;
            }
            ch->count[i] = 0;
        }
    if (!chosen)
        return;
    struct weft_mem_node **pp = &depot_descs;
    while (*pp) {
        struct chunk *ch = chunk_of(*pp);
        if (ch->state[slab_index(ch, *pp)] == SLAB_DROPPING) {
            *pp = (*pp)->next;
            depot_num--;
        } else {
            pp = &(*pp)->next;
        }
    }
    for (struct chunk *ch = chunks; ch; ch = ch->next)
        for (uint32_t i = 0; i < ch->ncarved;) {
            if (ch->state[i] != SLAB_DROPPING) {
                i++;
                continue;
            }
            uint32_t j = i;
            for (; j < ch->ncarved && ch->state[j] == SLAB_DROPPING; j++) {
                ch->state[j] = SLAB_DORMANT;
                ch->ndormant++;
                chunks_dormant++;
            }
            /* adjacent slabs: one call */
            madvise(ch->slabs + i * slab_bytes(), (j - i) * slab_bytes(), MADV_DONTNEED);
            i = j;
        }
}

bool weft_desc_depot_trim(uint64_t now)
{
    if (!weft_mem_cfg.trim_ns)
        return false;
    pthread_mutex_lock(&depot_lock);
    if (now < depot_next_trim) {
        bool more = depot_num > DEPOT_FLOOR + SLAB_UNITS;
        pthread_mutex_unlock(&depot_lock);
        return more;
    }
    depot_next_trim = now + weft_mem_cfg.trim_ns;
    depot_mark = weft_mem_decay(depot_mark, depot_taken);
    depot_taken = 0;
    size_t keep = depot_mark > DEPOT_FLOOR ? depot_mark : DEPOT_FLOOR;
    if (depot_num >= keep + SLAB_UNITS)
        drop_free_slabs((depot_num - keep) / SLAB_UNITS);
    /* another step may give more back while the depot is above its floor and its mark
     * has not yet decayed to it */
    bool more = depot_num > DEPOT_FLOOR + SLAB_UNITS && depot_mark > DEPOT_FLOOR;
    weft_atomic_store_relaxed_plain(&weft_mem_desc_trim_at, more ? depot_next_trim : UINT64_MAX);
    pthread_mutex_unlock(&depot_lock);
    return more;
}

void weft_desc_finalize(void)
{
    pthread_mutex_lock(&depot_lock);
    while (chunks) {
        struct chunk *ch = chunks;
        chunks = ch->next;
        munmap(ch, chunk_size);
    }
    depot_descs = NULL;
    depot_num = 0;
    chunks_dormant = 0;
    depot_taken = depot_mark = 0;
    depot_next_trim = 0;
    weft_atomic_store_relaxed_plain(&weft_mem_desc_trim_at, UINT64_MAX);
    pthread_mutex_unlock(&depot_lock);
}

/* The slabs as a debugger walks them (tools/gdb/weft.py): every chunk from `chunks`
 * through `next`; in each, ncarved slabs of SLAB_UNITS descriptors of desc_size bytes
 * from `slabs`, of which the SLAB_ACTIVE ones hold live descriptors. */
const struct weft_debug_entry weft_desc_debug_layout[] = {
    { "desc.chunks", (uintptr_t)&chunks },
    { "desc.desc_size", (uintptr_t)&weft_mem_cfg.desc_size },
    { "desc.slab_units", SLAB_UNITS },
    { "desc.slab_active", SLAB_ACTIVE },
    { "chunk.next", offsetof(struct chunk, next) },
    { "chunk.slabs", offsetof(struct chunk, slabs) },
    { "chunk.ncarved", offsetof(struct chunk, ncarved) },
    { "chunk.state", offsetof(struct chunk, state) },
    { NULL, 0 },
};

/* Stack dumps: call fn on every descriptor of every carved slab that is not dormant
 * (a dormant slab holds only free descriptors), under the depot lock. */
void weft_desc_foreach(void (*fn)(void *desc, void *arg), void *arg)
{
    pthread_mutex_lock(&depot_lock);
    for (struct chunk *ch = chunks; ch; ch = ch->next)
        for (uint32_t i = 0; i < ch->ncarved; i++) {
            if (ch->state[i] != SLAB_ACTIVE)
                continue;
            char *units = ch->slabs + i * slab_bytes();
            for (int k = 0; k < SLAB_UNITS; k++)
                fn(units + (size_t)k * weft_mem_cfg.desc_size, arg);
        }
    pthread_mutex_unlock(&depot_lock);
}

/* (helper) fork() (core/stream/atfork.c): hold the depot across the fork; in the child, either
 * keep it or forget it (the runtime is abandoned, its memory stays reachable from the
 * returned cookie so that leak checkers do not report it). */
void weft_desc_atfork(int phase, void **forgotten)
{
    if (phase == 0) {
        pthread_mutex_lock(&depot_lock);
        return;
    }
    if (phase == 1) {
        pthread_mutex_unlock(&depot_lock);
        return;
    }
    pthread_mutex_init(&depot_lock, NULL);
    if (forgotten) {
        *forgotten = chunks;
        chunks = NULL;
        chunks_dormant = 0;
        depot_descs = NULL;
        depot_num = 0;
        depot_taken = depot_mark = 0;
        weft_atomic_store_relaxed_plain(&weft_mem_desc_trim_at, UINT64_MAX);
    }
}
