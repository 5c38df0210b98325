/* src/mem/desc.c - slow paths of descriptor allocation: the depot and malloc.
 * Fast paths are inline in mem.h.  The depot is a LIFO list under a mutex; a stream
 * moves descriptors to or from it in batches, so the mutex is taken at most once per
 * DEPOT_BATCH operations. */
#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"

#define DEPOT_BATCH 64

static pthread_mutex_t depot_lock = PTHREAD_MUTEX_INITIALIZER;
static weft_unit *depot_descs;     /* protected by depot_lock */
static size_t depot_num;

weft_unit *weft_desc_alloc_slow(weft_xstream *xs)
{
    weft_unit *u = NULL;
    pthread_mutex_lock(&depot_lock);
    if (depot_descs) {
        /* take one, and a batch more for this stream's cache */
        u = depot_descs;
        depot_descs = u->next;
        depot_num--;
        for (int i = 1; xs && i < DEPOT_BATCH && depot_descs; i++) {
            weft_unit *v = depot_descs;
            depot_descs = v->next;
            depot_num--;
            v->next = xs->cache.descs;
            xs->cache.descs = v;
            xs->cache.num_descs++;
        }
    }
    pthread_mutex_unlock(&depot_lock);
    if (u)
        return u;
    /* a new descriptor starts in the recycled state (see weft_unit_recycle): all zero */
    u = aligned_alloc(WEFT_CACHE_LINE, sizeof(weft_unit));
    if (u)
        memset(u, 0, sizeof(*u));
    return u;
}

void weft_desc_free_slow(weft_xstream *xs, weft_unit *u)
{
    size_t limit = (size_t)weft_g.cfg.mem_max_descs * 4 + DEPOT_BATCH;
    pthread_mutex_lock(&depot_lock);
    if (depot_num < limit) {
        u->next = depot_descs;
        depot_descs = u;
        depot_num++;
        u = NULL;
        /* a full stream cache also spills half of itself */
        if (xs) {
            uint32_t n = xs->cache.num_descs / 2;
            while (n-- && depot_num < limit) {
                weft_unit *v = xs->cache.descs;
                xs->cache.descs = v->next;
                xs->cache.num_descs--;
                v->next = depot_descs;
                depot_descs = v;
                depot_num++;
            }
        }
    }
    pthread_mutex_unlock(&depot_lock);
    free(u);
}

void weft_desc_flush(weft_xstream *xs)
{
    pthread_mutex_lock(&depot_lock);
    while (xs->cache.descs) {
        weft_unit *v = xs->cache.descs;
        xs->cache.descs = v->next;
        v->next = depot_descs;
        depot_descs = v;
        depot_num++;
    }
    xs->cache.num_descs = 0;
    pthread_mutex_unlock(&depot_lock);
}

void weft_desc_finalize(void)
{
    pthread_mutex_lock(&depot_lock);
    while (depot_descs) {
        weft_unit *v = depot_descs;
        depot_descs = v->next;
        free(v);
    }
    depot_num = 0;
    pthread_mutex_unlock(&depot_lock);
}
