/* src/arch/compiler.h - compiler attributes, branch hints, build-time toggles and internal
 * assertions; the first header of every layer.
 *
 * Toggles are constants (0/1) so that both variants of `if (WEFT_X)` always compile
 * (STYLE 5).  CMake defines them; a file compiled on its own gets the defaults below. */
#ifndef WEFT_ARCH_COMPILER_H
#define WEFT_ARCH_COMPILER_H

#include <stdio.h>
#include <stdlib.h>

#define WEFT_API         __attribute__((visibility("default")))
#define WEFT_INTERNAL    __attribute__((visibility("hidden")))
/* WEFT_FACE_API: core entry points that a face built as a library of its own (libweft-omp,
 * libweft-io, libweft-mpi, ...) calls through core/face.h: exported from libweft.so so that
 * such a library links, but declared in no public header and not part of the API (their
 * names and contracts may change with weft). */
#define WEFT_FACE_API    __attribute__((visibility("default")))
#define WEFT_COLD        __attribute__((cold, noinline))
/* The entry points and paths of a fork-join, each on a cache line of its own: without it
 * their places move with every change elsewhere in the library, and with them the time of
 * a fork-join (about 1 ns of 20, same instructions: docs/design/fork.md, "Scheduler
 * creation in the joiner"). */
#define WEFT_HOT_ALIGN   __attribute__((aligned(64)))
#define WEFT_WUR         __attribute__((warn_unused_result))
#define WEFT_LIKELY(x)   __builtin_expect(!!(x), 1)
#define WEFT_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* WEFT_ASSUME(x): x holds; the compiler may drop tests that it makes redundant */
#define WEFT_ASSUME(x)               \
    do {                             \
        if (!(x))                    \
            __builtin_unreachable(); \
    } while (0)

/* WEFT_OPAQUE(v): the compiler no longer knows where v points (no code), so it computes
 * an address derived from v afresh rather than keeping one in a register (a callee-saved
 * one across a call: a push, a pop and the computation) */
#define WEFT_OPAQUE(v) __asm__("" : "+r"(v))

/* WEFT_TSAN: a ThreadSanitizer build (CMake defines it for the core; a layer that does not
 * gets it from the compiler), where the inline assembly that TSan cannot see is left out */
#if !defined(WEFT_TSAN) && defined(__SANITIZE_THREAD__)
#define WEFT_TSAN 1
#endif
#if !defined(WEFT_TSAN) && defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WEFT_TSAN 1
#endif
#endif
#ifndef WEFT_TSAN
#define WEFT_TSAN 0
#endif

/* --*p <= 0, for a counter of the calling thread's: GCC loads, subtracts, stores and tests
 * (4 instructions before the branch); on x86-64 this is one subtraction on memory whose
 * flags the branch reads. */
static inline __attribute__((always_inline)) _Bool weft_dec_le_zero(int *p)
{
#if defined(__x86_64__) && defined(__GCC_ASM_FLAG_OUTPUTS__)
    _Bool le;
    __asm__("subl $1, %0" : "+m"(*p), "=@ccle"(le));
    return le;
#else
    return --*p <= 0;
#endif
}
#ifndef WEFT_ASAN
#define WEFT_ASAN 0
#endif
#ifndef WEFT_USE_VALGRIND
#define WEFT_USE_VALGRIND 0
#endif
/* WEFT_ASSERTS: protocol contracts checked at run time.  On in Debug and sanitizer builds
 * (CMake), off in Release, where the condition is not evaluated but still compiled. */
#ifndef WEFT_ASSERTS
#define WEFT_ASSERTS 0
#endif

WEFT_INTERNAL WEFT_COLD __attribute__((noreturn)) void
weft_assert_fail(const char *expr, const char *file, int line, const char *func);

/* WEFT_ASSERT(cond): a contract of a protocol ("only the owning stream calls this", "the
 * unit is off its stack").  A failure prints the condition and where, then aborts. */
#define WEFT_ASSERT(cond)                                          \
    do {                                                           \
        if (WEFT_ASSERTS && WEFT_UNLIKELY(!(cond)))                \
            weft_assert_fail(#cond, __FILE__, __LINE__, __func__); \
    } while (0)

#endif
