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
    weft_unit *units;
};

static pthread_mutex_t depot_lock = PTHREAD_MUTEX_INITIALIZER;
static weft_unit *depot_descs;     /* protected by depot_lock */
static struct slab *slabs;         /* protected by depot_lock */

/* Take up to `n` descriptors from the depot into the stream cache.  Lock held. */
static void refill_cache(weft_xstream *xs, int n)
{
    for (int i = 0; xs && i < n && depot_descs; i++) {
        weft_unit *v = depot_descs;
        depot_descs = v->next;
        v->next = xs->cache.descs;
        xs->cache.descs = v;
        xs->cache.num_descs++;
    }
}

/* A new zeroed slab: one descriptor for the caller, the rest to the depot.  Lock held. */
static weft_unit *new_slab(void)
{
    struct slab *sl = malloc(sizeof(*sl));
    weft_unit *units = aligned_alloc(WEFT_CACHE_LINE, SLAB_UNITS * sizeof(weft_unit));
    if (!sl || !units) {
        free(sl);
        free(units);
        return NULL;
    }
    memset(units, 0, SLAB_UNITS * sizeof(weft_unit));
    sl->units = units;
    sl->next = slabs;
    slabs = sl;
    for (int i = SLAB_UNITS - 1; i >= 1; i--) {
        units[i].next = depot_descs;
        depot_descs = &units[i];
    }
    return &units[0];
}

weft_unit *weft_desc_alloc_slow(weft_xstream *xs)
{
    pthread_mutex_lock(&depot_lock);
    weft_unit *u = depot_descs;
    if (u)
        depot_descs = u->next;
    else
        u = new_slab();
    if (u)
        refill_cache(xs, DEPOT_BATCH);
    pthread_mutex_unlock(&depot_lock);
    return u;
}

void weft_desc_free_slow(weft_xstream *xs, weft_unit *u)
{
    pthread_mutex_lock(&depot_lock);
    u->next = depot_descs;
    depot_descs = u;
    /* a full stream cache also spills half of itself */
    if (xs) {
        uint32_t n = xs->cache.num_descs / 2;
        while (n--) {
            weft_unit *v = xs->cache.descs;
            xs->cache.descs = v->next;
            xs->cache.num_descs--;
            v->next = depot_descs;
            depot_descs = v;
        }
    }
    pthread_mutex_unlock(&depot_lock);
}

void weft_desc_flush(weft_xstream *xs)
{
    pthread_mutex_lock(&depot_lock);
    while (xs->cache.descs) {
        weft_unit *v = xs->cache.descs;
        xs->cache.descs = v->next;
        v->next = depot_descs;
        depot_descs = v;
    }
    xs->cache.num_descs = 0;
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

/* (helper) Stack dumps: call fn on every descriptor of every slab, under the depot lock.
 * Free descriptors have flags == 0 (weft_unit_recycle clears them; slabs start zeroed). */
void weft_desc_foreach(void (*fn)(weft_unit *u, void *arg), void *arg)
{
    pthread_mutex_lock(&depot_lock);
    for (struct slab *sl = slabs; sl; sl = sl->next)
        for (int i = 0; i < SLAB_UNITS; i++)
            fn(&sl->units[i], arg);
    pthread_mutex_unlock(&depot_lock);
}

/* (helper) fork() (core/fork.c): hold the depot across the fork; in the child, either
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
