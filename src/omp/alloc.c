/* src/omp/alloc.c - OpenMP memory allocators (omp_alloc and friends, GOMP_alloc for the
 * allocate clause) and the host's omp_target_* memory routines.
 *
 * Every memory space is host memory (omp_high_bw_mem_space, omp_low_lat_mem_space and
 * the others give malloc'ed memory; a handle past omp_low_lat_mem_space is refused).
 * An allocator is a predefined handle (1 .. 8: the default allocator with their names'
 * meaning on a host without special memory) or a struct made by omp_init_allocator
 * with its traits: alignment, pool_size, fallback (default_mem_fb, null_fb, abort_fb,
 * allocator_fb with fb_data; fb_data omp_null_allocator is the default allocator) and
 * sync_hint, access, partition (every valid value honoured: host memory), pinned
 * (true is refused: no pinned memory).  A trait with an invalid value, or an unknown
 * trait, makes omp_init_allocator return omp_null_allocator.
 *
 * Each block carries a header just below the pointer handed out: the malloc'ed base,
 * the bytes it is charged, its size, and the allocator that owns it (so omp_free and
 * omp_realloc need no allocator argument to find it).  A pool (pool_size) holds the
 * charges of its live blocks: the size plus the header (BLOCK_HDR bytes) plus, for an
 * alignment over BASE_ALIGN, alignment - BASE_ALIGN bytes of slack; so a pool of 2 MiB
 * fits one block of 1 MiB, not two, and nothing of exactly 2 MiB (as in libgomp).  The
 * charge is taken with a compare-and-swap before malloc (a block that does not fit never
 * makes another one fail) and given back by omp_free.  A block that does not fit, or
 * whose malloc fails, goes to the allocator's fallback: default_mem_fb retries with
 * omp_default_mem_alloc (keeping the alignment), null_fb returns NULL, abort_fb prints
 * a message and aborts, allocator_fb retries with fb_data's allocator. */
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp/rt.h"

enum {
    ATK_SYNC_HINT = 1,
    ATK_ALIGNMENT,
    ATK_ACCESS,
    ATK_POOL_SIZE,
    ATK_FALLBACK,
    ATK_FB_DATA,
    ATK_PINNED,
    ATK_PARTITION
};
enum {
    ATV_FALSE = 0,
    ATV_TRUE = 1,
    ATV_CONTENDED = 3,
    ATV_UNCONTENDED,
    ATV_SERIALIZED,
    ATV_PRIVATE,
    ATV_ALL,
    ATV_THREAD,
    ATV_PTEAM,
    ATV_CGROUP,
    ATV_DEFAULT_MEM_FB,
    ATV_NULL_FB,
    ATV_ABORT_FB,
    ATV_ALLOCATOR_FB,
    ATV_ENVIRONMENT,
    ATV_NEAREST,
    ATV_BLOCKED,
    ATV_INTERLEAVED
};
#define ATV_DEFAULT    ((uintptr_t)-1)
#define MEMSPACE_MAX   4 /* omp_low_lat_mem_space */
#define PREDEFINED_MAX 8
#define DEFAULT_ALLOC  1
#define POOL_UNLIMITED SIZE_MAX
#define BASE_ALIGN     sizeof(void *)       /* what a pool's charge assumes malloc aligns to */
#define MIN_ALIGN      alignof(max_align_t) /* what omp_alloc's memory is aligned to */
#define FALLBACK_HOPS  16

struct allocator {
    size_t align;
    size_t pool_size; /* POOL_UNLIMITED: no pool */
    _Atomic size_t used;
    int fallback;
    uintptr_t fb_data;
};

struct header {
    void *base;
    size_t charge; /* bytes the block counts in its allocator's pool */
    size_t size;   /* bytes asked for */
    uintptr_t allocator;
};
#define BLOCK_HDR sizeof(struct header)
_Static_assert(BLOCK_HDR % MIN_ALIGN == 0, "the header keeps malloc's alignment");

static bool valid_value(int key, uintptr_t v)
{
    if (v == ATV_DEFAULT)
        return true;
    switch (key) {
    case ATK_SYNC_HINT:
        return v == ATV_CONTENDED || v == ATV_UNCONTENDED || v == ATV_SERIALIZED ||
               v == ATV_PRIVATE;
    case ATK_ACCESS: return v == ATV_ALL || v == ATV_CGROUP || v == ATV_PTEAM || v == ATV_THREAD;
    case ATK_PINNED: return v == ATV_FALSE; /* no pinned memory on this host */
    case ATK_PARTITION:
        return v == ATV_ENVIRONMENT || v == ATV_NEAREST || v == ATV_BLOCKED || v == ATV_INTERLEAVED;
    case ATK_FALLBACK: return v >= ATV_DEFAULT_MEM_FB && v <= ATV_ALLOCATOR_FB;
    default: return true;
    }
}

