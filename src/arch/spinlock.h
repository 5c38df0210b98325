/* src/arch/spinlock.h - a test-and-test-and-set spinlock for short critical sections only
 * (pool queues, waiter lists, timer heaps): a few pointer writes, never a switch or a
 * syscall while held. */
#ifndef WEFT_ARCH_SPINLOCK_H
#define WEFT_ARCH_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/atomic.h"
#include "arch/cpu.h"

typedef struct {
    _Atomic uint32_t v;
} weft_spinlock;

static inline void weft_spin_lock(weft_spinlock *l)
{
    for (;;) {
        if (!weft_atomic_exchange_acquire(&l->v, 1))
            return;
        while (weft_atomic_load_relaxed(&l->v))
            weft_cpu_relax();
    }
}

static inline bool weft_spin_trylock(weft_spinlock *l)
{
    return !weft_atomic_load_relaxed(&l->v) && !weft_atomic_exchange_acquire(&l->v, 1);
}

static inline void weft_spin_unlock(weft_spinlock *l) { weft_atomic_store_release(&l->v, 0); }

/* Held by the caller (contracts; a racy read, exact when the caller holds it). */
static inline bool weft_spin_is_locked(weft_spinlock *l)
{
    return weft_atomic_load_relaxed(&l->v) != 0;
}

#endif
