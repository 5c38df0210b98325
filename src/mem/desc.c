/* src/mem/desc.c - slow paths of descriptor allocation: slabs and the depot.
 * Fast paths are inline in mem.h.
 *
 * Descriptors are carved from slabs of SLAB_UNITS, each slab zeroed (the "recycled"
 * state of unit.h) and recorded in a global list.  A descriptor is never freed alone: a
 * full stream cache spills into the depot, and ABT_finalize frees every slab at once,
 * which also reclaims units the program never freed.  The depot is a LIFO list under a
 * mutex; a stream moves descriptors to or from it in batches, so the mutex is taken at
 * most once per DEPOT_BATCH operations. */
#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"

#define DEPOT_BATCH 64
#define SLAB_UNITS 64

struct slab {
    struct slab *next;
    char *units;                   /* SLAB_UNITS descriptors of weft_mem_cfg.desc_size */
};

struct weft_mem_config weft_mem_cfg;

static pthread_mutex_t depot_lock = PTHREAD_MUTEX_INITIALIZER;
static struct weft_mem_node *depot_descs;     /* protected by depot_lock */
static struct slab *slabs;         /* protected by depot_lock */

/* Take up to `n` descriptors from the depot into the stream cache.  Lock held. */
static void refill_cache(struct weft_mem_cache *c, int n)
{
    for (int i = 0; c && i < n && depot_descs; i++) {
        struct weft_mem_node *v = depot_descs;
        depot_descs = v->next;
        v->next = c->descs;
        c->descs = v;
        c->num_descs++;
    }
}

/* A new zeroed slab: one descriptor for the caller, the rest to the depot.  Lock held. */
static void *new_slab(void)
{
    size_t dsz = weft_mem_cfg.desc_size;
    struct slab *sl = malloc(sizeof(*sl));
    char *units = aligned_alloc(WEFT_CACHE_LINE, SLAB_UNITS * dsz);
    if (!sl || !units) {
        free(sl);
        free(units);
        return NULL;
    }
    memset(units, 0, SLAB_UNITS * dsz);
    sl->units = units;
    sl->next = slabs;
    slabs = sl;
    for (int i = SLAB_UNITS - 1; i >= 1; i--) {
        struct weft_mem_node *v = (struct weft_mem_node *)(units + (size_t)i * dsz);
        v->next = depot_descs;
        depot_descs = v;
    }
    return units;
}

void weft_mem_init(const struct weft_mem_config *cfg)
{
    WEFT_ASSERT(cfg->desc_size % WEFT_CACHE_LINE == 0);
    weft_mem_cfg = *cfg;
}

void *weft_desc_alloc_slow(struct weft_mem_cache *c)
{
    pthread_mutex_lock(&depot_lock);
    struct weft_mem_node *u = depot_descs;
    if (u)
        depot_descs = u->next;
    else
        u = new_slab();
    if (u)
        refill_cache(c, DEPOT_BATCH);
    pthread_mutex_unlock(&depot_lock);
    return u;
}

void weft_desc_free_slow(struct weft_mem_cache *c, void *desc)
{
    struct weft_mem_node *u = desc;
    pthread_mutex_lock(&depot_lock);
    u->next = depot_descs;
    depot_descs = u;
    /* a full stream cache also spills half of itself */
    if (c) {
        uint32_t n = c->num_descs / 2;
        while (n--) {
            struct weft_mem_node *v = c->descs;
            c->descs = v->next;
            c->num_descs--;
            v->next = depot_descs;
            depot_descs = v;
        }
    }
    pthread_mutex_unlock(&depot_lock);
}

void weft_desc_flush(struct weft_mem_cache *c)
{
    pthread_mutex_lock(&depot_lock);
    while (c->descs) {
        struct weft_mem_node *v = c->descs;
        c->descs = v->next;
        v->next = depot_descs;
        depot_descs = v;
    }
    c->num_descs = 0;
    pthread_mutex_unlock(&depot_lock);
}

void weft_desc_finalize(void)
{
    pthread_mutex_lock(&depot_lock);
    while (slabs) {
        struct slab *sl = slabs;
        slabs = sl->next;
        free(sl->units);
        free(sl);
    }
    depot_descs = NULL;
    pthread_mutex_unlock(&depot_lock);
}

/* Stack dumps: call fn on every descriptor of every slab, under the depot lock. */
void weft_desc_foreach(void (*fn)(void *desc, void *arg), void *arg)
{
    pthread_mutex_lock(&depot_lock);
    for (struct slab *sl = slabs; sl; sl = sl->next)
        for (int i = 0; i < SLAB_UNITS; i++)
            fn(sl->units + (size_t)i * weft_mem_cfg.desc_size, arg);
    pthread_mutex_unlock(&depot_lock);
}

/* (helper) fork() (core/atfork.c): hold the depot across the fork; in the child, either
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
        *forgotten = slabs;
        slabs = NULL;
        depot_descs = NULL;
    }
}
