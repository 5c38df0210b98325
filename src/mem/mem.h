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
 * A stack is one mapping: a guard page (weft_mem_cfg.guard), the canary words where the
 * guard is not right below the stack, and the stack, which grows down from its weft_stack
 * header at its top (stack.c has the picture).  The guard and the canary are set when the stack is
 * mapped (arena stacks: when carved) and stay while the stack is cached: taking a stack from a
 * cache costs nothing more.  Valgrind is told about every stack (client requests).
 *
 * Trimming (trim.c): memory taken for a burst is given back once the burst is over.  Each
 * cache and each depot has a high-water mark of what it recently needed, which decays by
 * 1/8 every ABT_MEM_TRIM_MS (100 ms); what they hold beyond it goes back: a cache's
 * surplus to the depot, the depot's surplus to the kernel (stacks: whole arenas unmapped,
 * or their pages dropped with MADV_DONTNEED; descriptors: fully free slabs dropped).  None
 * of it is on the fast paths below: a cache trims from its stream's event check
 * (weft_mem_tick, every event_freq units and when idle, reading the clock once per
 * WEFT_MEM_TICK_EVERY checks), a depot when memory is returned to it or from a tick.
 *
 * Layering: mem sits on arch only.  It does not know what a descriptor holds (core's
 * weft_unit) nor what a stream is: callers pass their stream's `struct weft_mem_cache`. */
#ifndef WEFT_MEM_MEM_H
#define WEFT_MEM_MEM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/atomic.h"
#include "arch/compiler.h"
#include "arch/cpu.h"

typedef struct weft_stack weft_stack;

/* A free descriptor, seen by mem: only its first word, the free-list link, is mem's.  The
 * owner of the descriptor type (core's weft_unit) puts its own `next` link first, so the
 * two coincide; may_alias tells the compiler that they do. */
struct __attribute__((may_alias)) weft_mem_node {
    struct weft_mem_node *next;
};

/* A stream's caches: owned by that stream's OS thread, no lock, no atomic.  Embedded in
 * core's stream (weft_xstream.cache); NULL where a function takes one means "no stream"
 * (an external thread): everything goes through the depot. */
struct weft_mem_cache {
    /* Free descriptors and free default-size stacks, each an array used as a stack (the
     * most recently freed last).  Taking one or giving one back touches the array, not
     * the object: a free list linked through the objects loads a line of the object
     * taken (its link) and stores into the one given back, lines that are cold when a
     * stream cycles through more units than its caches hold (bench/deviation, N = 4096:
     * a load miss per creation and per stack).  The arrays grow on the slow paths, up to
     * max_descs and max_stacks entries (cache.c), and go at weft_mem_flush. */
    void **descs;
    void **stacks; /* weft_stack * each */
    uint32_t num_descs, num_stacks;
    uint32_t cap_descs, cap_stacks; /* entries the arrays have room for */
    /* free stacks of the second cached size (big_stacksize: schedulers' loops and the
     * SC units that take one over, core/unit/fork.h), an array like `stacks`, up to max_stacks
     * (WEFT_MEM_CACHE_FLOOR_BIG if that is less), the rest in the big depot (stack.c);
     * slow paths only */
    void **bigs; /* weft_stack * each */
    uint32_t num_big, cap_big;
    uint32_t big_mark; /* decaying mark of the big stacks it handed out (trim.c) */
    /* trimming (trim.c; slow paths only) */
    uint32_t events;                /* event checks since the clock was last read */
    uint32_t desc_mark, stack_mark; /* decaying high-water marks of what the cache needed */
    uint64_t next_trim;             /* CLOCK_MONOTONIC ns of this cache's next trim */
};

/* What mem needs to know, set by weft_mem_init (ABT_init, before any stream runs) and
 * read-only afterwards. */
struct weft_mem_config {
    size_t desc_size;              /* bytes per descriptor (a multiple of WEFT_CACHE_LINE) */
    void (*desc_init)(void *desc); /* on each zeroed descriptor of a slab carved (again) */
    size_t thread_stacksize;       /* the default, cached stack size */
    size_t big_stacksize;          /* the second cached size (0: none) */
    uint32_t max_descs;            /* per-stream descriptor cache bound */
    uint32_t max_stacks;           /* per-stream stack cache bound */
    int lp_alloc;                  /* enum weft_lp_alloc */
    size_t huge_page_size;
    size_t sys_page_size;
    size_t stack_page_size; /* arena size for default-size stacks */
    uint8_t guard;          /* 0 none, 1 guard page when possible, 2 guard required */
    uint8_t guard_inside;   /* the guard is the lowest whole page of a stack's own bytes
                             * (ABT_STACK_OVERFLOW_CHECK=mprotect/mprotect_strict, stack.c) */
    uint8_t canary;         /* write a canary below the low end of every stack */
    uint64_t trim_ns;       /* ABT_MEM_TRIM_MS in ns: trim period, 0 never trim */
};

