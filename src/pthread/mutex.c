/* src/pthread/mutex.c - pthread mutexes and spinlocks over weft.
 *
 * A pthread_mutex_t (glibc: 40 bytes on x86-64, 48 on AArch64) holds a `pmutex`:
 *   h      the ABT_mutex doing the work, created on first use (CAS from NULL; the loser
 *          frees its own), so PTHREAD_MUTEX_INITIALIZER (all zero) works;
 *   owner  the holder's identity (pth_identity) for recursive and errorcheck mutexes,
 *          written by the holder only, NULL when free;
 *   kind   glibc's __kind, at glibc's offset: the static initialisers of the recursive,
 *          errorcheck and adaptive mutexes write the type there;
 *   count  recursion depth - 1, holder only.
 * ABT_mutex parks a ULT that waits (its stream runs other ULTs) and puts a thread that is
 * not a ULT to sleep on a futex, so one object serves both.  Recursion and the errorcheck
 * rules are ours, on `owner`: only the holder ever finds its own identity there.
 * pthread_mutex_timedlock polls (trylock, then a 20 us sleep of the caller: a ULT sleeps
 * in weft, its stream runs others) because ABT_mutex has no timed lock.  Robust and
 * process-shared mutexes are refused (ENOTSUP); priority protocols are accepted and have
 * no effect (ULTs have no priorities here).  A mutex that is never destroyed keeps its
 * ABT_mutex (a small allocation) for the life of the process.
 *
 * A pthread_spinlock_t is one int: exchange to lock; a waiter that spun 100 times yields
 * (a ULT to its stream, where the holder may be waiting to run). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include <weft.h>

#include "arch/cpu.h"
#include "pthread/face.h"
#include "pthread/mutex.h"

_Static_assert(sizeof(struct pmutex) <= sizeof(pthread_mutex_t), "pmutex fits pthread_mutex_t");
_Static_assert(offsetof(struct pmutex, kind) == offsetof(pthread_mutex_t, __data.__kind),
               "pmutex.kind is glibc's __kind (the static initialisers write it)");

int pth_mutex_handle_slow(struct pmutex *m, ABT_mutex *out)
{
    if (!pth_ready())
        return EAGAIN;
    ABT_mutex n;
    pth_enter();
    int rc = ABT_mutex_create(&n);
    pth_leave();
    if (rc != ABT_SUCCESS)
        return pth_errno(rc);
    ABT_mutex e = NULL; /* zero memory, not the ABT_MUTEX_NULL sentinel */
    if (atomic_compare_exchange_strong(&m->h, &e, n) /* seq_cst: the loser reads the object */) {
        m->reach = pth_reach(n);
        *out = n;
        return 0;
    }
    pth_enter();
    ABT_mutex_free(&n);
    pth_leave();
    *out = e;
    return 0;
}

PTH_API int pthread_mutex_init(pthread_mutex_t *mu, const pthread_mutexattr_t *attr)
{
    if (pth_internal())
        return pth_real(pthread_mutex_init)(mu, attr);
    int type = PTHREAD_MUTEX_NORMAL;
    if (attr) {
        int v;
        if (pthread_mutexattr_gettype(attr, &type) != 0)
            return EINVAL;
        if (pthread_mutexattr_getpshared(attr, &v) == 0 && v == PTHREAD_PROCESS_SHARED)
            return ENOTSUP;
        if (pthread_mutexattr_getrobust(attr, &v) == 0 && v == PTHREAD_MUTEX_ROBUST)
            return ENOTSUP;
    }
    memset(mu, 0, sizeof *mu);
    ((struct pmutex *)mu)->kind = type & PMUTEX_KIND_MASK;
    return 0;
}

