/* src/arch/atomic.h - every atomic operation of weft, with its memory order in its name.
 *
 * A reader sees at the call what each access orders: `weft_atomic_load_acquire(&u->state)`
 * rather than `atomic_load_explicit(&u->state, memory_order_acquire)`.  The operations are
 * the C11 <stdatomic.h> generics (any atomic type), so these are thin macros, not
 * functions.  Compare-and-swap is `weft_atomic_cas_{weak,strong}_<success order>`, whose
 * failed attempt is relaxed, or `..._<success>_acquire` when the value read on failure is
 * used to go on (it then acquires); it returns true on success and writes the current
 * value to *expected on failure.
 *
 * Orders, in one line each (what the protocol comments rely on):
 *   relaxed  atomicity only (counters, racy hints re-checked under a lock)
 *   acquire  later accesses stay after it; pairs with a release on the same object
 *   release  earlier accesses stay before it; publishes what was written before
 *   acq_rel  both (read-modify-write hand-overs)
 *   seq_cst  one total order (Dekker-style sleeper/waker handshakes) */
#ifndef WEFT_ARCH_ATOMIC_H
#define WEFT_ARCH_ATOMIC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/compiler.h"

#define weft_atomic_load_relaxed(p) atomic_load_explicit((p), memory_order_relaxed)
#define weft_atomic_load_acquire(p) atomic_load_explicit((p), memory_order_acquire)
#define weft_atomic_load_seq_cst(p) atomic_load_explicit((p), memory_order_seq_cst)

#define weft_atomic_store_relaxed(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
#define weft_atomic_store_release(p, v) atomic_store_explicit((p), (v), memory_order_release)
#define weft_atomic_store_seq_cst(p, v) atomic_store_explicit((p), (v), memory_order_seq_cst)

#define weft_atomic_exchange_relaxed(p, v) atomic_exchange_explicit((p), (v), memory_order_relaxed)
#define weft_atomic_exchange_acquire(p, v) atomic_exchange_explicit((p), (v), memory_order_acquire)
#define weft_atomic_exchange_release(p, v) atomic_exchange_explicit((p), (v), memory_order_release)
#define weft_atomic_exchange_acq_rel(p, v) atomic_exchange_explicit((p), (v), memory_order_acq_rel)
#define weft_atomic_exchange_seq_cst(p, v) atomic_exchange_explicit((p), (v), memory_order_seq_cst)

#define weft_atomic_fetch_add_relaxed(p, v) \
    atomic_fetch_add_explicit((p), (v), memory_order_relaxed)
#define weft_atomic_fetch_add_acquire(p, v) \
    atomic_fetch_add_explicit((p), (v), memory_order_acquire)
#define weft_atomic_fetch_add_release(p, v) \
    atomic_fetch_add_explicit((p), (v), memory_order_release)
#define weft_atomic_fetch_add_acq_rel(p, v) \
    atomic_fetch_add_explicit((p), (v), memory_order_acq_rel)
#define weft_atomic_fetch_add_seq_cst(p, v) \
    atomic_fetch_add_explicit((p), (v), memory_order_seq_cst)

#define weft_atomic_fetch_sub_relaxed(p, v) \
    atomic_fetch_sub_explicit((p), (v), memory_order_relaxed)
#define weft_atomic_fetch_sub_acquire(p, v) \
    atomic_fetch_sub_explicit((p), (v), memory_order_acquire)
#define weft_atomic_fetch_sub_release(p, v) \
    atomic_fetch_sub_explicit((p), (v), memory_order_release)
#define weft_atomic_fetch_sub_acq_rel(p, v) \
    atomic_fetch_sub_explicit((p), (v), memory_order_acq_rel)
#define weft_atomic_fetch_sub_seq_cst(p, v) \
    atomic_fetch_sub_explicit((p), (v), memory_order_seq_cst)

#define weft_atomic_fetch_or_relaxed(p, v) atomic_fetch_or_explicit((p), (v), memory_order_relaxed)
#define weft_atomic_fetch_or_acquire(p, v) atomic_fetch_or_explicit((p), (v), memory_order_acquire)
#define weft_atomic_fetch_or_release(p, v) atomic_fetch_or_explicit((p), (v), memory_order_release)
#define weft_atomic_fetch_or_acq_rel(p, v) atomic_fetch_or_explicit((p), (v), memory_order_acq_rel)
#define weft_atomic_fetch_or_seq_cst(p, v) atomic_fetch_or_explicit((p), (v), memory_order_seq_cst)

#define weft_atomic_fetch_and_relaxed(p, v) \
    atomic_fetch_and_explicit((p), (v), memory_order_relaxed)
#define weft_atomic_fetch_and_acq_rel(p, v) \
    atomic_fetch_and_explicit((p), (v), memory_order_acq_rel)
