/* src/mem/stack.c - ULT stacks: mapping, guard pages, huge-page arenas, the stack depot.
 *
 * Layout of one stack mapping (addresses grow up), for a stack of `usable` bytes:
 *   map_base: [guard page: no access; when weft_mem_cfg.guard is set and possible]
 *             [slack of the rounding to pages, if any]
 *             [canary: WEFT_CANARY_BYTES, mem/canary.h; only where no guard is right below]
 *   lo:       [the stack: `usable` bytes ...........................................
 *   top:       ... whose last 64 bytes are the struct weft_stack header]  = end of mapping
 * The stack pointer of a fresh ULT starts at the header (16-byte aligned), so the header
 * and the first frames share one page: a switch touches one page of the stack, not two.
 * With guards (the default) and a size that is a multiple of the page, the stack starts
 * right above its guard page: an overrun by 1 byte faults, and there is no canary to read
 * at each switch (whether there is one is a bit of the header's address, so the check
 * reads nothing).  Otherwise the canary sits right below lo (and the guard, if any, below
 * it), and the header 16 bytes below the end of the mapping (WEFT_STACK_CANARY_TAG), so an
 * overrun of the stack by 1 byte reaches the canary, checked when the ULT leaves its
 * stack, and one longer than the canary (and any slack) faults on the guard.  A 16 KiB
 * stack maps 20 KiB.  The header is part of the `usable` bytes (as Argobots keeps a ULT's
 * descriptor in its stack), so what ABT_thread_get_stack reports, [lo, lo + usable),
 * is the whole mapping above the guard and what the slack leaves.
 *
 * Guards are set when a stack is mapped (arena stacks: when the arena is carved) and stay
 * while the stack circulates through caches and depot, so taking a stack costs nothing
 * more with them.  A guard is a madvise(MADV_GUARD_INSTALL) marker where the kernel has
 * them (Linux 6.13: no new VMA), else an mprotect(PROT_NONE) page, which splits the
 * mapping: each such guard costs two of the process's vm.max_map_count mappings, so
 * mprotect guards stop (the stack goes without, the canary still watches it) when a
 * quarter of that limit is used by them, unless a guard is required (mprotect_strict).
 *
 * Default-size stacks are carved from arenas of ABT_MEM_STACK_PAGE_SIZE (8 MiB, mapped
 * MAP_NORESERVE: only touched pages cost memory), so a burst of thousands of live ULTs
 * costs no mmap/munmap per ULT.  With huge pages (ABT_MEM_LP_ALLOC=thp / mmap_hp_*) the
 * arenas are ABT_HUGE_PAGE_SIZE-aligned memory advised as huge pages.  Their stacks
 * circulate through caches and depot like any other.
 *
 * Giving memory back (trim.c decides how many, weft_stack_depot_trim does it): the depot
 * keeps its high-water mark of stacks and takes the rest - the coldest, at the tail of its
 * LIFO list - out of circulation.  A stack mapped alone is unmapped.  An arena stack
 * becomes "dormant": a bit in its arena, its pages dropped; an arena whose stacks are all
 * dormant is unmapped whole (after a burst that is nearly every arena: one munmap per
 * 8 MiB), in the others each run of adjacent newly dormant stacks is dropped with one
 * MADV_DONTNEED (the guard pages stay PROT_NONE: a guard is set once per mapping).  When
 * the depot is empty, dormant stacks are revived (header and canary rewritten, zeroed
 * pages) before a new arena is mapped.  Rejected: MADV_DONTNEED of single stacks kept on
 * the depot list - the header page and the top of the stack stay resident (4 KiB of every
 * 20 KiB stack: 400 MB after a 100,000-ULT burst); MADV_FREE - RSS only falls under
 * memory pressure, so nobody can see the memory come back.
 *
 * Stacks of the second cached size (weft_mem_cfg.big_stacksize: the schedulers' size, for
 * the loops' own stacks and the SC units that take one over when they are promoted,
 * core/unit/fork.h) are mapped alone and circulate the same way: a stream's `bigs` array (up
 * to max_stacks), and the big depot, an array which takes the older half of a full one
 * and refills an empty one in batches.  Both trim like the default size's; what the big
 * depot gives back is unmapped.  Before, a stream kept 4 and unmapped the rest: every SC
 * promotion beyond those cost an mmap, a guard, page faults and an munmap
 * (`bench/deviation --fork sc --n 4096 --d 100`: 11.3 us per fork-join; 0.15 us now). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mem/mem.h"
#include "mem/canary.h"

const uintptr_t weft_canary_off_word = WEFT_CANARY_VALUE;
#include "arch/atomic.h"

#if WEFT_USE_VALGRIND
#include <valgrind/valgrind.h>
#define VG_REGISTER(lo, hi) VALGRIND_STACK_REGISTER(lo, hi)
#define VG_DEREGISTER(id)   VALGRIND_STACK_DEREGISTER(id)
#else
#define VG_REGISTER(lo, hi) 0u
#define VG_DEREGISTER(id)   ((void)(id))
#endif

#define DEPOT_BATCH 16
#define HEADER_SIZE WEFT_STACK_HEADER_SIZE

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102 /* Linux 6.13 */
#endif

