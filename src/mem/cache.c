/* src/mem/cache.c - the arrays of a stream's caches (struct weft_mem_cache): they start
 * empty and grow on the slow paths, doubling from 64 entries up to the cache's bound
 * (ABT_MEM_MAX_NUM_DESCS, ABT_MEM_MAX_NUM_STACKS, the latter for both stack sizes), so that a
 * stream that never frees a unit holds no array and a large bound costs memory only when it is
 * used.  A failed allocation leaves the array as it was: the caller goes to the depot. */
#include <stdlib.h>

#include "mem/mem.h"

#define CACHE_FIRST_CAP 64

bool weft_mem_cache_grow(void ***arr, uint32_t *cap, uint32_t num, uint32_t max)
{
    if (num < *cap)
        return true;
    if (*cap >= max)
        return false;
    uint32_t n = *cap ? *cap : CACHE_FIRST_CAP / 2;
    n = n > max / 2 ? max : n * 2;
    void **a = realloc(*arr, (size_t)n * sizeof *a);
    if (!a)
        return false;
    *arr = a;
    *cap = n;
    return true;
}

void weft_mem_cache_release(struct weft_mem_cache *c)
{
    free(c->descs);
    free(c->stacks);
    free(c->bigs);
    c->descs = NULL;
    c->stacks = NULL;
    c->bigs = NULL;
    c->cap_descs = c->cap_stacks = c->cap_big = 0;
    c->num_descs = c->num_stacks = c->num_big = 0;
}