enum weft_lp_alloc {
    WEFT_LP_MALLOC = 0,  /* plain pages */
    WEFT_LP_MMAP_RP,     /* mmap of regular pages */
    WEFT_LP_MMAP_HP_RP,  /* explicit huge pages, falling back to regular pages */
    WEFT_LP_MMAP_HP_THP, /* explicit huge pages, falling back to THP */
    WEFT_LP_THP,         /* transparent huge pages (madvise) */
};

extern WEFT_INTERNAL struct weft_mem_config weft_mem_cfg;

struct weft_stack {
    weft_stack *next; /* cache / depot link */
    void *map_base;   /* start of the mapping (guard page included) */
    size_t map_size;
    size_t usable;            /* the stack's size, the header included (its size class) */
    uintptr_t *canary;        /* the canary word right below the usable stack */
    unsigned vg_id;           /* valgrind stack id */
    uint8_t guarded;          /* has a guard page (no access): weft_stack_guard */
    uint8_t from_arena;       /* carved from an arena: never unmapped alone */
    uint8_t guard_inside;     /* the guard is the stack's lowest whole page, not below it */
    struct weft_arena *arena; /* that arena (stack.c), or NULL */
};

/* The header takes the top of the stack's `usable` bytes (stack.c has the picture). */
#define WEFT_STACK_HEADER_SIZE ((sizeof(weft_stack) + 63) & ~(size_t)63)

/* A stack that has a canary to check (no guard page right below it) has its header this
 * many bytes below the end of its mapping instead of at it: the header's address alone
 * says whether the canary is to be read (core/tool/overflow.h), so the check of a stack whose
 * guard catches overruns reads no memory but the unit's stack pointer. */
#define WEFT_STACK_CANARY_TAG ((uintptr_t)16)
static inline bool weft_stack_has_canary(const weft_stack *s)
{
    return ((uintptr_t)s & WEFT_STACK_CANARY_TAG) != 0; /* false for NULL */
}

/* the stack's memory is [lo, lo + usable); frames grow down from top, the header */
static inline void *weft_stack_top(weft_stack *s) { return (void *)s; }
static inline void *weft_stack_lo(weft_stack *s)
{
    return (char *)s + WEFT_STACK_HEADER_SIZE - s->usable;
}

/* The stack's guard page, [g, g + pg) (pg: the system page size), or 0 if it has none:
 * right below lo, or, for a guard_inside stack, the first whole page at or above lo. */
static inline uintptr_t weft_stack_guard(const weft_stack *s, size_t pg)
{
    if (!s->guarded)
        return 0;
    if (!s->guard_inside)
        return (uintptr_t)s->map_base;
    uintptr_t lo = (uintptr_t)s + WEFT_STACK_HEADER_SIZE - s->usable;
    return (lo + pg - 1) / pg * pg;
}

WEFT_INTERNAL void weft_mem_init(const struct weft_mem_config *cfg);
WEFT_INTERNAL void *weft_desc_alloc_slow(struct weft_mem_cache *c);
WEFT_INTERNAL void weft_desc_free_slow(struct weft_mem_cache *c, void *d);
/* mmap of anonymous private memory (flags added to MAP_PRIVATE | MAP_ANONYMOUS);
 * NULL, never MAP_FAILED, on failure. */
WEFT_INTERNAL void *weft_map_anon(size_t len, int flags);
WEFT_INTERNAL weft_stack *weft_stack_alloc_slow(struct weft_mem_cache *c, size_t usable);
WEFT_INTERNAL void weft_stack_free_slow(struct weft_mem_cache *c, weft_stack *s);
/* Give a stream's caches back to the depot (stream ends). */
WEFT_INTERNAL void weft_mem_flush(struct weft_mem_cache *c);
/* Free the depot and every arena (ABT_finalize, after all streams are gone). */
WEFT_INTERNAL void weft_mem_finalize(void);
/* Within mem (desc.c, for stack.c): a stream's descriptors back to the depot; every slab
 * freed. */
WEFT_INTERNAL void weft_desc_flush(struct weft_mem_cache *c);
WEFT_INTERNAL void weft_desc_finalize(void);
/* Every descriptor of every slab, live or free, under the depot lock (stack dumps: the
 * owner of the descriptor type tells live from free; slabs start zeroed). */