/* Anonymous private mapping, NULL on failure.  A NULL from mmap is taken as a failure
 * too: weft never asks for address 0, and interposed allocators (Argobots' resource
 * tracer among them) report failure that way. */
void *weft_map_anon(size_t len, int flags)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static pthread_mutex_t depot_lock = PTHREAD_MUTEX_INITIALIZER;
static weft_stack *depot; /* default-size stacks, protected by depot_lock */
static size_t depot_num;  /* stacks in the depot: on its list and in its magazines */

/* A magazine: MAG_N default-size stacks that move between a stream's cache and the depot
 * as one array, so that a spill or a refill of a stream cycling through more live ULTs
 * than its cache holds touches no stack (the depot's list links through the stacks'
 * headers: a cold line each, a load miss per stack taken; bench/deviation --n 4096
 * --d 100 moved 3,072 stacks each way per round).  Full ones wait on `mags`; emptied
 * ones on `mag_spare` for the next spill (at most MAG_SPARE; malloc'd, and a spill that
 * cannot have one links its stacks as before).  Everything that walks the depot (trim,
 * finalize, fork) first empties the magazines onto the list (mags_unpack). */
#define MAG_N     64
#define MAG_SPARE 16
struct mag {
    struct mag *next;
    weft_stack *s[MAG_N];
};
static struct mag *mags, *mag_spare; /* protected by depot_lock */
static size_t mag_nspare;
/* trimming, protected by depot_lock: stacks handed out by the depot this period, the
 * decaying mark, when the next trim step is due */
static uint32_t depot_taken, depot_mark;
static uint64_t depot_next_trim;
static uint32_t depot_returns;                /* lone frees (no cache), to pace trim checks */
uint64_t weft_mem_stack_trim_at = UINT64_MAX; /* relaxed atomic: the next step, if any */

/* The depot keeps this many stacks resident whatever its mark (a new burst of a few
 * dozen ULTs costs no page fault). */
#define DEPOT_FLOOR 64

/* The big depot (see the header comment), protected by depot_lock, with its own mark:
 * an array, the most recently returned last, so that moving stacks in and out touches
 * none of them (their headers are cold lines on pages of their own). */
static void **big_arr; /* weft_stack * each, as a stream's `bigs` */
static uint32_t big_num, big_cap;
static uint32_t big_taken, big_mark;

/* Room in the big depot for n more (the arrays' growth, cache.c, unbounded); false when
 * memory is short.  Lock held. */
static bool big_room(uint32_t n)
{
    while (big_num + n > big_cap)
        if (!weft_mem_cache_grow(&big_arr, &big_cap, big_cap, UINT32_MAX))
            return false;
    return true;
}

/* What a stream's big list holds at most. */
static uint32_t big_bound(void)
{
    uint32_t m = weft_mem_cfg.max_stacks;
    return m > WEFT_MEM_CACHE_FLOOR_BIG ? m : WEFT_MEM_CACHE_FLOOR_BIG;
}

/* An emptied magazine: kept for the next spill, or freed.  Lock held. */
static void mag_put_spare(struct mag *m)
{
    if (mag_nspare < MAG_SPARE) {
        m->next = mag_spare;
        mag_spare = m;
        mag_nspare++;
    } else {
        free(m);
    }
}

/* An empty magazine for a spill: a spare, else a new one (NULL: no memory).  Lock held. */
static struct mag *mag_get_spare(void)
{
    struct mag *m = mag_spare;
    if (!m)
        return malloc(sizeof *m);
    mag_spare = m->next;
    mag_nspare--;
    return m;
}

/* The magazines' stacks onto the depot's list (they stay counted in depot_num).  Lock
 * held. */
static void mags_unpack(void)
{
    while (mags) {
        struct mag *m = mags;
        mags = m->next;
        for (int i = 0; i < MAG_N; i++) {
            m->s[i]->next = depot;
            depot = m->s[i];
        }
        mag_put_spare(m);
    }
}