PTH_API int pthread_mutex_destroy(pthread_mutex_t *mu)
{
    if (pth_internal())
        return pth_real(pthread_mutex_destroy)(mu);
    struct pmutex *m = (struct pmutex *)mu;
    if (weft_atomic_load_relaxed(&m->owner))
        return EBUSY;
    ABT_mutex h = weft_atomic_load_acquire(&m->h);
    if (h) {
        pth_enter();
        int rc = ABT_mutex_trylock(h);
        if (rc == ABT_SUCCESS) {
            ABT_mutex_unlock(h);
            ABT_mutex_free(&h);
        }
        pth_leave();
        if (rc != ABT_SUCCESS)
            return EBUSY;
    }
    int kind = m->kind;
    memset(mu, 0, sizeof *mu);
    m->kind = kind; /* a destroyed mutex may be initialised again; keep its type meanwhile */
    return 0;
}

/* Recursive/errorcheck: the caller holds it already.  Returns -1 to go on locking. */
static int relock(struct pmutex *m, int kind, const void *me, bool try)
{
    if (weft_atomic_load_relaxed(&m->owner) != me)
        return -1;
    if (kind == PTHREAD_MUTEX_ERRORCHECK)
        return try ? EBUSY : EDEADLK;
    if (m->count == UINT_MAX)
        return EAGAIN;
    m->count++;
    return 0;
}

/* lock and trylock: the owner check of the recursive and errorcheck kinds, then the
 * weft mutex behind the object. */
/* always_inline: the lock path is one function, as the program calls it */
static inline __attribute__((always_inline)) int lock_any(pthread_mutex_t *mu, bool try)
{
    struct pmutex *m = (struct pmutex *)mu;
    int kind = m->kind & PMUTEX_KIND_MASK;
    const void *me = NULL;
    if (pmutex_owned_kind(kind)) {
        me = pth_identity();
        int rc = relock(m, kind, me, try);
        if (rc >= 0)
            return rc;
    }
    ABT_mutex h;
    int rc = pth_mutex_handle(m, &h);
    if (rc != 0)
        return rc;
    pth_enter();
    rc = try ? ABT_mutex_trylock(h) : ABT_mutex_lock(h);
    pth_leave();
    if (rc != ABT_SUCCESS)
        return try && rc == ABT_ERR_MUTEX_LOCKED ? EBUSY : pth_errno(rc);
    if (me) {
        m->count = 0;
        weft_atomic_store_relaxed(&m->owner, me);
    }
    return 0;
}

PTH_API int pthread_mutex_lock(pthread_mutex_t *mu)
{
    if (pth_internal())
        return pth_real(pthread_mutex_lock)(mu);
    return lock_any(mu, false);
}

PTH_API int pthread_mutex_trylock(pthread_mutex_t *mu)
{
    if (pth_internal())
        return pth_real(pthread_mutex_trylock)(mu);
    return lock_any(mu, true);
}

/* Lock before abs_rt (CLOCK_REALTIME), polling. */
static int lock_until(pthread_mutex_t *mu, const struct timespec *abs_rt)
{
    for (;;) {
        int rc = pthread_mutex_trylock(mu);
        if (rc != EBUSY)
            return rc;
        struct pmutex *m = (struct pmutex *)mu;
        if ((m->kind & PMUTEX_KIND_MASK) == PTHREAD_MUTEX_ERRORCHECK &&
            weft_atomic_load_relaxed(&m->owner) == pth_identity())
            return EDEADLK;
        if (pth_passed(abs_rt))
            return ETIMEDOUT;
        if (pth_self()) {
            pth_enter();
            weft_thread_sleep(20e-6);
            pth_leave();
        } else {
            struct timespec d = { 0, 20000 };
            nanosleep(&d, NULL);
        }
    }
}

PTH_API int pthread_mutex_timedlock(pthread_mutex_t *mu, const struct timespec *abs)
{
    if (pth_internal())
        return pth_real(pthread_mutex_timedlock)(mu, abs);
    int rc = pthread_mutex_trylock(mu);
    if (rc != EBUSY)
        return rc;
    if (!pth_ts_valid(abs))
        return EINVAL;
    return lock_until(mu, abs);
}