WEFT_INTERNAL void weft_desc_foreach(void (*fn)(void *desc, void *arg), void *arg);
/* What a debugger reads to walk the slabs with no inferior call (core/tool/debug_layout.c
 * names it in weft_debug_layout): name/value pairs ending with a NULL name. */
struct weft_debug_entry {
    const char *name;
    uintptr_t value;
};
extern WEFT_INTERNAL const struct weft_debug_entry weft_desc_debug_layout[];
/* fork() support (core/stream/atfork.c): phase 0 before the fork (locks the depots), 1 in the
 * parent after it, 2 in the child; a child that abandons the runtime passes `forgotten`
 * to get the old lists (kept reachable) and starts with empty depots. */
WEFT_INTERNAL void weft_desc_atfork(int phase, void **forgotten);
WEFT_INTERNAL void weft_stack_atfork(int phase, void **forgotten);

/* Trimming (trim.c).  A cache trims itself (and the depots) at most once per trim period,
 * from its owner's event check; weft_mem_tick is that check's one call.  The depots trim
 * themselves when memory comes back to them (weft_stack_free_slow, weft_desc_free_slow).
 * While anything is held beyond the marks, weft_mem_trim_deadline() is when the next trim
 * step is due (else UINT64_MAX): a stream that sleeps while idle caps its sleep at it
 * (core/sched/timer_hook.h folds it into weft_timers_next), so memory is given back even when
 * every stream sleeps. */
#define WEFT_MEM_TICK_EVERY         16
/* What a cache keeps whatever its mark (a small fork-join round costs no depot trip). */
#define WEFT_MEM_CACHE_FLOOR_STACKS 16
#define WEFT_MEM_CACHE_FLOOR_DESCS  64
#define WEFT_MEM_CACHE_FLOOR_BIG    4
/* The next trim step of each depot, UINT64_MAX if none is due (relaxed atomics). */
extern WEFT_INTERNAL uint64_t weft_mem_stack_trim_at, weft_mem_desc_trim_at;
WEFT_INTERNAL void weft_mem_tick_slow(struct weft_mem_cache *c);

static inline void weft_mem_tick(struct weft_mem_cache *c)
{
    if (WEFT_LIKELY(++c->events % WEFT_MEM_TICK_EVERY != 0))
        return;
    weft_mem_tick_slow(c);
}

/* When the stream owning `c` (NULL: none) should next run its event check to trim: the
 * next step of a depot, or of its own cache while that holds more than its floor. */
static inline uint64_t weft_mem_trim_deadline(const struct weft_mem_cache *c)
{
    uint64_t d = weft_atomic_load_relaxed_plain(&weft_mem_stack_trim_at);
    uint64_t e = weft_atomic_load_relaxed_plain(&weft_mem_desc_trim_at);
    if (e < d)
        d = e;
    if (c && weft_mem_cfg.trim_ns && c->next_trim < d &&
        (c->num_stacks > WEFT_MEM_CACHE_FLOOR_STACKS || c->num_descs > WEFT_MEM_CACHE_FLOOR_DESCS ||
         c->num_big > WEFT_MEM_CACHE_FLOOR_BIG || c->stack_mark || c->desc_mark || c->big_mark))
        d = c->next_trim;
    return d;
}

/* Within mem (trim.c, desc.c, stack.c). */
WEFT_INTERNAL uint64_t weft_mem_now(void);
/* The mark after a period in which `used` items were needed: a burst's mark falls by 8x
 * per idle period (100,000 -> under 64 in four periods). */
static inline uint32_t weft_mem_decay(uint32_t mark, uint32_t used)
{
    uint32_t d = mark / 8;
    return used > d ? used : d;
}
/* Depot trims (lock taken inside); `now` from weft_mem_now().  They return true while
 * the depot still holds more than its floor (another trim step will follow). */
WEFT_INTERNAL bool weft_desc_depot_trim(uint64_t now);
WEFT_INTERNAL bool weft_stack_depot_trim(uint64_t now);
/* A cache's surplus beyond `keep` back to the depot (trim.c). */
WEFT_INTERNAL void weft_desc_cache_shrink(struct weft_mem_cache *c, uint32_t keep);
WEFT_INTERNAL void weft_stack_cache_shrink(struct weft_mem_cache *c, uint32_t keep);
/* The same for its big stacks (the most recent `keep` stay). */
WEFT_INTERNAL void weft_stack_big_shrink(struct weft_mem_cache *c, uint32_t keep);