static void mags_free_spares(void)
{
    while (mag_spare) {
        struct mag *m = mag_spare;
        mag_spare = m->next;
        free(m);
    }
    mag_nspare = 0;
}

struct weft_arena {
    struct weft_arena *next;
    void *base;
    size_t size;
    size_t mprotect_guards; /* of its stacks, counted in mprotect_guards */
    size_t stride;          /* bytes per stack slot */
    uint32_t nslots;
    uint32_t ncarved;  /* slots that became stacks (a failed guard skips one) */
    uint32_t ndormant; /* slots dormant: pages dropped, in no list */
    uint8_t hugetlb;   /* MAP_HUGETLB: pages cannot be dropped one by one */
    uint8_t touched;   /* in the current trim pass's list */
    struct weft_arena *touched_next;
    uint64_t *dormant; /* nslots bits */
    uint64_t *guarded; /* nslots bits: the slot's guard page is PROT_NONE */
    uint64_t *fresh;   /* nslots bits: became dormant in this trim pass */
};
static struct weft_arena *arenas; /* protected by depot_lock */
static size_t arenas_dormant;     /* dormant slots in all arenas */

static inline bool bit_get(const uint64_t *b, size_t i) { return b[i / 64] >> (i % 64) & 1; }
static inline void bit_set(uint64_t *b, size_t i) { b[i / 64] |= (uint64_t)1 << (i % 64); }
static inline void bit_clr(uint64_t *b, size_t i) { b[i / 64] &= ~((uint64_t)1 << (i % 64)); }

static size_t page_size(void)
{
    return weft_mem_cfg.sys_page_size ? weft_mem_cfg.sys_page_size : 4096;
}

static size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

static bool want_guard(void) { return weft_mem_cfg.guard != 0; }

enum { GUARD_NONE, GUARD_SET, GUARD_ALREADY };

/* mprotect guards in place (each splits a mapping in two) and how many may be. */
static _Atomic size_t mprotect_guards;
static size_t mprotect_guard_budget(void)
{
    static _Atomic size_t budget;
    size_t b = weft_atomic_load_relaxed(&budget);
    if (b == 0) {
        unsigned long max = 65530; /* the kernel's default */
        FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
        if (f) {
            if (fscanf(f, "%lu", &max) != 1)
                max = 65530;
            fclose(f);
        }
        b = max / 4 / 2 + 1;
        weft_atomic_store_relaxed(&budget, b);
    }
    return b;
}

/* Make [p, p + pg) a guard: 2 = a guard marker, 1 = a PROT_NONE page, 0 = none. */
static uint8_t set_guard(void *p, size_t pg)
{
    /* asked every time (only when a stack is mapped): a kernel that has markers may
     * still refuse them for some mappings (hugetlb).  A guard inside the stack's own
     * bytes is always a PROT_NONE page: its user sees it in the range
     * ABT_thread_get_attr reports and may mprotect it (a marker would outlive that). */
    if (!weft_mem_cfg.guard_inside && madvise(p, pg, MADV_GUARD_INSTALL) == 0)
        return 2;
    if (weft_mem_cfg.guard != 2 &&
        weft_atomic_load_relaxed(&mprotect_guards) >= mprotect_guard_budget())
        return 0;
    if (mprotect(p, pg, PROT_NONE) != 0)
        return 0;
    weft_atomic_fetch_add_relaxed(&mprotect_guards, 1);
    return 1;
}

/* Does a stack of `usable` bytes get its guard inside them (weft_mem_cfg.guard_inside)?
 * Only one of at least 4 pages: the guard, the slack below it and a stack above it. */
static bool guard_inside_for(size_t usable)
{
    return want_guard() && weft_mem_cfg.guard_inside && usable >= 4 * page_size();
}

/* The size of the mapping of a stack of `usable` bytes (see the layout above): the guard
 * page, or room for the canary, below the stack, rounded up to pages; with a guard, the
 * slack left by the rounding is either none (the stack starts at the guard) or room for
 * the canary too.  A stack with a canary ends WEFT_STACK_CANARY_TAG bytes below the end
 * of its mapping (mem.h), which the room includes. */
static size_t map_size_for(size_t usable)
{
    size_t pg = page_size(), u = round_up(usable, 16),
           room = WEFT_CANARY_BYTES + WEFT_STACK_CANARY_TAG;
    if (!want_guard() || guard_inside_for(usable))
        return round_up(u + room, pg);
    size_t m = round_up(pg + u, pg), gap = m - pg - u;
    return gap != 0 && gap < room ? m + pg : m;
}

