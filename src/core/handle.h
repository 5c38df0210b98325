/* src/core/handle.h - work-unit handles: the one place where an ABT_thread / ABT_task
 * (and, for built-in pools, an ABT_unit) turns into a weft_unit pointer and back.
 *
 * A handle is the descriptor's address with a generation tag in its top 16 bits:
 *     handle = (uintptr_t)u | gen << 48
 * The descriptor keeps the handle of its current life in `u->handle`.  Freeing the unit
 * (weft_unit_release) adds 1 << 48 to that word, so every copy of the old handle stops
 * matching it - also after a new unit took the descriptor - and weft_unit_from refuses
 * it.  Descriptors come from slabs that live until ABT_finalize, so the compare always
 * reads weft's memory.  Why this layout (docs/design/api.md, "Stale handles"):
 *   - user-space addresses on x86-64 and AArch64 Linux fit in 48 bits unless a program
 *     maps above 2^47 on purpose, and weft's descriptors come from malloc'ed slabs;
 *   - the mask 0x0000ffffffffffc0 also clears the low 6 bits (descriptors are 64-byte
 *     aligned), so the *_NULL sentinels (small constants) and NULL become a NULL pointer:
 *     one AND replaces the three compares with NULL, ABT_THREAD_NULL and ABT_TASK_NULL;
 *   - the bump is one add, with no carry into the address (it wraps off the top).
 * A tag repeats after 65536 frees of one descriptor: a handle kept that long may then
 * name the unit that lives there.  On 32-bit targets there is no room: the tag is 0 and
 * only the address is compared (stale copies of a released descriptor are accepted). */
#ifndef WEFT_CORE_HANDLE_H
#define WEFT_CORE_HANDLE_H

#include "core/types.h"

#if UINTPTR_MAX > 0xffffffffu
#define WEFT_HANDLE_GEN_STEP ((uintptr_t)1 << 48)
#else
#define WEFT_HANDLE_GEN_STEP ((uintptr_t)0)
#endif
/* the descriptor address inside a handle (and 0 for every *_NULL sentinel) */
#define WEFT_HANDLE_ADDR_MASK (WEFT_HANDLE_GEN_STEP - (uintptr_t)WEFT_CACHE_LINE)

/* The unit a handle names, or NULL for a NULL handle, a *_NULL sentinel, or a stale handle
 * (its unit was freed, whether or not the descriptor holds a new unit now). */
static inline weft_unit *weft_unit_from(ABT_thread h)
{
    uintptr_t v = (uintptr_t)h;
    weft_unit *u = (weft_unit *)(v & WEFT_HANDLE_ADDR_MASK);
    _Static_assert(sizeof(u->handle) == 8, "a handle is one 64-bit word");
    if (WEFT_UNLIKELY(u == NULL || !weft_atomic_eq64_relaxed(&u->handle, v)))
        return NULL;
    return u;
}

/* The handle of a live unit: what ABT_thread_create returns, tools and pools see. */
static inline ABT_thread weft_unit_handle(const weft_unit *u)
{
    return (ABT_thread)weft_atomic_load_relaxed(&((weft_unit *)u)->handle);
}

/* Whether two handles are the same value (ABT_thread_equal); every *_NULL form is one. */
static inline bool weft_handle_equal(ABT_thread a, ABT_thread b)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (!(x & WEFT_HANDLE_ADDR_MASK))
        x = 0;
    if (!(y & WEFT_HANDLE_ADDR_MASK))
        y = 0;
    return x == y;
}

/* A descriptor's first handle, set once when its memory is made (slabs, the primary ULT,
 * a scheduler's handle unit). */
WEFT_INTERNAL void weft_unit_handle_init(void *desc);

#endif