#define weft_atomic_fetch_and_seq_cst(p, v) \
    atomic_fetch_and_explicit((p), (v), memory_order_seq_cst)

#define weft_atomic_cas_weak_relaxed(p, e, d) \
    atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_relaxed, memory_order_relaxed)
#define weft_atomic_cas_weak_acquire(p, e, d) \
    atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_acquire, memory_order_relaxed)
#define weft_atomic_cas_weak_release(p, e, d) \
    atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_release, memory_order_relaxed)
#define weft_atomic_cas_weak_acq_rel(p, e, d) \
    atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_acq_rel, memory_order_relaxed)
#define weft_atomic_cas_weak_seq_cst(p, e, d) \
    atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_seq_cst, memory_order_relaxed)
#define weft_atomic_cas_weak_acquire_acquire(p, e, d) \
    atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_acquire, memory_order_acquire)
#define weft_atomic_cas_weak_acq_rel_acquire(p, e, d) \
    atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_acq_rel, memory_order_acquire)
#define weft_atomic_cas_weak_seq_cst_acquire(p, e, d) \
    atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_seq_cst, memory_order_acquire)

#define weft_atomic_cas_strong_relaxed(p, e, d)                                  \
    atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_relaxed, \
                                            memory_order_relaxed)
#define weft_atomic_cas_strong_acquire(p, e, d)                                  \
    atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_acquire, \
                                            memory_order_relaxed)
#define weft_atomic_cas_strong_release(p, e, d)                                  \
    atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_release, \
                                            memory_order_relaxed)
#define weft_atomic_cas_strong_acq_rel(p, e, d)                                  \
    atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_acq_rel, \
                                            memory_order_relaxed)
#define weft_atomic_cas_strong_seq_cst(p, e, d)                                  \
    atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_seq_cst, \
                                            memory_order_relaxed)
#define weft_atomic_cas_strong_acquire_acquire(p, e, d)                          \
    atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_acquire, \
                                            memory_order_acquire)
#define weft_atomic_cas_strong_acq_rel_acquire(p, e, d)                          \
    atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_acq_rel, \
                                            memory_order_acquire)
#define weft_atomic_cas_strong_seq_cst_acquire(p, e, d)                          \
    atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_seq_cst, \
                                            memory_order_acquire)

/* Relaxed access to a plain (non-_Atomic) field that is mostly owner-written but read or
 * written racily elsewhere, so that plain stores stay cheap on the owner's hot path. */
#define weft_atomic_load_relaxed_plain(p)     __atomic_load_n((p), __ATOMIC_RELAXED)
#define weft_atomic_store_relaxed_plain(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

/* `*p += v` on a counter that one thread at a time writes (its writers hold a lock) and
 * others read racily (relaxed loads): one instruction on x86-64, where an aligned store
 * is seen whole, instead of a relaxed load and a relaxed store.  Not an atomic
 * read-modify-write: two writers at once would lose an update.  ThreadSanitizer builds
 * keep the C11 pair, which it sees. */
static inline void weft_atomic_add_sole_relaxed(_Atomic size_t *p, size_t v)
{
#if defined(__x86_64__) && !WEFT_TSAN
    __asm__ volatile("addq %1, %0" : "+m"(*(size_t *)p) : "er"(v));
#else
    atomic_store_explicit(p, atomic_load_explicit(p, memory_order_relaxed) + v,
                          memory_order_relaxed);
#endif
}

/* (relaxed load of *p) & mask, as a truth value; and whether a pointer is non-NULL.  On
 * x86-64 one `test` (or `cmp`) of the memory word and the branch that reads its flags,
 * where GCC loads the atomic into a register first (an aligned load is atomic there, and
 * the test is one); a constant mask that fits a byte (a dword) tests the low byte (dword)
 * only: x86-64 is little-endian.  Volatile:
 * each use reads memory, as the relaxed load it stands for.  ThreadSanitizer builds, and
 * builds without optimization (the byte form needs a constant), keep the C11 load. */