/* Write the header of a stack whose mapping is [base, base + size).  `usable` is the
 * size the caller asked for: it names the size class (cache lookups compare it).
 * NULL when a required guard could not be set. */
static weft_stack *stack_init(void *base, size_t size, size_t usable, int guard,
                              struct weft_arena *arena)
{
    size_t pg = page_size();
    /* inside: the guard is the first whole page of the stack's bytes, which start
     * `usable` bytes below the end of the mapping when it has no canary (it needs none) */
    bool inside = guard_inside_for(usable);
    char *gp = inside ? (char *)round_up((uintptr_t)base + size - usable, pg) : (char *)base;
    /* GUARD_ALREADY: a dormant arena slot revived; its guard survived MADV_DONTNEED */
    uint8_t guarded = guard == GUARD_ALREADY;
    if (guard == GUARD_SET) {
        guarded = set_guard(gp, pg);
        if (!guarded && weft_mem_cfg.guard == 2)
            return NULL;
    }
    /* a stack that starts right at its guard page, or holds it, needs no canary (the
     * guard catches the first byte); any other gets one, and its header the tag (mem.h) */
    bool canary = weft_mem_cfg.canary && !(guarded && (inside || size - usable == pg));
    weft_stack *s =
        (weft_stack *)((char *)base + size - HEADER_SIZE - (canary ? WEFT_STACK_CANARY_TAG : 0));
    s->next = NULL;
    s->map_base = base;
    s->map_size = size;
    s->guarded = guarded;
    s->guard_inside = inside;
    s->from_arena = arena != NULL;
    s->arena = arena;
    s->usable = usable;
    /* the canary ends at the low end of the stack, rounded down to a word */
    uintptr_t *below = (uintptr_t *)((uintptr_t)weft_stack_lo(s) & ~(uintptr_t)7);
    if (canary) {
        s->canary = below - 1;
        weft_canary_write(below);
    } else {
        s->canary = (uintptr_t *)&weft_canary_off_word; /* never checked: no tag */
    }
    s->vg_id = VG_REGISTER((char *)weft_stack_lo(s), (char *)s);
    return s;
}

/* Carve one default-size stack out of a new huge-page arena; the rest go to the depot.
 * Called with depot_lock held. */
static weft_stack *arena_refill(size_t usable)
{
    size_t stride = map_size_for(usable);
    int lp = weft_mem_cfg.lp_alloc;
    bool huge = lp >= WEFT_LP_MMAP_HP_RP;
    size_t hp = weft_mem_cfg.huge_page_size ? weft_mem_cfg.huge_page_size : (2u << 20);
    /* regular arenas: ABT_MEM_STACK_PAGE_SIZE at a time, page aligned; huge-page
     * arenas: whole huge pages, aligned to them */
    size_t chunk = huge ? hp : weft_mem_cfg.stack_page_size;
    size_t align = huge ? hp : page_size();
    size_t size = round_up(stride * 8 > chunk ? stride * 8 : chunk, align);
    size_t nslots = size / stride, words = (nslots + 63) / 64;
    struct weft_arena *a = calloc(1, sizeof(*a) + 3 * words * sizeof(uint64_t));
    if (!a)
        return NULL;
    a->dormant = (uint64_t *)(a + 1);
    a->guarded = a->dormant + words;
    a->fresh = a->guarded + words;
    void *base = NULL;
    if (lp == WEFT_LP_MMAP_HP_RP || lp == WEFT_LP_MMAP_HP_THP)
        /* no MAP_NORESERVE: without reserved huge pages the mapping must fail here
         * (and fall back), not succeed and raise SIGBUS on first touch */
        base = weft_map_anon(size, MAP_HUGETLB);
    a->hugetlb = base != NULL;
    if (!base && !huge) {
        base = weft_map_anon(size, MAP_NORESERVE | MAP_STACK);
        if (!base) {
            free(a);
            return NULL;
        }
    } else if (!base) {
        /* over-map to align to the huge page size, then trim */
        char *raw = weft_map_anon(size + hp, MAP_NORESERVE);
        if (!raw) {
            free(a);
            return NULL;
        }
        char *al = (char *)round_up((uintptr_t)raw, hp);
        if (al > raw)
            munmap(raw, (size_t)(al - raw));
        munmap(al + size, (size_t)(raw + size + hp - (al + size)));
        base = al;
        if (lp != WEFT_LP_MMAP_HP_RP)
            madvise(base, size, MADV_HUGEPAGE);
    }
    a->base = base;
    a->size = size;
    a->mprotect_guards = 0;
    a->stride = stride;
    a->nslots = (uint32_t)nslots;
    a->next = arenas;
    arenas = a;
    weft_stack *first = NULL;
    for (size_t i = 0; i < nslots; i++) {
        weft_stack *s = stack_init((char *)base + i * stride, stride, usable,
                                   want_guard() ? GUARD_SET : GUARD_NONE, a);
        if (!s)
            continue;
        a->ncarved++;
        a->mprotect_guards += s->guarded == 1;
        if (s->guarded)
            bit_set(a->guarded, i);
        if (!first) {
            first = s;
        } else {
            s->next = depot;
            depot = s;
            depot_num++;
        }
    }
    return first;
}

