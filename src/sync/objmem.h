/* src/sync/objmem.h - where an object's state sits inside its handle's memory.
 *
 * Mutexes, condition variables, eventuals (and weft's static rwlocks) may live in user
 * memory of type ABT_*_memory: 64 bytes, all zero when unused, but declared as int[16],
 * so only 4-byte alignment is guaranteed (such memory is often a member of a user
 * struct).  Our state has pointers and atomics that want 8-byte alignment.  So the
 * memory is read as: the first int (reserved: the mutex's recursive flag, which
 * ABT_RECURSIVE_MUTEX_INITIALIZER sets), then the "body" at the next 8-byte boundary
 * after it - 56 bytes are always available.  Objects made by *_create use the same
 * layout in 8-byte-aligned heap memory (body at offset 8), so one handle conversion
 * serves both.  Rejected: casting the memory to a struct with pointers (Argobots does):
 * misaligned pointers are undefined behaviour and split-lock atomics. */
#ifndef WEFT_SYNC_OBJMEM_H
#define WEFT_SYNC_OBJMEM_H

#include <stdlib.h>
#include <string.h>

#include "arch/atomic.h"
#include "core/runtime.h"

#define WEFT_OBJ_MEM_SIZE 64
#define WEFT_OBJ_BODY_MAX 56

static inline void *weft_obj_body(void *h)
{
    return (void *)(((uintptr_t)h + sizeof(int) + 7) & ~(uintptr_t)7);
}

/* ---- heap objects and their handles (stale handles refused) ----
 * An object made by *_create is a zeroed block on cache lines of its own: the 64-byte
 * header (first int, a 32-bit generation at offset 4, the body at offset 8) followed by
 * `extra` bytes at offset 64 (eventual buffers, future compartments).  Its handle is the
 * block's address with the generation (1..65535) in the top 16 bits.  Freeing bumps the
 * generation and keeps the block in weft's free lists (objmem.c) for the next object of
 * its size, so a stale copy of the handle no longer matches - whatever now lives there -
 * and every routine returns its ABT_ERR_INV_* instead of touching the object.
 * Handles of user memory (ABT_*_MEMORY_GET_HANDLE) carry no tag and are never checked.
 * Limits (docs/design/api.md, "Stale handles"): blocks beyond the keep limit go back to
 * malloc, after which a stale handle to them is undefined; a tag repeats after 65535
 * frees of one block; 32-bit targets have no tag bits (untagged: unchecked). */
#if UINTPTR_MAX > 0xffffffffu
#define WEFT_OBJ_TAG_SHIFT 48
#define WEFT_OBJ_ADDR_MASK (((uintptr_t)1 << WEFT_OBJ_TAG_SHIFT) - 1)
#else
#define WEFT_OBJ_TAG_SHIFT 0
#define WEFT_OBJ_ADDR_MASK (~(uintptr_t)0)
#endif
/* every *_NULL sentinel of abt.h is below this */
#define WEFT_OBJ_MIN_ADDR ((uintptr_t)0x100)

static inline _Atomic uint32_t *weft_obj_gen(void *base)
{
    return (_Atomic uint32_t *)((char *)base + sizeof(int));
}

/* The object memory a handle names: NULL for NULL, a *_NULL sentinel or a stale handle.
 * Every sync routine converts its handle here and uses only the pointer it returns. */
static inline void *weft_obj_from(const void *h)
{
    uintptr_t v = (uintptr_t)h;
#if WEFT_OBJ_TAG_SHIFT
    uint32_t tag = (uint32_t)(v >> WEFT_OBJ_TAG_SHIFT);
    void *a = (void *)(v & WEFT_OBJ_ADDR_MASK);
    if (WEFT_LIKELY(tag != 0)) { /* a heap object: its generation must match */
        if (WEFT_UNLIKELY(weft_atomic_load_relaxed(weft_obj_gen(a)) != tag))
            return NULL;
        if (a == NULL) /* it was just read: tells the caller's NULL test */
            __builtin_unreachable();
        return a;
    }
#endif
    return WEFT_UNLIKELY(v < WEFT_OBJ_MIN_ADDR) ? NULL : (void *)v;
}

/* The body (weft_obj_body) of the object a handle names, or NULL as weft_obj_from.  A
 * heap object's block is cache-line aligned, so its body is at +8 without the rounding
 * that user memory (static initialisers) needs. */
static inline void *weft_obj_body_from(const void *h)
{
    void *a = weft_obj_from(h);
    if (!a)
        return NULL;
    if (WEFT_OBJ_TAG_SHIFT && WEFT_LIKELY((uintptr_t)h >> WEFT_OBJ_TAG_SHIFT))
        return (char *)a + 8; /* a heap object */
    return weft_obj_body(a);
}

/* weft_obj_body_from for an object type that has no static initialiser (a future): a
 * handle without a tag is NULL, a sentinel or garbage, never user memory. */
static inline void *weft_obj_heap_body_from(const void *h)
{
#if WEFT_OBJ_TAG_SHIFT
    uintptr_t v = (uintptr_t)h;
    uint32_t tag = (uint32_t)(v >> WEFT_OBJ_TAG_SHIFT);
    char *a = (char *)(v & WEFT_OBJ_ADDR_MASK);
    if (WEFT_UNLIKELY(tag == 0 || weft_atomic_load_relaxed(weft_obj_gen(a)) != tag))
        return NULL;
    return a + 8;
#else
    return weft_obj_body_from(h);
#endif
}

/* The handle of a heap object made by weft_obj_alloc. */
static inline void *weft_obj_handle(void *base)
{
#if WEFT_OBJ_TAG_SHIFT
    return (void *)((uintptr_t)base | (uintptr_t)weft_atomic_load_relaxed(weft_obj_gen(base))
                                          << WEFT_OBJ_TAG_SHIFT);
#else
    return base;
#endif
}

/* A zeroed heap object with `extra` bytes after the header (generation set); NULL when
 * out of memory.  weft_obj_free (same `extra`): its handles are stale from here on. */
WEFT_INTERNAL void *weft_obj_alloc(size_t extra);
WEFT_INTERNAL void weft_obj_free(void *base, size_t extra);

static inline void *weft_obj_extra(void *base) { return (char *)base + WEFT_OBJ_MEM_SIZE; }

/* A heap object's extra bytes from its body (the body of a 64-byte aligned block is at
 * offset 8: weft_obj_body). */
static inline void *weft_obj_extra_of_body(void *body)
{
    return (char *)body - 8 + WEFT_OBJ_MEM_SIZE;
}

#endif
