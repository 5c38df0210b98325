/* src/mem/stack.c - ULT stacks: mapping, guard pages, huge-page arenas, the stack depot.
 *
 * Layout of one stack mapping (addresses grow up):
 *   map_base: [guard page: no access; when weft_mem_cfg.guard is set and possible]
 *             [canary: WEFT_CANARY_BYTES, mem/canary.h; reserved in every mode]
 *   lo:       [usable stack: `usable` bytes ................................]
 *   top:      [struct weft_stack header, 64 bytes] [slack up to the page end]
 * The stack pointer of a fresh ULT starts at the header (16-byte aligned).  The canary
 * sits right below lo and the guard right below the canary, so an overrun of the stack's
 * size by 1 byte reaches the canary, and one longer than the canary faults on the guard:
 * no slack between them where an overrun goes unnoticed.
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
 * arenas are ABT_HUGE_PAGE_SIZE-aligned memory advised as huge pages.  Arenas live until
 * ABT_finalize, and their stacks circulate through caches and depot like any other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mem/mem.h"
#include "mem/canary.h"
#include "arch/atomic.h"

#if WEFT_USE_VALGRIND
#include <valgrind/valgrind.h>
#define VG_REGISTER(lo, hi) VALGRIND_STACK_REGISTER(lo, hi)
#define VG_DEREGISTER(id) VALGRIND_STACK_DEREGISTER(id)
#else
#define VG_REGISTER(lo, hi) 0u
#define VG_DEREGISTER(id) ((void)(id))
#endif

#define DEPOT_BATCH 16
#define HEADER_SIZE ((sizeof(weft_stack) + 63) & ~(size_t)63)

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102     /* Linux 6.13 */
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
static weft_stack *depot;          /* default-size stacks, protected by depot_lock */
static size_t depot_num;

struct arena {
    struct arena *next;
    void *base;
    size_t size;
    size_t mprotect_guards;        /* of its stacks, counted in mprotect_guards */
};
static struct arena *arenas;       /* protected by depot_lock */

static size_t page_size(void)
{
    return weft_mem_cfg.sys_page_size ? weft_mem_cfg.sys_page_size : 4096;
}

static size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

static bool want_guard(void) { return weft_mem_cfg.guard != 0; }

