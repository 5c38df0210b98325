/* src/omp/alloc.c - OpenMP memory allocators (omp_alloc and friends, GOMP_alloc for the
 * allocate clause) and the host's omp_target_* memory routines.
 *
 * Every memory space is host memory.  An allocator is a predefined handle (1 .. 8: all
 * the default allocator with their names' meaning on a host without special memory) or
 * a struct made by omp_init_allocator with its traits: alignment, pool_size (bytes it
 * may hold at once, counted atomically), fallback (default_mem_fb, null_fb, abort_fb,
 * allocator_fb with fb_data).  Each block carries a header just below the pointer
 * handed out: the malloc'ed base, the size, and the allocator that owns it (so omp_free
 * and omp_realloc need no allocator argument to find it). */
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
enum { ATV_DEFAULT_MEM_FB = 11, ATV_NULL_FB = 12, ATV_ABORT_FB = 13, ATV_ALLOCATOR_FB = 14 };
#define ATV_DEFAULT    ((uintptr_t)-1)
#define PREDEFINED_MAX 8
#define DEFAULT_ALLOC  1

struct allocator {
    size_t align;
    size_t pool_size; /* 0: unlimited */
    _Atomic size_t used;
    int fallback;
    uintptr_t fb_data;
};

struct header {
    void *base;
    size_t size;
    uintptr_t allocator;
};

typedef struct {
    uintptr_t key; /* an enum: an int in the struct, padded */
    uintptr_t value;
} trait_t;

static _Atomic uintptr_t default_alloc = DEFAULT_ALLOC;

OMP_API uintptr_t omp_init_allocator(uintptr_t memspace, int ntraits, const void *traits_in)
{
    const struct {
        int key;
        uintptr_t value;
    } *traits = traits_in;
    if (memspace > 4 || ntraits < 0 || (ntraits > 0 && !traits))
        return 0; /* omp_null_allocator */
    struct allocator a = { .align = 1, .fallback = ATV_DEFAULT_MEM_FB };
    for (int i = 0; i < ntraits; i++) {
        uintptr_t v = traits[i].value;
        switch (traits[i].key) {
        case ATK_ALIGNMENT:
            if (v == ATV_DEFAULT)
                break;
            if (v == 0 || (v & (v - 1)))
                return 0;
            a.align = v;
            break;
        case ATK_POOL_SIZE: a.pool_size = v == ATV_DEFAULT ? 0 : v; break;
        case ATK_FALLBACK:
            if (v == ATV_DEFAULT)
                break;
            if (v < ATV_DEFAULT_MEM_FB || v > ATV_ALLOCATOR_FB)
                return 0;
            a.fallback = (int)v;
            break;
        case ATK_FB_DATA: a.fb_data = v; break;
        case ATK_SYNC_HINT:
        case ATK_ACCESS:
        case ATK_PINNED:
        case ATK_PARTITION: break; /* host memory: every value is honoured trivially */
        default: return 0;
        }
    }
    if (a.fallback == ATV_ALLOCATOR_FB && !a.fb_data)
        return 0;
    struct allocator *p = malloc(sizeof(*p));
    if (!p)
        return 0;
    *p = a;
    return (uintptr_t)p;
}

OMP_API void omp_destroy_allocator(uintptr_t allocator)
{
    if (allocator > PREDEFINED_MAX)
        free((void *)allocator);
}

OMP_API void omp_set_default_allocator(uintptr_t allocator)
{
    weft_atomic_store_relaxed(&default_alloc, allocator ? allocator : DEFAULT_ALLOC);
}

OMP_API uintptr_t omp_get_default_allocator(void)
{
    return weft_atomic_load_relaxed(&default_alloc);
}