/* The depot is empty: bring the dormant stacks of one arena back (zeroed pages: header
 * and canary rewritten; guard pages were kept).  Called with depot_lock held. */
static void revive_dormant(size_t usable)
{
    struct weft_arena *a = arenas;
    while (a && a->ndormant == 0)
        a = a->next;
    if (!a)
        return;
    for (size_t i = 0; i < a->nslots && a->ndormant; i++) {
        if (!bit_get(a->dormant, i))
            continue;
        bit_clr(a->dormant, i);
        a->ndormant--;
        arenas_dormant--;
        weft_stack *s = stack_init((char *)a->base + i * a->stride, a->stride, usable,
                                   bit_get(a->guarded, i) ? GUARD_ALREADY : GUARD_NONE, a);
        s->next = depot;
        depot = s;
        depot_num++;
    }
}

static void stack_unmap(weft_stack *s)
{
    VG_DEREGISTER(s->vg_id);
    if (s->guarded == 1)
        weft_atomic_fetch_sub_relaxed(&mprotect_guards, 1);
    munmap(s->map_base, s->map_size);
}

/* Take the stacks of list `l` out of circulation (see the header comment).  Called with
 * depot_lock held: a dormant slot is revived under it, never while its pages drop. */
static void give_back(weft_stack *l)
{
    struct weft_arena *touched = NULL;
    while (l) {
        weft_stack *s = l;
        l = s->next;
        struct weft_arena *a = s->arena;
        if (!a) {
            stack_unmap(s); /* deregisters from valgrind too */
            continue;
        }
        VG_DEREGISTER(s->vg_id);
        size_t i = (size_t)((char *)s->map_base - (char *)a->base) / a->stride;
        bit_set(a->dormant, i);
        bit_set(a->fresh, i);
        a->ndormant++;
        arenas_dormant++;
        if (!a->touched) {
            a->touched = 1;
            a->touched_next = touched;
            touched = a;
        }
    }
    for (struct weft_arena *a = touched; a; a = a->touched_next) {
        a->touched = 0;
        if (a->ndormant == a->ncarved) {
            /* every stack of the arena is dormant: unmap it whole */
            for (struct weft_arena **pp = &arenas; *pp; pp = &(*pp)->next)
                if (*pp == a) {
                    *pp = a->next;
                    break;
                }
            arenas_dormant -= a->ndormant;
            weft_atomic_fetch_sub_relaxed(&mprotect_guards, a->mprotect_guards);
            munmap(a->base, a->size);
            continue; /* freed below */
        }
        /* drop the pages of each run of adjacent newly dormant stacks */
        for (size_t i = 0; i < a->nslots;) {
            if (!bit_get(a->fresh, i)) {
                i++;
                continue;
            }
            size_t j = i;
            while (j < a->nslots && bit_get(a->fresh, j))
                j++;
            if (!a->hugetlb)
                madvise((char *)a->base + i * a->stride, (j - i) * a->stride, MADV_DONTNEED);
            i = j;
        }
        memset(a->fresh, 0, (a->nslots + 63) / 64 * sizeof(uint64_t));
    }
    /* free the unmapped arenas' records (no longer on the arenas list) */
    for (struct weft_arena *a = touched, *n; a; a = n) {
        n = a->touched_next;
        if (a->ndormant == a->ncarved)
            free(a);
    }
}

