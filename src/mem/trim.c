/* src/mem/trim.c - when caches and depots give memory back (mem.h "Trimming").
 *
 * Every ABT_MEM_TRIM_MS (default 100 ms; 0 turns trimming off) a stream's event check
 * (weft_mem_tick, from weft_sched_has_to_stop) trims its own caches, then the depots:
 *   - a cache keeps max(its mark, a small floor) and returns the rest to the depot.  Its
 *     mark rises on the slow paths only - by what a refill took from the depot, to the
 *     cache bound when it overflowed into the depot - and falls by 8x per period, so a
 *     stream that keeps running a steady round of N units keeps about N of each, and one
 *     whose burst is over returns its surplus within three periods;
 *   - a depot's mark is the most it handed out in one period, falling by 8x per period
 *     (weft_mem_decay); it keeps max(mark, floor) and gives the rest to the kernel
 *     (stack.c, desc.c say how).  The depots also trim when memory is returned to them,
 *     by whichever thread returns it.
 * So after a burst of 100,000 ULTs the depots hold 1/8, 1/64, ... of it in the following
 * periods: within half a second of going idle the burst's memory is back with the
 * kernel.  Nothing here is on a fast path: a tick costs an increment and a branch per
 * event check, and reads the clock every WEFT_MEM_TICK_EVERY checks.
 * Rejected: a trimming thread (one more thread for every program, and it cannot touch a
 * stream's cache, which has no lock); counting uses on the fast paths (a low-water mark
 * per cache would be exact, but costs instructions on every create and free). */
#include <time.h>

#include "mem/mem.h"

uint64_t weft_mem_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void weft_mem_tick_slow(struct weft_mem_cache *c)
{
    if (!weft_mem_cfg.trim_ns)
        return;
    uint64_t now = weft_mem_now();
    if (now < c->next_trim)
        return;
    c->next_trim = now + weft_mem_cfg.trim_ns;
    uint32_t keep =
        c->stack_mark > WEFT_MEM_CACHE_FLOOR_STACKS ? c->stack_mark : WEFT_MEM_CACHE_FLOOR_STACKS;
    weft_stack_cache_shrink(c, keep);
    keep = c->desc_mark > WEFT_MEM_CACHE_FLOOR_DESCS ? c->desc_mark : WEFT_MEM_CACHE_FLOOR_DESCS;
    weft_desc_cache_shrink(c, keep);
    keep = c->big_mark > WEFT_MEM_CACHE_FLOOR_BIG ? c->big_mark : WEFT_MEM_CACHE_FLOOR_BIG;
    weft_stack_big_shrink(c, keep);
    c->stack_mark /= 8;
    c->desc_mark /= 8;
    c->big_mark /= 8;
    weft_stack_depot_trim(now);
    weft_desc_depot_trim(now);
}