#if defined(__x86_64__) && defined(__GCC_ASM_FLAG_OUTPUTS__) && defined(__OPTIMIZE__) && !WEFT_TSAN
#define WEFT_ATOMIC_TEST_ASM 1
#else
#define WEFT_ATOMIC_TEST_ASM 0
#endif
static inline __attribute__((always_inline)) bool weft_atomic_test64_relaxed(_Atomic uint64_t *p,
                                                                             uint64_t mask)
{
#if WEFT_ATOMIC_TEST_ASM
    bool nz;
    if (__builtin_constant_p(mask) && mask == ~(uint64_t)0)
        __asm__ volatile("cmpq $0, %1" : "=@ccnz"(nz) : "m"(*(const volatile uint64_t *)p));
    else if (__builtin_constant_p(mask) && mask <= 0xff)
        __asm__ volatile("testb %2, %1"
                         : "=@ccnz"(nz)
                         : "m"(*(const volatile uint8_t *)p), "n"((uint8_t)mask));
    else if (__builtin_constant_p(mask) && mask <= 0x7fffffff)
        __asm__ volatile("testl %2, %1"
                         : "=@ccnz"(nz)
                         : "m"(*(const volatile uint32_t *)p), "n"((uint32_t)mask));
    else
        __asm__ volatile("testq %2, %1"
                         : "=@ccnz"(nz)
                         : "m"(*(const volatile uint64_t *)p), "r"(mask));
    return nz;
#else
    return (atomic_load_explicit(p, memory_order_relaxed) & mask) != 0;
#endif
}
static inline __attribute__((always_inline)) bool weft_atomic_test32_relaxed(_Atomic uint32_t *p,
                                                                             uint32_t mask)
{
#if WEFT_ATOMIC_TEST_ASM
    bool nz;
    if (__builtin_constant_p(mask) && mask <= 0xff)
        __asm__ volatile("testb %2, %1"
                         : "=@ccnz"(nz)
                         : "m"(*(const volatile uint8_t *)p), "n"((uint8_t)mask));
    else
        __asm__ volatile("testl %2, %1"
                         : "=@ccnz"(nz)
                         : "m"(*(const volatile uint32_t *)p), "r"(mask));
    return nz;
#else
    return (atomic_load_explicit(p, memory_order_relaxed) & mask) != 0;
#endif
}
/* Whether the 64-bit word at p (an _Atomic of a 64-bit type, passed as void *) equals v:
 * relaxed, and acquire (the asm is then a compiler barrier too; x86-64 loads acquire). */
static inline __attribute__((always_inline)) bool weft_atomic_eq64_relaxed(const void *p,
                                                                           uint64_t v)
{
#if WEFT_ATOMIC_TEST_ASM
    bool eq;
    __asm__ volatile("cmpq %2, %1" : "=@ccz"(eq) : "m"(*(const volatile uint64_t *)p), "er"(v));
    return eq;
#else
    return atomic_load_explicit((_Atomic uint64_t *)p, memory_order_relaxed) == v;
#endif
}
static inline __attribute__((always_inline)) bool weft_atomic_eq64_acquire(const void *p,
                                                                           uint64_t v)
{
#if WEFT_ATOMIC_TEST_ASM
    bool eq;
    __asm__ volatile("cmpq %2, %1"
                     : "=@ccz"(eq)
                     : "m"(*(const volatile uint64_t *)p), "er"(v)
                     : "memory");
    return eq;
#else
    return atomic_load_explicit((_Atomic uint64_t *)p, memory_order_acquire) == v;
#endif
}
/* Whether the byte at p is non-zero, relaxed. */
static inline __attribute__((always_inline)) bool weft_atomic_nonzero8_relaxed(_Atomic uint8_t *p)
{
#if WEFT_ATOMIC_TEST_ASM
    bool nz;
    __asm__ volatile("cmpb $0, %1" : "=@ccnz"(nz) : "m"(*(const volatile uint8_t *)p));
    return nz;
#else
    return atomic_load_explicit(p, memory_order_relaxed) != 0;
#endif
}
/* Whether the int at p is > 0, acquire (a compiler barrier too, as eq64_acquire). */
static inline __attribute__((always_inline)) bool weft_atomic_gt0_acquire(_Atomic int *p)
{
#if WEFT_ATOMIC_TEST_ASM
    bool gt;
    __asm__ volatile("cmpl $0, %1" : "=@ccg"(gt) : "m"(*(const volatile int *)p) : "memory");
    return gt;
#else
    return atomic_load_explicit(p, memory_order_acquire) > 0;
#endif
}
#if WEFT_ATOMIC_TEST_ASM
#define weft_atomic_nonnull_relaxed(p)                                                       \
    ({                                                                                       \
        bool nz_;                                                                            \
        __asm__ volatile("cmpq $0, %1" : "=@ccnz"(nz_) : "m"(*(void *const volatile *)(p))); \
        nz_;                                                                                 \
    })
#else
#define weft_atomic_nonnull_relaxed(p) (atomic_load_explicit((p), memory_order_relaxed) != NULL)
#endif

/* Fences, by what they order. */
#define weft_atomic_fence_acquire() atomic_thread_fence(memory_order_acquire)
#define weft_atomic_fence_release() atomic_thread_fence(memory_order_release)
#define weft_atomic_fence_seq_cst() atomic_thread_fence(memory_order_seq_cst)

#endif
