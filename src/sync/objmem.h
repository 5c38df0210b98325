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

#include "core/runtime.h"

#define WEFT_OBJ_MEM_SIZE 64
#define WEFT_OBJ_BODY_MAX 56

static inline void *weft_obj_body(void *h)
{
    return (void *)(((uintptr_t)h + sizeof(int) + 7) & ~(uintptr_t)7);
}

/* Heap object: the 64-byte header block (first int, body) followed by `extra` bytes at
 * offset 64 (eventual buffers, future compartments).  Zeroed, and on cache lines of its
 * own: a lock word must not share its line with a neighbour's hot data. */
static inline void *weft_obj_alloc(size_t extra)
{
    size_t line = WEFT_CACHE_LINE;
    size_t size = (WEFT_OBJ_MEM_SIZE + extra + line - 1) & ~(line - 1);
    if (size < extra) /* overflow */
        return NULL;
    void *h = aligned_alloc(WEFT_CACHE_LINE, size);
    if (h)
        memset(h, 0, size);
    return h;
}

static inline void *weft_obj_extra(void *h) { return (char *)h + WEFT_OBJ_MEM_SIZE; }

#endif