/* (cache.c) Room for one more entry in a cache array of *cap entries holding `num`, up
 * to `max`: the array grows (doubling, from 64).  False when it holds `max` already or
 * memory is short (the caller then goes to the depot). */
WEFT_INTERNAL bool weft_mem_cache_grow(void ***arr, uint32_t *cap, uint32_t num, uint32_t max);
/* (cache.c) Free the arrays of an emptied cache. */
WEFT_INTERNAL void weft_mem_cache_release(struct weft_mem_cache *c);

/* weft_desc_alloc will take a descriptor from c without a call; then it is
 * weft_desc_cache_take. */
static inline bool weft_desc_cache_nonempty(const struct weft_mem_cache *c)
{
    return c->num_descs != 0;
}
static inline void *weft_desc_cache_take(struct weft_mem_cache *c)
{
    void *d = c->descs[--c->num_descs];
    WEFT_ASSUME(d != NULL); /* no entry is NULL: the caller's failure test goes */
    return d;
}

/* Descriptor allocation: NULL on failure (ABT_ERR_MEM).  `c` may be NULL. */
static inline void *weft_desc_alloc(struct weft_mem_cache *c)
{
    if (WEFT_LIKELY(c != NULL && weft_desc_cache_nonempty(c)))
        return weft_desc_cache_take(c);
    return weft_desc_alloc_slow(c);
}

/* weft_desc_free will keep a descriptor in c without a call; then it is
 * weft_desc_cache_put. */
static inline bool weft_desc_cache_has_room(const struct weft_mem_cache *c)
{
    return c->num_descs < c->cap_descs;
}
static inline void weft_desc_cache_put(struct weft_mem_cache *c, void *desc)
{
    c->descs[c->num_descs++] = desc;
}

static inline void weft_desc_free(struct weft_mem_cache *c, void *desc)
{
    if (WEFT_LIKELY(c != NULL && weft_desc_cache_has_room(c))) {
        weft_desc_cache_put(c, desc);
        return;
    }
    weft_desc_free_slow(c, desc);
}

/* weft_stack_alloc of a default-size stack will take it from c without a call */
static inline bool weft_stack_cache_nonempty(const struct weft_mem_cache *c)
{
    return c != NULL && c->num_stacks != 0;
}

/* A default-size stack from a cache the caller saw nonempty. */
static inline __attribute__((always_inline)) weft_stack *
weft_stack_cache_take(struct weft_mem_cache *c)
{
    uint32_t n = --c->num_stacks;
    weft_stack *s = c->stacks[n];
    WEFT_ASSUME(s != NULL); /* no entry is NULL: the caller's failure test goes */
    /* the next stack taken: its first frame's line, which the start will write */
    if (n != 0)
        __builtin_prefetch((char *)c->stacks[n - 1] - 64, 1);
    return s;
}

/* A stack of `usable` bytes; the default size comes from the stream cache. */
static inline __attribute__((always_inline)) weft_stack *weft_stack_alloc(struct weft_mem_cache *c,
                                                                          size_t usable)
{
    if (WEFT_LIKELY(c != NULL && usable == weft_mem_cfg.thread_stacksize && c->num_stacks != 0))
        return weft_stack_cache_take(c);
    return weft_stack_alloc_slow(c, usable);
}

/* weft_stack_free_default will keep a stack in c without a call; then it is
 * weft_stack_cache_put. */
static inline bool weft_stack_cache_has_room(const struct weft_mem_cache *c)
{
    return c->num_stacks < c->cap_stacks;
}
static inline void weft_stack_cache_put(struct weft_mem_cache *c, weft_stack *s)
{
    c->stacks[c->num_stacks++] = s;
}
/* weft_stack_free of a stack the caller knows is of the default size (a unit's
 * WEFT_STACK_CACHED stack): the stack itself is not touched (its header line may have
 * gone cold while its ULT waited). */
static inline void weft_stack_free_default(struct weft_mem_cache *c, weft_stack *s)
{
    if (WEFT_LIKELY(c != NULL && weft_stack_cache_has_room(c))) {
        weft_stack_cache_put(c, s);
        return;
    }
    weft_stack_free_slow(c, s);
}

static inline void weft_stack_free(struct weft_mem_cache *c, weft_stack *s)
{
    if (WEFT_LIKELY(s->usable == weft_mem_cfg.thread_stacksize))
        weft_stack_free_default(c, s);
    else
        weft_stack_free_slow(c, s);
}

#endif
