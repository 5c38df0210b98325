/* src/mem/mem.h - where work-unit descriptors and ULT stacks come from.
 *
 * Model: every descriptor is the same size and every default-size stack is the same
 * size, so they are interchangeable between streams.  Each stream keeps a LIFO free list
 * of each (struct weft_mem_cache in its weft_xstream): alloc and free there are a pointer
 * pop/push with no lock and no atomic.  A global depot under a mutex takes what a full
 * cache spills and refills an empty one in batches; that is also where units freed by a
 * thread that is not a stream go.  Rejected: per-owner remote-free lists (mimalloc
 * style) - they need the owner to outlive its units, and streams can be freed while their
 * units live on.
 *
 * A stack is one mapping with its weft_stack header at the top; the usable stack grows
 * down from just below the header.  With ABT_STACK_OVERFLOW_CHECK=mprotect the lowest page
 * is a PROT_NONE guard.  Valgrind is told about every stack (client requests). */
#ifndef WEFT_MEM_MEM_H
#define WEFT_MEM_MEM_H

#include "core/runtime.h"

struct weft_stack {
    weft_stack *next;              /* cache / depot link */
    void *map_base;                /* start of the mapping (guard page included) */
    size_t map_size;
    size_t usable;                 /* bytes usable below the header */
    unsigned vg_id;                /* valgrind stack id */
    uint8_t guarded;               /* lowest page is PROT_NONE */
    uint8_t from_arena;            /* carved from a huge-page arena: never unmapped alone */
};

/* usable range of a stack: [lo, top) */
static inline void *weft_stack_top(weft_stack *s) { return (void *)s; }
static inline void *weft_stack_lo(weft_stack *s) { return (char *)s - s->usable; }

WEFT_INTERNAL weft_unit *weft_desc_alloc_slow(weft_xstream *xs);
WEFT_INTERNAL void weft_desc_free_slow(weft_xstream *xs, weft_unit *u);
WEFT_INTERNAL weft_stack *weft_stack_alloc_slow(weft_xstream *xs, size_t usable);
WEFT_INTERNAL void weft_stack_free_slow(weft_xstream *xs, weft_stack *s);
/* Give a stream's caches back to the depot (stream ends). */
WEFT_INTERNAL void weft_mem_flush(weft_xstream *xs);
/* Free the depot and every arena (ABT_finalize, after all streams are gone). */
WEFT_INTERNAL void weft_mem_finalize(void);
WEFT_INTERNAL void weft_mem_init(void);
/* (helper) Every descriptor of every slab, live or free (free ones have flags == 0),
 * under the depot lock (core/stack_dump.c). */
WEFT_INTERNAL void weft_desc_foreach(void (*fn)(weft_unit *u, void *arg), void *arg);
/* (helper) fork() support (core/fork.c): phase 0 before the fork (locks the depots), 1 in
 * the parent after it, 2 in the child; a child that abandons the runtime passes
 * `forgotten` to get the old lists (kept reachable) and starts with empty depots. */
WEFT_INTERNAL void weft_desc_atfork(int phase, void **forgotten);
WEFT_INTERNAL void weft_stack_atfork(int phase, void **forgotten);

/* Descriptor allocation: NULL on failure (ABT_ERR_MEM). */
static inline weft_unit *weft_desc_alloc(weft_xstream *xs)
{
    weft_unit *u;
    if (WEFT_LIKELY(xs != NULL && (u = xs->cache.descs) != NULL)) {
        xs->cache.descs = u->next;
        xs->cache.num_descs--;
        return u;
    }
    return weft_desc_alloc_slow(xs);
}

static inline void weft_desc_free(weft_xstream *xs, weft_unit *u)
{
    if (WEFT_LIKELY(xs != NULL && xs->cache.num_descs < weft_g.cfg.mem_max_descs)) {
        u->next = xs->cache.descs;
        xs->cache.descs = u;
        xs->cache.num_descs++;
        return;
    }
    weft_desc_free_slow(xs, u);
}

/* A stack of `usable` bytes; the default size comes from the stream cache. */
static inline weft_stack *weft_stack_alloc(weft_xstream *xs, size_t usable)
{
    weft_stack *s;
    if (WEFT_LIKELY(xs != NULL && usable == weft_g.cfg.thread_stacksize &&
                    (s = xs->cache.stacks) != NULL)) {
        xs->cache.stacks = s->next;
        xs->cache.num_stacks--;
        return s;
    }
    return weft_stack_alloc_slow(xs, usable);
}

static inline void weft_stack_free(weft_xstream *xs, weft_stack *s)
{
    if (WEFT_LIKELY(xs != NULL && s->usable == weft_g.cfg.thread_stacksize &&
                    xs->cache.num_stacks < weft_g.cfg.mem_max_stacks)) {
        s->next = xs->cache.stacks;
        xs->cache.stacks = s;
        xs->cache.num_stacks++;
        return;
    }
    weft_stack_free_slow(xs, s);
}

#endif