bool weft_stack_depot_trim(uint64_t now)
{
    if (!weft_mem_cfg.trim_ns)
        return false;
    pthread_mutex_lock(&depot_lock);
    if (now < depot_next_trim) {
        bool more = depot_num > DEPOT_FLOOR || big_num > WEFT_MEM_CACHE_FLOOR_BIG;
        pthread_mutex_unlock(&depot_lock);
        return more;
    }
    depot_next_trim = now + weft_mem_cfg.trim_ns;
    depot_mark = weft_mem_decay(depot_mark, depot_taken);
    depot_taken = 0;
    size_t keep = depot_mark > DEPOT_FLOOR ? depot_mark : DEPOT_FLOOR;
    if (depot_num > keep) {
        mags_unpack(); /* their stacks go to the head: the most recently returned */
        /* keep the `keep` hottest (the head of the LIFO list), give back the rest */
        weft_stack **pp = &depot;
        for (size_t i = 0; i < keep; i++)
            pp = &(*pp)->next;
        weft_stack *rest = *pp;
        *pp = NULL;
        depot_num = keep;
        give_back(rest);
    }
    /* the big depot the same way; what it gives back is unmapped */
    big_mark = weft_mem_decay(big_mark, big_taken);
    big_taken = 0;
    keep = big_mark > WEFT_MEM_CACHE_FLOOR_BIG ? big_mark : WEFT_MEM_CACHE_FLOOR_BIG;
    if (big_num > keep) { /* the oldest go (the bottom of the array) */
        uint32_t n = big_num - (uint32_t)keep;
        for (uint32_t i = 0; i < n; i++)
            stack_unmap(big_arr[i]);
        memmove(big_arr, big_arr + n, keep * sizeof *big_arr);
        big_num = (uint32_t)keep;
    }
    bool more = depot_num > DEPOT_FLOOR || big_num > WEFT_MEM_CACHE_FLOOR_BIG;
    weft_atomic_store_relaxed_plain(&weft_mem_stack_trim_at, more ? depot_next_trim : UINT64_MAX);
    pthread_mutex_unlock(&depot_lock);
    return more;
}

void weft_stack_cache_shrink(struct weft_mem_cache *c, uint32_t keep)
{
    if (c->num_stacks <= keep)
        return;
    /* the oldest go (the bottom of the array), the `keep` most recent stay */
    uint32_t n = c->num_stacks - keep;
    pthread_mutex_lock(&depot_lock);
    for (uint32_t i = 0; i < n; i++) {
        weft_stack *v = c->stacks[i];
        v->next = depot;
        depot = v;
    }
    depot_num += n;
    pthread_mutex_unlock(&depot_lock);
    memmove(c->stacks, c->stacks + n, (size_t)keep * sizeof *c->stacks);
    c->num_stacks = keep;
}

/* A stream's big stacks, all but its `keep` most recent, onto the big depot (unmapped
 * if it has no room for them).  Lock held. */
static void big_spill(struct weft_mem_cache *c, uint32_t keep)
{
    if (c->num_big <= keep)
        return;
    /* the oldest go (the bottom of the array) */
    uint32_t n = c->num_big - keep;
    if (big_room(n)) {
        memcpy(big_arr + big_num, c->bigs, (size_t)n * sizeof *c->bigs);
        big_num += n;
    } else {
        for (uint32_t i = 0; i < n; i++)
            stack_unmap(c->bigs[i]);
    }
    memmove(c->bigs, c->bigs + n, (size_t)keep * sizeof *c->bigs);
    c->num_big = keep;
}

void weft_stack_big_shrink(struct weft_mem_cache *c, uint32_t keep)
{
    if (c->num_big <= keep)
        return;
    pthread_mutex_lock(&depot_lock);
    big_spill(c, keep);
    pthread_mutex_unlock(&depot_lock);
}

/* A big stack from c's array, else from the big depot (with a batch more for c); NULL
 * when neither has one. */
static weft_stack *big_take(struct weft_mem_cache *c)
{
    if (c && c->num_big)
        return c->bigs[--c->num_big];
    if (c) /* room for the batch (before the lock: it may allocate) */
        weft_mem_cache_grow(&c->bigs, &c->cap_big, DEPOT_BATCH - 1, big_bound());
    pthread_mutex_lock(&depot_lock);
    weft_stack *s = NULL;
    if (big_num) {
        s = big_arr[--big_num];
        uint32_t n = 0;
        if (c) {
            n = c->cap_big - c->num_big;
            n = n < DEPOT_BATCH - 1 ? n : DEPOT_BATCH - 1;
            n = n < big_num ? n : big_num;
            big_num -= n;
            memcpy(c->bigs + c->num_big, big_arr + big_num, (size_t)n * sizeof *c->bigs);
            c->num_big += n;
        }
        big_taken += n + 1;
    }
    pthread_mutex_unlock(&depot_lock);
    return s;
}