PTH_API int pthread_mutex_clocklock(pthread_mutex_t *mu, clockid_t clock,
                                    const struct timespec *abs)
{
    if (pth_internal()) {
        __typeof__(&pthread_mutex_clocklock) f = pth_real(pthread_mutex_clocklock);
        return f ? f(mu, clock, abs) : ENOSYS;
    }
    if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
        return EINVAL;
    int rc = pthread_mutex_trylock(mu);
    if (rc != EBUSY)
        return rc;
    if (!pth_ts_valid(abs))
        return EINVAL;
    struct timespec rt = pth_to_realtime(clock, abs);
    return lock_until(mu, &rt);
}

PTH_API int pthread_mutex_unlock(pthread_mutex_t *mu)
{
    if (pth_internal())
        return pth_real(pthread_mutex_unlock)(mu);
    struct pmutex *m = (struct pmutex *)mu;
    int kind = m->kind & PMUTEX_KIND_MASK;
    if (pmutex_owned_kind(kind)) {
        if (weft_atomic_load_relaxed(&m->owner) != pth_identity())
            return EPERM;
        if (m->count > 0) {
            m->count--;
            return 0;
        }
        weft_atomic_store_relaxed(&m->owner, NULL);
    }
    ABT_mutex h = weft_atomic_load_acquire(&m->h);
    if (!h)
        return EPERM; /* never locked */
    pth_enter();
    int rc = ABT_mutex_unlock(h);
    pth_leave_running();
    return rc == ABT_SUCCESS ? 0 : EPERM;
}

PTH_API int pthread_mutex_consistent(pthread_mutex_t *mu)
{
    if (pth_internal())
        return pth_real(pthread_mutex_consistent)(mu);
    return EINVAL; /* no robust mutexes here */
}

/* ---- spinlocks ---- */

PTH_API int pthread_spin_init(pthread_spinlock_t *s, int pshared)
{
    if (pth_internal())
        return pth_real(pthread_spin_init)(s, pshared);
    weft_atomic_store_release((_Atomic int *)s, 0);
    return 0;
}

PTH_API int pthread_spin_destroy(pthread_spinlock_t *s)
{
    if (pth_internal())
        return pth_real(pthread_spin_destroy)(s);
    return 0;
}

PTH_API int pthread_spin_lock(pthread_spinlock_t *s)
{
    if (pth_internal())
        return pth_real(pthread_spin_lock)(s);
    _Atomic int *w = (_Atomic int *)s;
    while (weft_atomic_exchange_acquire(w, 1) != 0) {
        for (int n = 0; weft_atomic_load_relaxed(w) != 0; n++) {
            if (n < 100) {
                weft_cpu_relax();
            } else {
                pth_yield();
                n = 0;
            }
        }
    }
    return 0;
}

PTH_API int pthread_spin_trylock(pthread_spinlock_t *s)
{
    if (pth_internal())
        return pth_real(pthread_spin_trylock)(s);
    return weft_atomic_exchange_acquire((_Atomic int *)s, 1) == 0 ? 0 : EBUSY;
}

PTH_API int pthread_spin_unlock(pthread_spinlock_t *s)
{
    if (pth_internal())
        return pth_real(pthread_spin_unlock)(s);
    weft_atomic_store_release((_Atomic int *)s, 0);
    return 0;
}

/* The same functions under weft_<name> (include/weft_pthread.h). */
PTH_ALIAS(pthread_mutex_clocklock)
PTH_ALIAS(pthread_mutex_consistent)
PTH_ALIAS(pthread_mutex_destroy)
PTH_ALIAS(pthread_mutex_init)
PTH_ALIAS(pthread_mutex_lock)
PTH_ALIAS(pthread_mutex_timedlock)
PTH_ALIAS(pthread_mutex_trylock)
PTH_ALIAS(pthread_mutex_unlock)
PTH_ALIAS(pthread_spin_destroy)
PTH_ALIAS(pthread_spin_init)
PTH_ALIAS(pthread_spin_lock)
PTH_ALIAS(pthread_spin_trylock)
PTH_ALIAS(pthread_spin_unlock)
