/* src/arch/spinlock.h - a test-and-test-and-set spinlock for short critical sections only
 * (pool queues, waiter lists, timer heaps): a few pointer writes, never a syscall or a
 * wait while held.  (A ULT that parks or yields may hold one across its context switch:
 * the post action on the other side releases it first thing, core/unit/unit.h, or the switch
 * itself once it left the suspended stack, weft_spin_word.)  The
 * uncontended acquire is one exchange inline; spinning is out of line. */
#ifndef WEFT_ARCH_SPINLOCK_H
#define WEFT_ARCH_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/atomic.h"
#include "arch/compiler.h"
#include "arch/cpu.h"

typedef struct {
    _Atomic uint32_t v;
} weft_spinlock;

static WEFT_COLD __attribute__((unused)) void weft_spin_lock_wait(weft_spinlock *l)
{
    do {
        while (weft_atomic_load_relaxed(&l->v))
            weft_cpu_relax();
    } while (weft_atomic_exchange_acquire(&l->v, 1));
}

/* One atomic step: the lock when it was free (weft_spin_lock's first step), else nothing.
 * On x86-64 a locked bit-test-and-set of the word (0 or 1) and the branch on its carry:
 * two instructions where the exchange takes four (the 1 in a register, the exchange,
 * the test, the branch), with the same ordering (a locked instruction is a full barrier;
 * "memory" makes it one for the compiler).  ThreadSanitizer builds keep the exchange,
 * which it sees. */
static inline bool weft_spin_take(weft_spinlock *l)
{
#if defined(__x86_64__) && defined(__GCC_ASM_FLAG_OUTPUTS__) && !WEFT_TSAN
    bool held;
    __asm__ volatile("lock btsl $0, %0"
                     : "+m"(*(volatile uint32_t *)&l->v), "=@ccc"(held)
                     :
                     : "memory");
    return !held;
#else
    return !weft_atomic_exchange_acquire(&l->v, 1);
#endif
}

static inline void weft_spin_lock(weft_spinlock *l)
{
    if (WEFT_LIKELY(weft_spin_take(l)))
        return;
    weft_spin_lock_wait(l);
}

static inline bool weft_spin_trylock(weft_spinlock *l)
{
    return !weft_atomic_load_relaxed(&l->v) && !weft_atomic_exchange_acquire(&l->v, 1);
}

static inline void weft_spin_unlock(weft_spinlock *l) { weft_atomic_store_release(&l->v, 0); }

/* The lock's word, for a release the caller's code cannot do itself: the context switch
 * that stores 0 into it once it is off the suspended stack (weft_ctx_switch_release). */
static inline uint32_t *weft_spin_word(weft_spinlock *l) { return (uint32_t *)&l->v; }

/* Held by the caller (contracts; a racy read, exact when the caller holds it). */
static inline bool weft_spin_is_locked(weft_spinlock *l)
{
    return weft_atomic_load_relaxed(&l->v) != 0;
}

#endif
