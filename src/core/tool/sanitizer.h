/* src/core/tool/sanitizer.h - tell AddressSanitizer and ThreadSanitizer about stack switches.
 * Compiled to nothing unless the build enables a sanitizer (WEFT_ASAN / WEFT_TSAN).
 *
 * ASan: before a switch, weft_san_switch(&own_fake, target_lo, target_size); right after
 * landing, weft_san_landed(own_fake).  A context that is abandoned for good passes NULL as
 * its fake-stack slot; a fresh context lands with NULL.
 * TSan: every context that can be switched to is a TSan fiber; switching names it. */
#ifndef WEFT_CORE_SANITIZER_H
#define WEFT_CORE_SANITIZER_H

#include <stddef.h>

#if WEFT_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if WEFT_TSAN
#include <sanitizer/tsan_interface.h>
#endif

static inline void weft_san_switch(void **fake_save, const void *to_lo, size_t to_size,
                                   void *to_tsan_fiber)
{
#if WEFT_ASAN
    __sanitizer_start_switch_fiber(fake_save, to_lo, to_size);
#else
    (void)fake_save, (void)to_lo, (void)to_size;
#endif
#if WEFT_TSAN
    __tsan_switch_to_fiber(to_tsan_fiber, 0);
#else
    (void)to_tsan_fiber;
#endif
}

/* TSan: from here on the running code is fiber `f`'s (no stack change). */
static inline void weft_tsan_fiber_switch(void *f)
{
#if WEFT_TSAN
    __tsan_switch_to_fiber(f, 0);
#else
    (void)f;
#endif
}

static inline void weft_san_landed(void *fake)
{
#if WEFT_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#else
    (void)fake;
#endif
}

/* A stack abandoned by a finished ULT keeps the redzones of its last frames in ASan's
 * shadow memory; clear them before the stack is reused. */
static inline void weft_asan_unpoison_stack(const void *lo, size_t size)
{
#if WEFT_ASAN
    __asan_unpoison_memory_region(lo, size);
#else
    (void)lo, (void)size;
#endif
}

static inline void *weft_tsan_fiber_create(void)
{
#if WEFT_TSAN
    return __tsan_create_fiber(0);
#else
    return NULL;
#endif
}

static inline void *weft_tsan_fiber_current(void)
{
#if WEFT_TSAN
    return __tsan_get_current_fiber();
#else
    return NULL;
#endif
}

static inline void weft_tsan_fiber_destroy(void *f)
{
#if WEFT_TSAN
    if (f)
        __tsan_destroy_fiber(f);
#else
    (void)f;
#endif
}

#endif