/* mprotect guards in place (each splits a mapping in two) and how many may be. */
static _Atomic size_t mprotect_guards;
static size_t mprotect_guard_budget(void)
{
    static _Atomic size_t budget;
    size_t b = weft_atomic_load_relaxed(&budget);
    if (b == 0) {
        unsigned long max = 65530;         /* the kernel's default */
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
     * still refuse them for some mappings (hugetlb) */
    if (madvise(p, pg, MADV_GUARD_INSTALL) == 0)
        return 2;
    if (weft_mem_cfg.guard != 2 &&
        weft_atomic_load_relaxed(&mprotect_guards) >= mprotect_guard_budget())
        return 0;
    if (mprotect(p, pg, PROT_NONE) != 0)
        return 0;
    weft_atomic_fetch_add_relaxed(&mprotect_guards, 1);
    return 1;
}

/* The header's offset in a mapping: guard, canary, usable stack rounded up to 16. */
static size_t header_offset(size_t usable)
{
    return (want_guard() ? page_size() : 0) + WEFT_CANARY_BYTES + round_up(usable, 16);
}

/* Write the header of a stack whose mapping is [base, base + size).  `usable` is the
 * size the caller asked for: it names the size class (cache lookups compare it).
 * NULL when a required guard could not be set. */
static weft_stack *stack_init(void *base, size_t size, size_t usable, bool from_arena)
{
    weft_stack *s = (weft_stack *)((char *)base + header_offset(usable));
    s->next = NULL;
    s->map_base = base;
    s->map_size = size;
    s->guarded = 0;
    s->from_arena = from_arena;
    s->usable = usable;
    if (want_guard()) {
        s->guarded = set_guard(base, page_size());
        if (!s->guarded && weft_mem_cfg.guard == 2)
            return NULL;
    }
    /* the canary ends at the low end of the stack, rounded down to a word */
    uintptr_t *below = (uintptr_t *)((uintptr_t)weft_stack_lo(s) & ~(uintptr_t)7);
    s->canary = below - 1;
    if (weft_mem_cfg.canary)
        weft_canary_write(below);
    s->vg_id = VG_REGISTER((char *)s - s->usable, (char *)s);
    return s;
}

static size_t map_size_for(size_t usable)
{
    return round_up(header_offset(usable) + HEADER_SIZE, page_size());
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
    struct arena *a = malloc(sizeof(*a));
    if (!a)
        return NULL;
    void *base = NULL;
    if (lp == WEFT_LP_MMAP_HP_RP || lp == WEFT_LP_MMAP_HP_THP)
        /* no MAP_NORESERVE: without reserved huge pages the mapping must fail here
         * (and fall back), not succeed and raise SIGBUS on first touch */
        base = weft_map_anon(size, MAP_HUGETLB);
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
    a->next = arenas;
    arenas = a;
    weft_stack *first = NULL;
    for (size_t off = 0; off + stride <= size; off += stride) {
        weft_stack *s = stack_init((char *)base + off, stride, usable, true);
        if (!s)
            continue;
        a->mprotect_guards += s->guarded == 1;
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

weft_stack *weft_stack_alloc_slow(struct weft_mem_cache *c, size_t usable)
{
    bool dflt = usable == weft_mem_cfg.thread_stacksize;
    if (dflt) {
        weft_stack *s = NULL;
        pthread_mutex_lock(&depot_lock);
        if (depot) {
            s = depot;
            depot = s->next;
            depot_num--;
            for (int i = 1; c && i < DEPOT_BATCH && depot; i++) {
                weft_stack *v = depot;
                depot = v->next;
                depot_num--;
                v->next = c->stacks;
                c->stacks = v;
                c->num_stacks++;
            }
        } else {
            /* default-size stacks are carved from arenas (kept until ABT_finalize):
             * no mmap/munmap per ULT however many run at once */
            s = arena_refill(usable);
        }
        pthread_mutex_unlock(&depot_lock);
        if (s)
            return s;
    }
    size_t size = map_size_for(usable);
    void *base = weft_map_anon(size, MAP_NORESERVE | MAP_STACK);
    if (!base)
        return NULL;
    weft_stack *s = stack_init(base, size, usable, false);
    if (!s) {
        munmap(base, size);
        return NULL;
    }
    return s;
}

static void stack_unmap(weft_stack *s)
{
    VG_DEREGISTER(s->vg_id);
    if (s->guarded == 1)
        weft_atomic_fetch_sub_relaxed(&mprotect_guards, 1);
    munmap(s->map_base, s->map_size);
}

void weft_stack_free_slow(struct weft_mem_cache *c, weft_stack *s)
{
    if (s->usable != weft_mem_cfg.thread_stacksize && !s->from_arena) {
        stack_unmap(s);
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
            uint32_t n = c->num_stacks / 2;
            while (n-- && depot_num < limit) {
                weft_stack *v = c->stacks;
                c->stacks = v->next;
                c->num_stacks--;
                v->next = depot;
                depot = v;
                depot_num++;
            }
        }
    }
    pthread_mutex_unlock(&depot_lock);
    if (s)
        stack_unmap(s);
}

void weft_mem_flush(struct weft_mem_cache *c)
{
    weft_desc_flush(c);
    pthread_mutex_lock(&depot_lock);
    while (c->stacks) {
        weft_stack *v = c->stacks;
        c->stacks = v->next;
        v->next = depot;
        depot = v;
        depot_num++;
    }
    c->num_stacks = 0;
    pthread_mutex_unlock(&depot_lock);
}



void weft_mem_finalize(void)
{
    weft_desc_finalize();
    pthread_mutex_lock(&depot_lock);
    while (depot) {
        weft_stack *v = depot;
        depot = v->next;
        if (v->from_arena)
            VG_DEREGISTER(v->vg_id);
        else
            stack_unmap(v);
    }
    depot_num = 0;
    while (arenas) {
        struct arena *a = arenas;
        arenas = a->next;
        weft_atomic_fetch_sub_relaxed(&mprotect_guards, a->mprotect_guards);
        munmap(a->base, a->size);
        free(a);
    }
    pthread_mutex_unlock(&depot_lock);
}

/* (helper) fork() (core/atfork.c): see weft_desc_atfork in desc.c. */
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
        *forgotten = arenas;
        arenas = NULL;
        depot = NULL;
        depot_num = 0;
    }
}
