/* src/sync/objmem.c - memory of heap sync objects (objmem.h): blocks that keep their
 * generation word after the object is freed, so stale handles can be refused.
 *
 * A freed block goes to a LIFO list of its size (in cache lines) and serves the next
 * object of that size.  Blocks are kept, up to KEEP_BYTES in all, until the last
 * ABT_finalize, which gives them back to malloc (so weft leaves nothing allocated);
 * beyond the limit, and after ABT_finalize, a stale handle to a block that went back to
 * malloc is undefined, as in Argobots.  One mutex guards the lists; it is taken once per create
 * and free, never by the lock, wait or signal paths. */
#include <pthread.h>

#include "sync/objmem.h"

#define KEEP_BYTES  ((size_t)16 << 20)
#define NUM_CLASSES 32 /* lists for 1..32 cache lines; larger blocks: "big" */

struct kept { /* lives in a freed block, after the generation word */
    struct kept *next;
    size_t size;
};

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kept *lists[NUM_CLASSES + 1]; /* guarded by kept_lock; [0] unused */
static struct kept *big;                    /* exact-size matches, guarded by kept_lock */
static size_t kept_bytes;                   /* guarded by kept_lock */
static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static inline struct kept *kept_of(void *base) { return (struct kept *)((char *)base + 8); }

static inline void *base_of(struct kept *k) { return (char *)k - 8; }

static void before_fork(void) { pthread_mutex_lock(&kept_lock); }
static void after_fork(void) { pthread_mutex_unlock(&kept_lock); }

/* The last ABT_finalize: every kept block back to malloc (weft leaves nothing behind). */
static void free_kept(void)
{
    pthread_mutex_lock(&kept_lock);
    for (int c = 0; c <= NUM_CLASSES + 1; c++) {
        struct kept **pp = c <= NUM_CLASSES ? &lists[c] : &big;
        while (*pp) {
            struct kept *k = *pp;
            *pp = k->next;
            free(base_of(k));
        }
    }
    kept_bytes = 0;
    pthread_mutex_unlock(&kept_lock);
}

static void register_hooks(void)
{
    pthread_atfork(before_fork, after_fork, after_fork);
    if (!weft_at_finalize(free_kept))
        weft_fatal("sync: no room for the finalize hook");
}

static size_t block_size(size_t extra)
{
    size_t line = WEFT_CACHE_LINE;
    size_t size = (WEFT_OBJ_MEM_SIZE + extra + line - 1) & ~(line - 1);
    return size < extra ? 0 : size; /* 0: overflow */
}

/* A kept block of exactly `size` bytes, or NULL.  Lock held. */
static void *take_kept(size_t size)
{
    size_t cls = size / WEFT_CACHE_LINE;
    struct kept **pp = cls <= NUM_CLASSES ? &lists[cls] : &big;
    for (; *pp; pp = &(*pp)->next) {
        if ((*pp)->size == size) {
            struct kept *k = *pp;
            *pp = k->next;
            kept_bytes -= size;
            return base_of(k);
        }
        if (cls <= NUM_CLASSES)
            break; /* one size per class list */
    }
    return NULL;
}

void *weft_obj_alloc(size_t extra)
{
    size_t size = block_size(extra);
    if (!size)
        return NULL;
    pthread_once(&hooks_once, register_hooks);
    pthread_mutex_lock(&kept_lock);
    void *base = take_kept(size);
    pthread_mutex_unlock(&kept_lock);
    uint32_t gen = 1;
    if (base) {
        gen = weft_atomic_load_relaxed(weft_obj_gen(base)); /* bumped by the free */
    } else {
        base = aligned_alloc(WEFT_CACHE_LINE, size);
        if (!base)
            return NULL;
        if (((uintptr_t)base & WEFT_OBJ_ADDR_MASK) != (uintptr_t)base)
            weft_fatal("sync object at %p does not fit a handle (address above 2^48 or "
                       "tagged by the allocator)",
                       base);
    }
    memset(base, 0, size);
    weft_atomic_store_relaxed(weft_obj_gen(base), gen);
    return base;
}

void weft_obj_free(void *base, size_t extra)
{
    /* the next object here gets another generation (1..65535, never 0 = "untagged") */
    uint32_t gen = weft_atomic_load_relaxed(weft_obj_gen(base));
    weft_atomic_store_relaxed(weft_obj_gen(base), gen >= 0xffffu ? 1 : gen + 1);
    size_t size = block_size(extra);
    pthread_mutex_lock(&kept_lock);
    if (kept_bytes + size <= KEEP_BYTES) {
        struct kept *k = kept_of(base);
        size_t cls = size / WEFT_CACHE_LINE;
        k->size = size;
        k->next = cls <= NUM_CLASSES ? lists[cls] : big;
        *(cls <= NUM_CLASSES ? &lists[cls] : &big) = k;
        kept_bytes += size;
        base = NULL;
    }
    pthread_mutex_unlock(&kept_lock);
    free(base); /* beyond the keep limit: back to malloc */
}