WO_API uintptr_t omp_init_allocator(uintptr_t memspace, int ntraits, const void *traits_in)
{
    const struct {
        int key;
        uintptr_t value;
    } *traits = traits_in;
    if (memspace > MEMSPACE_MAX || ntraits < 0 || (ntraits > 0 && !traits))
        return 0; /* omp_null_allocator */
    struct allocator a = { .align = 1,
                           .pool_size = POOL_UNLIMITED,
                           .fallback = ATV_DEFAULT_MEM_FB };
    for (int i = 0; i < ntraits; i++) {
        int key = traits[i].key;
        uintptr_t v = traits[i].value;
        if (key < ATK_SYNC_HINT || key > ATK_PARTITION || !valid_value(key, v))
            return 0;
        switch (key) {
        case ATK_ALIGNMENT:
            if (v == ATV_DEFAULT)
                a.align = 1;
            else if (v == 0 || (v & (v - 1)))
                return 0;
            else
                a.align = v;
            break;
        case ATK_POOL_SIZE: a.pool_size = v == ATV_DEFAULT ? POOL_UNLIMITED : v; break;
        case ATK_FALLBACK: a.fallback = v == ATV_DEFAULT ? ATV_DEFAULT_MEM_FB : (int)v; break;
        case ATK_FB_DATA: a.fb_data = v; break;
        default: break; /* sync_hint, access, pinned (false), partition: host memory */
        }
    }
    struct allocator *p = malloc(sizeof(*p));
    if (!p)
        return 0;
    *p = a;
    return (uintptr_t)p;
}

WO_API void omp_destroy_allocator(uintptr_t allocator)
{
    if (allocator > PREDEFINED_MAX)
        free((void *)allocator);
}

/* def-allocator-var is the task's (its ICVs: inherited by the tasks and the implicit
 * tasks it makes; initially OMP_ALLOCATOR's, env.c). */
WO_API void omp_set_default_allocator(uintptr_t allocator)
{
    wo_self()->task->icv.def_alloc = allocator ? allocator : DEFAULT_ALLOC;
}

WO_API uintptr_t omp_get_default_allocator(void) { return wo_self()->task->icv.def_alloc; }

static struct allocator *user(uintptr_t allocator)
{
    return allocator > PREDEFINED_MAX ? (struct allocator *)allocator : NULL;
}

/* Take `charge` bytes of a's pool, giving back `credit` bytes at the same time (a
 * realloc within one pool); false when the pool cannot hold them. */
static bool pool_take(struct allocator *a, size_t charge, size_t credit)
{
    size_t u = weft_atomic_load_relaxed(&a->used), n;
    do {
        n = u - credit;
        if (charge > a->pool_size || n > a->pool_size - charge)
            return false;
    } while (!weft_atomic_cas_weak_relaxed(&a->used, &u, n + charge));
    return true;
}

static void pool_give(struct allocator *a, size_t bytes)
{
    weft_atomic_fetch_sub_relaxed(&a->used, bytes);
}

/* A block of `size` bytes aligned to `align` (0: none asked) from `allocator` or its
 * fallbacks.  `old` (omp_realloc): the block being replaced; when the allocator that
 * serves the new block is old's, old's charge counts as free for it, and *moved is set
 * (the caller then frees old's memory without giving its charge back). */
static void *block_alloc(size_t align, size_t size, uintptr_t allocator, bool zero,
                         const struct header *old, bool *moved)
{
    if (align & (align - 1))
        return NULL;
    size_t want = align; /* the alignment asked for, by the call or the allocators */
    for (int hops = 0; hops < FALLBACK_HOPS; hops++) {
        if (allocator == 0)
            allocator = omp_get_default_allocator();
        struct allocator *a = user(allocator);
        if (a && a->align > want)
            want = a->align;
        size_t al = want > MIN_ALIGN ? want : MIN_ALIGN;
        /* the slack for `want` over BASE_ALIGN covers al over malloc's MIN_ALIGN */
        size_t charge = size + BLOCK_HDR + (want > BASE_ALIGN ? want - BASE_ALIGN : 0);
        if (charge < size)
            goto fail;
        bool pooled = a && a->pool_size != POOL_UNLIMITED;
        size_t credit = old && pooled && old->allocator == allocator ? old->charge : 0;
        if (pooled && !pool_take(a, charge, credit))
            goto fail;
        void *base = zero ? calloc(1, charge) : malloc(charge);
        if (!base) {
            if (pooled) {
                /* give back what was taken: the charge, less the credit it used */
                if (charge >= credit)
                    pool_give(a, charge - credit);
                else
                    weft_atomic_fetch_add_relaxed(&a->used, credit - charge);
            }
            goto fail;
        }
        uintptr_t p = ((uintptr_t)base + BLOCK_HDR + al - 1) & ~(uintptr_t)(al - 1);
        struct header *h = (struct header *)p - 1;
        h->base = base;
        h->charge = pooled ? charge : 0;
        h->size = size;
        h->allocator = allocator;
        if (moved)
            *moved = credit != 0;
        return (void *)p;
    fail:
        if (!a)
            return NULL;
        switch (a->fallback) {
        case ATV_NULL_FB: return NULL;
        case ATV_ABORT_FB:
            fprintf(stderr,
                    "libweft-omp: out of memory allocating %zu bytes (allocator with "
                    "omp_atv_abort_fb)\n",
                    size);
            abort();
        case ATV_ALLOCATOR_FB: allocator = a->fb_data; break;
        default: allocator = DEFAULT_ALLOC; break;
        }
    }
    return NULL;
}