/* The big stack s back: into c's array, else, with the older half of that array, into
 * the big depot (which may then trim). */
static void big_give(struct weft_mem_cache *c, weft_stack *s)
{
    if (c && weft_mem_cache_grow(&c->bigs, &c->cap_big, c->num_big, big_bound())) {
        c->bigs[c->num_big++] = s;
        return;
    }
    pthread_mutex_lock(&depot_lock);
    if (big_room(1)) {
        big_arr[big_num++] = s;
        s = NULL;
    }
    if (c) {
        c->big_mark = big_bound(); /* the array overflowed */
        big_spill(c, c->num_big / 2);
    }
    bool due = weft_mem_cfg.trim_ns && big_num > WEFT_MEM_CACHE_FLOOR_BIG &&
               (c || ++depot_returns % 64 == 0);
    pthread_mutex_unlock(&depot_lock);
    if (s) /* no memory to keep it */
        stack_unmap(s);
    if (due)
        weft_stack_depot_trim(weft_mem_now());
}

weft_stack *weft_stack_alloc_slow(struct weft_mem_cache *c, size_t usable)
{
    if (usable == weft_mem_cfg.big_stacksize) {
        /* every big stack handed out counts in the stream's mark, wherever it comes from
         * (all of them come through here): a stream keeps, at its next trim, as many as
         * it used in the period, whether it cycled through its array or mapped them */
        if (c)
            c->big_mark++;
        weft_stack *s = big_take(c);
        if (s)
            return s;
    }
    bool dflt = usable == weft_mem_cfg.thread_stacksize;
    if (dflt) {
        weft_stack *s = NULL;
        if (c) /* room for the refill (before the lock: it may allocate) */
            weft_mem_cache_grow(&c->stacks, &c->cap_stacks, DEPOT_BATCH - 1,
                                weft_mem_cfg.max_stacks);
        pthread_mutex_lock(&depot_lock);
        if (c && mags && c->cap_stacks - c->num_stacks >= MAG_N - 1) {
            /* a magazine: one stack for the caller, the rest into the cache, no stack
             * touched */
            struct mag *m = mags;
            mags = m->next;
            s = m->s[MAG_N - 1];
            memcpy(c->stacks + c->num_stacks, m->s, (MAG_N - 1) * sizeof m->s[0]);
            c->num_stacks += MAG_N - 1;
            depot_num -= MAG_N;
            depot_taken += MAG_N;
            c->stack_mark += MAG_N;
            mag_put_spare(m);
            pthread_mutex_unlock(&depot_lock);
            return s;
        }
        if (!depot && mags)
            mags_unpack(); /* a cache too small for a magazine */
        if (!depot && arenas_dormant)
            revive_dormant(usable);
        if (depot) {
            s = depot;
            depot = s->next;
            depot_num--;
            int i = 1;
            for (; c && i < DEPOT_BATCH && depot && c->num_stacks < c->cap_stacks; i++) {
                weft_stack *v = depot;
                depot = v->next;
                depot_num--;
                c->stacks[c->num_stacks++] = v;
            }
            depot_taken += (uint32_t)i;
            if (c)
                c->stack_mark += (uint32_t)i;
        } else {
            /* default-size stacks are carved from arenas: no mmap/munmap per ULT however
             * many run at once */
            s = arena_refill(usable);
            depot_taken++;
        }
        pthread_mutex_unlock(&depot_lock);
        if (s)
            return s;
    }
    size_t size = map_size_for(usable);
    void *base = weft_map_anon(size, MAP_NORESERVE | MAP_STACK);
    if (!base)
        return NULL;
    weft_stack *s = stack_init(base, size, usable, want_guard() ? GUARD_SET : GUARD_NONE, NULL);
    if (!s) {
        munmap(base, size);
        return NULL;
    }
    return s;
}