static void *raw_alloc(size_t align, size_t size, uintptr_t allocator, bool zero)
{
    if (allocator == 0)
        allocator = weft_atomic_load_relaxed(&default_alloc);
    for (int hops = 0; hops < 16; hops++) {
        struct allocator *a = allocator > PREDEFINED_MAX ? (struct allocator *)allocator : NULL;
        size_t al = align ? align : 1;
        if (a && a->align > al)
            al = a->align;
        if (al < sizeof(void *))
            al = sizeof(void *);
        if (al & (al - 1))
            return NULL;
        size_t need = size + sizeof(struct header) + al - 1;
        if (need < size)
            return NULL;
        bool ok = true;
        if (a && a->pool_size) {
            size_t u = weft_atomic_fetch_add_relaxed(&a->used, size);
            if (u + size > a->pool_size || u + size < u) {
                weft_atomic_fetch_sub_relaxed(&a->used, size);
                ok = false;
            }
        }
        void *base = ok ? (zero ? calloc(1, need) : malloc(need)) : NULL;
        if (base) {
            uintptr_t p = ((uintptr_t)base + sizeof(struct header) + al - 1) & ~(uintptr_t)(al - 1);
            struct header *h = (struct header *)p - 1;
            h->base = base;
            h->size = size;
            h->allocator = allocator;
            return (void *)p;
        }
        if (ok && a && a->pool_size)
            weft_atomic_fetch_sub_relaxed(&a->used, size);
        if (!a)
            return NULL;
        switch (a->fallback) {
        case ATV_NULL_FB: return NULL;
        case ATV_ABORT_FB:
            fprintf(stderr, "libweft-omp: allocation of %zu bytes failed (abort_fb)\n", size);
            abort();
        case ATV_ALLOCATOR_FB: allocator = a->fb_data; break;
        default: allocator = DEFAULT_ALLOC; break;
        }
    }
    return NULL;
}

OMP_API void *omp_aligned_alloc(size_t align, size_t size, uintptr_t allocator)
{
    return size ? raw_alloc(align, size, allocator, false) : NULL;
}
OMP_API void *omp_alloc(size_t size, uintptr_t allocator)
{
    return size ? raw_alloc(1, size, allocator, false) : NULL;
}
OMP_API void *omp_aligned_calloc(size_t align, size_t n, size_t size, uintptr_t allocator)
{
    if (!n || !size || n > SIZE_MAX / size)
        return NULL;
    return raw_alloc(align, n * size, allocator, true);
}
OMP_API void *omp_calloc(size_t n, size_t size, uintptr_t allocator)
{
    return omp_aligned_calloc(1, n, size, allocator);
}

OMP_API void omp_free(void *ptr, uintptr_t allocator)
{
    if (!ptr)
        return;
    struct header *h = (struct header *)ptr - 1;
    if (h->allocator > PREDEFINED_MAX) {
        struct allocator *a = (struct allocator *)h->allocator;
        if (a->pool_size)
            weft_atomic_fetch_sub_relaxed(&a->used, h->size);
    }
    free(h->base);
}

OMP_API void *omp_realloc(void *ptr, size_t size, uintptr_t allocator, uintptr_t free_allocator)
{
    if (!ptr)
        return omp_alloc(size, allocator);
    if (!size) {
        omp_free(ptr, free_allocator);
        return NULL;
    }
    struct header *h = (struct header *)ptr - 1;
    void *n = omp_alloc(size, allocator ? allocator : h->allocator);
    if (!n)
        return NULL;
    memcpy(n, ptr, h->size < size ? h->size : size);
    omp_free(ptr, free_allocator);
    return n;
}

OMP_API void *GOMP_alloc(size_t align, size_t size, uintptr_t allocator)
{
    void *p = omp_aligned_alloc(align, size ? size : 1, allocator);
    if (!p) {
        fprintf(stderr, "libweft-omp: out of memory allocating %zu bytes\n", size);
        abort();
    }
    return p;
}

OMP_API void GOMP_free(void *ptr, uintptr_t allocator) { omp_free(ptr, allocator); }

/* ---- device memory routines: the host is the only device ---- */

static bool host_device(int d) { return d == 0 || d == -1; /* initial device, or "default" */ }

OMP_API void *omp_target_alloc(size_t size, int device)
{
    return host_device(device) && size ? malloc(size) : NULL;
}
OMP_API void omp_target_free(void *p, int device)
{
    if (host_device(device))
        free(p);
}
OMP_API int omp_target_is_present(const void *p, int device) { return host_device(device); }
OMP_API int omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_off,
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

OMP_API int omp_target_memcpy_rect(void *dst, const void *src, size_t elsz, int dims,
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
OMP_API int omp_target_associate_ptr(const void *host, const void *dev, size_t size, size_t off,
                                     int device)
{
    return host_device(device) ? 0 : -1; /* host memory is its own device memory */
}
OMP_API int omp_target_disassociate_ptr(const void *p, int device)
{
    return host_device(device) ? 0 : -1;
}