WO_API void *omp_aligned_alloc(size_t align, size_t size, uintptr_t allocator)
{
    return size ? block_alloc(align, size, allocator, false, NULL, NULL) : NULL;
}
WO_API void *omp_alloc(size_t size, uintptr_t allocator)
{
    return omp_aligned_alloc(0, size, allocator);
}
WO_API void *omp_aligned_calloc(size_t align, size_t n, size_t size, uintptr_t allocator)
{
    if (!n || !size || n > SIZE_MAX / size)
        return NULL;
    return block_alloc(align, n * size, allocator, true, NULL, NULL);
}
WO_API void *omp_calloc(size_t n, size_t size, uintptr_t allocator)
{
    return omp_aligned_calloc(0, n, size, allocator);
}

WO_API void omp_free(void *ptr, uintptr_t allocator)
{
    (void)allocator; /* the header knows */
    if (!ptr)
        return;
    struct header *h = (struct header *)ptr - 1;
    if (h->charge)
        pool_give(user(h->allocator), h->charge);
    free(h->base);
}

/* allocator and free_allocator omp_null_allocator: the block's own allocator (the
 * header knows it, so free_allocator is only a hint).  Growing a block within one pool
 * needs room for the growth only.  On failure (null_fb) ptr is left as it was. */
WO_API void *omp_realloc(void *ptr, size_t size, uintptr_t allocator, uintptr_t free_allocator)
{
    if (!ptr)
        return omp_alloc(size, allocator);
    if (!size) {
        omp_free(ptr, free_allocator);
        return NULL;
    }
    struct header *h = (struct header *)ptr - 1;
    bool moved = false;
    void *n = block_alloc(0, size, allocator ? allocator : h->allocator, false, h, &moved);
    if (!n)
        return NULL;
    memcpy(n, ptr, h->size < size ? h->size : size);
    if (moved)
        free(h->base);
    else
        omp_free(ptr, free_allocator);
    return n;
}

WO_API void *GOMP_alloc(size_t align, size_t size, uintptr_t allocator)
{
    void *p = omp_aligned_alloc(align, size ? size : 1, allocator);
    if (!p) {
        fprintf(stderr, "libweft-omp: out of memory allocating %zu bytes\n", size);
        abort();
    }
    return p;
}

WO_API void GOMP_free(void *ptr, uintptr_t allocator) { omp_free(ptr, allocator); }

/* ---- device memory routines: the host is the only device ---- */

static bool host_device(int d) { return d == 0 || d == -1; /* initial device, or "default" */ }

WO_API void *omp_target_alloc(size_t size, int device)
{
    return host_device(device) && size ? malloc(size) : NULL;
}
WO_API void omp_target_free(void *p, int device)
{
    if (host_device(device))
        free(p);
}
WO_API int omp_target_is_present(const void *p, int device) { return host_device(device); }
WO_API int omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_off,
                             size_t src_off, int dst_dev, int src_dev)
{
    if (!host_device(dst_dev) || !host_device(src_dev) || !dst || !src)
        return -1; /* EINVAL-like: no such device */
    memmove((char *)dst + dst_off, (const char *)src + src_off, length);
    return 0;
}

static void rect_copy(char *dst, const char *src, size_t elsz, int dims, const size_t *vol,
                      const size_t *doff, const size_t *soff, const size_t *ddim,
                      const size_t *sdim)
{
    if (dims == 1) {
        memmove(dst + doff[0] * elsz, src + soff[0] * elsz, vol[0] * elsz);
        return;
    }
    size_t dstride = elsz, sstride = elsz;
    for (int i = 1; i < dims; i++) {
        dstride *= ddim[i];
        sstride *= sdim[i];
    }
    for (size_t j = 0; j < vol[0]; j++)
        rect_copy(dst + (doff[0] + j) * dstride, src + (soff[0] + j) * sstride, elsz, dims - 1,
                  vol + 1, doff + 1, soff + 1, ddim + 1, sdim + 1);
}

WO_API int omp_target_memcpy_rect(void *dst, const void *src, size_t elsz, int dims,
                                  const size_t *volume, const size_t *dst_off,
                                  const size_t *src_off, const size_t *dst_dims,
                                  const size_t *src_dims, int dst_dev, int src_dev)
{
    if (!dst && !src)
        return 64; /* the query form: the dimensions supported */
    if (!host_device(dst_dev) || !host_device(src_dev) || dims < 1 || !dst || !src)
        return -1;
    rect_copy(dst, src, elsz, dims, volume, dst_off, src_off, dst_dims, src_dims);
    return 0;
}
WO_API int omp_target_associate_ptr(const void *host, const void *dev, size_t size, size_t off,
                                    int device)
{
    return host_device(device) ? 0 : -1; /* host memory is its own device memory */
}
WO_API int omp_target_disassociate_ptr(const void *p, int device)
{
    return host_device(device) ? 0 : -1;
}