void weft_stack_free_slow(struct weft_mem_cache *c, weft_stack *s)
{
    if (s->usable == weft_mem_cfg.big_stacksize && !s->from_arena) {
        big_give(c, s);
        return;
    }
    if (s->usable != weft_mem_cfg.thread_stacksize && !s->from_arena) {
        stack_unmap(s);
        return;
    }
    if (c && s->usable == weft_mem_cfg.thread_stacksize &&
        weft_mem_cache_grow(&c->stacks, &c->cap_stacks, c->num_stacks, weft_mem_cfg.max_stacks)) {
        c->stacks[c->num_stacks++] = s; /* the array had not grown to its bound yet */
        return;
    }
    size_t limit = (size_t)weft_mem_cfg.max_stacks * 2 + DEPOT_BATCH;
    pthread_mutex_lock(&depot_lock);
    if (depot_num < limit || s->from_arena) {
        s->next = depot;
        depot = s;
        depot_num++;
        s = NULL;
        if (c) {
            c->stack_mark = weft_mem_cfg.max_stacks; /* the cache overflowed */
            /* half the cache goes too, so that the next frees find room: arena stacks
             * whatever the depot holds (they are never unmapped alone; trimming gives
             * their memory back), others up to the limit.  Before, the spill stopped at
             * the limit for all, and once the depot held that many, every free of a
             * stream with more live ULTs than its cache holds came here (a lock and a
             * trim check per free: bench/deviation at D = 100 %). */
            uint32_t n = c->num_stacks / 2;
            /* whole magazines first: no stack touched.  Unlike the stacks linked one by
             * one below, they ignore the limit, which only bounds how many stacks mapped
             * alone (not from an arena: rare) wait in the depot between trims, and
             * cannot be told apart here without reading their headers */
            struct mag *m;
            while (n >= MAG_N && (m = mag_get_spare())) {
                c->num_stacks -= MAG_N;
                memcpy(m->s, c->stacks + c->num_stacks, sizeof m->s);
                m->next = mags;
                mags = m;
                depot_num += MAG_N;
                n -= MAG_N;
            }
            while (n-- && (depot_num < limit ||
                           ((weft_stack *)c->stacks[c->num_stacks - 1])->from_arena)) {
                weft_stack *v = (weft_stack *)c->stacks[--c->num_stacks];
                v->next = depot;
                depot = v;
                depot_num++;
            }
        }
    }
    /* a spill, or every 64th lone free (external threads): time to check */
    bool due = weft_mem_cfg.trim_ns && depot_num > DEPOT_FLOOR && (c || ++depot_returns % 64 == 0);
    pthread_mutex_unlock(&depot_lock);
    if (s)
        stack_unmap(s);
    if (due) /* memory came back: the depot may trim (trim.c) */
        weft_stack_depot_trim(weft_mem_now());
}

void weft_mem_flush(struct weft_mem_cache *c)
{
    weft_desc_flush(c);
    pthread_mutex_lock(&depot_lock);
    big_spill(c, 0);
    c->big_mark = 0;
    while (c->num_stacks) {
        weft_stack *v = (weft_stack *)c->stacks[--c->num_stacks];
        v->next = depot;
        depot = v;
        depot_num++;
    }
    pthread_mutex_unlock(&depot_lock);
    weft_mem_cache_release(c);
}

void weft_mem_finalize(void)
{
    weft_desc_finalize();
    pthread_mutex_lock(&depot_lock);
    mags_unpack();
    mags_free_spares();
    while (depot) {
        weft_stack *v = depot;
        depot = v->next;
        if (v->from_arena)
            VG_DEREGISTER(v->vg_id);
        else
            stack_unmap(v);
    }
    depot_num = 0;
    while (big_num)
        stack_unmap(big_arr[--big_num]);
    free(big_arr);
    big_arr = NULL;
    big_cap = 0;
    big_taken = big_mark = 0;
    while (arenas) {
        struct weft_arena *a = arenas;
        arenas = a->next;
        weft_atomic_fetch_sub_relaxed(&mprotect_guards, a->mprotect_guards);
        munmap(a->base, a->size);
        free(a);
    }
    arenas_dormant = 0;
    depot_taken = depot_mark = 0;
    depot_next_trim = 0;
    weft_atomic_store_relaxed_plain(&weft_mem_stack_trim_at, UINT64_MAX);
    pthread_mutex_unlock(&depot_lock);
}

/* (helper) fork() (core/stream/atfork.c): see weft_desc_atfork in desc.c. */
void weft_stack_atfork(int phase, void **forgotten)
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
        /* the magazines are the parent's too: forgotten with its stacks (the arena list
         * keeps the stacks reachable; the magazines' own blocks are left behind) */
        mags = mag_spare = NULL;
        mag_nspare = 0;
        *forgotten = arenas;
        arenas = NULL;
        arenas_dormant = 0;
        depot = NULL;
        depot_num = 0;
        depot_taken = depot_mark = 0;
        big_arr = NULL; /* the parent's mappings, left in place as the arenas are */
        big_num = big_cap = 0;
        big_taken = big_mark = 0;
        weft_atomic_store_relaxed_plain(&weft_mem_stack_trim_at, UINT64_MAX);
    }
}
