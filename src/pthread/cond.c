/* src/pthread/cond.c - pthread condition variables and barriers over weft.
 *
 * A pthread_cond_t (48 bytes) holds a `pcond`: the ABT_cond, created on first use like the
 * mutex's (PTHREAD_COND_INITIALIZER is all zero), and the clock of its timed waits
 * (pthread_condattr_setclock; 0 is CLOCK_REALTIME).  A wait releases the pthread mutex's
 * ownership record (recursive/errorcheck: owner and depth, restored on return) and waits
 * on the ABT_cond with the mutex's ABT_mutex, which weft releases and retakes: a ULT parks,
 * a thread that is not a ULT sleeps on a futex.  weft's timed wait takes a CLOCK_REALTIME
 * deadline: a CLOCK_MONOTONIC one is converted at the call (a later step of the real-time
 * clock moves it).  Signal and broadcast of a cond never waited on have nothing to do.
 *
 * A pthread_barrier_t (32 bytes) points to its state, made by pthread_barrier_init (a
 * barrier has no static initialiser): an ABT_mutex, an ABT_cond, the count, the number
 * arrived and a generation number.  The last arrival starts a new generation, wakes the
 * others and gets PTHREAD_BARRIER_SERIAL_THREAD; the others wait until the generation
 * changes (no spurious pass). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pthread/face.h"
#include "pthread/mutex.h"

struct pcond {
    ABT_cond _Atomic h; /* created on first use */
    int clock;          /* clockid_t of timed waits */
    void *reach;        /* pth_reach(h) */
};
_Static_assert(sizeof(struct pcond) <= sizeof(pthread_cond_t), "pcond fits pthread_cond_t");

static int cond_handle(struct pcond *c, ABT_cond *out)
{
    ABT_cond h = weft_atomic_load_acquire(&c->h);
    if (WEFT_LIKELY(h != NULL)) /* zero memory: not made yet */ {
        *out = h;
        return 0;
    }
    if (!pth_ready())
        return EAGAIN;
    pth_enter();
    int rc = ABT_cond_create(&h);
    pth_leave();
    if (rc != ABT_SUCCESS)
        return pth_errno(rc);
    ABT_cond e = NULL;
    if (atomic_compare_exchange_strong(&c->h, &e, h)) {
        c->reach = pth_reach(h);
        *out = h;
        return 0;
    }
    pth_enter();
    ABT_cond_free(&h);
    pth_leave();
    *out = e;
    return 0;
}

PTH_API int pthread_cond_init(pthread_cond_t *cv, const pthread_condattr_t *attr)
{
    if (pth_internal())
        return pth_real(pthread_cond_init)(cv, attr);
    clockid_t clock = CLOCK_REALTIME;
    if (attr) {
        int shared;
        if (pthread_condattr_getclock(attr, &clock) != 0)
            return EINVAL;
        if (pthread_condattr_getpshared(attr, &shared) == 0 && shared == PTHREAD_PROCESS_SHARED)
            return ENOTSUP;
    }
    memset(cv, 0, sizeof *cv);
    ((struct pcond *)cv)->clock = (int)clock;
    return 0;
}

PTH_API int pthread_cond_destroy(pthread_cond_t *cv)
{
    if (pth_internal())
        return pth_real(pthread_cond_destroy)(cv);
    struct pcond *c = (struct pcond *)cv;
    ABT_cond h = weft_atomic_load_acquire(&c->h);
    if (h) {
        pth_enter();
        int rc = ABT_cond_free(&h);
        pth_leave();
        if (rc != ABT_SUCCESS)
            return EBUSY;
    }
    memset(cv, 0, sizeof *cv);
    return 0;
}

/* Wait on cv with mu held; abs_rt NULL: no deadline. */
static int cond_wait(pthread_cond_t *cv, pthread_mutex_t *mu, const struct timespec *abs_rt)
{
    struct pcond *c = (struct pcond *)cv;
    struct pmutex *m = (struct pmutex *)mu;
    int kind = m->kind & PMUTEX_KIND_MASK;
    const void *me = NULL;
    unsigned depth = 0;
    if (pmutex_owned_kind(kind)) {
        me = pth_identity();
        if (weft_atomic_load_relaxed(&m->owner) != me)
            return EPERM;
    }
    ABT_mutex mh = weft_atomic_load_acquire(&m->h);
    if (!mh)
        return EPERM; /* the mutex was never locked */
    ABT_cond ch;
    int rc = cond_handle(c, &ch);
    if (rc != 0)
        return rc;
    if (me) {
        depth = m->count;
        weft_atomic_store_relaxed(&m->owner, NULL);
    }
    pth_enter();
    rc = abs_rt ? ABT_cond_timedwait(ch, mh, abs_rt) : ABT_cond_wait(ch, mh);
    pth_leave();
    if (me) {
        m->count = depth;
        weft_atomic_store_relaxed(&m->owner, me);
    }
    return pth_errno(rc);
}

PTH_API int pthread_cond_wait(pthread_cond_t *cv, pthread_mutex_t *mu)
{
    if (pth_internal())
        return pth_real(pthread_cond_wait)(cv, mu);
    return cond_wait(cv, mu, NULL);
}

PTH_API int pthread_cond_timedwait(pthread_cond_t *cv, pthread_mutex_t *mu,
                                   const struct timespec *abs)
{
    if (pth_internal())
        return pth_real(pthread_cond_timedwait)(cv, mu, abs);
    if (!pth_ts_valid(abs))
        return EINVAL;
    struct timespec rt = pth_to_realtime(((struct pcond *)cv)->clock, abs);
    return cond_wait(cv, mu, &rt);
}

PTH_API int pthread_cond_clockwait(pthread_cond_t *cv, pthread_mutex_t *mu, clockid_t clock,
                                   const struct timespec *abs)
{
    if (pth_internal()) {
        __typeof__(&pthread_cond_clockwait) f = pth_real(pthread_cond_clockwait);
        return f ? f(cv, mu, clock, abs) : ENOSYS;
    }
    if ((clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) || !pth_ts_valid(abs))
        return EINVAL;
    struct timespec rt = pth_to_realtime(clock, abs);
    return cond_wait(cv, mu, &rt);
}

PTH_API int pthread_cond_signal(pthread_cond_t *cv)
{
    if (pth_internal())
        return pth_real(pthread_cond_signal)(cv);
    ABT_cond h = weft_atomic_load_acquire(&((struct pcond *)cv)->h);
    if (!h)
        return 0; /* nobody ever waited */
    pth_enter();
    int rc = ABT_cond_signal(h);
    pth_leave_running();
    return pth_errno(rc);
}

PTH_API int pthread_cond_broadcast(pthread_cond_t *cv)
{
    if (pth_internal())
        return pth_real(pthread_cond_broadcast)(cv);
    ABT_cond h = weft_atomic_load_acquire(&((struct pcond *)cv)->h);
    if (!h)
        return 0;
    pth_enter();
    int rc = ABT_cond_broadcast(h);
    pth_leave_running();
    return pth_errno(rc);
}

/* ---- barriers ---- */

struct bstate {
    ABT_mutex m;
    ABT_cond c;
    unsigned count;   /* threads per round */
    unsigned arrived; /* guarded by m */
    unsigned gen;     /* guarded by m */
    void *reach[2];   /* pth_reach of m and c */
};

struct pbarrier {
    struct bstate *s; /* made by pthread_barrier_init */
};
_Static_assert(sizeof(struct pbarrier) <= sizeof(pthread_barrier_t),
               "pbarrier fits pthread_barrier_t");

PTH_API int pthread_barrier_init(pthread_barrier_t *bar, const pthread_barrierattr_t *attr,
                                 unsigned count)
{
    if (pth_internal())
        return pth_real(pthread_barrier_init)(bar, attr, count);
    if (count == 0)
        return EINVAL;
    if (attr) {
        int shared;
        if (pthread_barrierattr_getpshared(attr, &shared) == 0 && shared == PTHREAD_PROCESS_SHARED)
            return ENOTSUP;
    }
    if (!pth_ready())
        return EAGAIN;
    struct bstate *b = calloc(1, sizeof *b);
    if (!b)
        return ENOMEM;
    pth_enter();
    int rc = ABT_mutex_create(&b->m);
    if (rc == ABT_SUCCESS) {
        rc = ABT_cond_create(&b->c);
        if (rc != ABT_SUCCESS)
            ABT_mutex_free(&b->m);
    }
    pth_leave();
    if (rc != ABT_SUCCESS) {
        free(b);
        return pth_errno(rc);
    }
    b->count = count;
    b->reach[0] = pth_reach(b->m);
    b->reach[1] = pth_reach(b->c);
    memset(bar, 0, sizeof *bar);
    ((struct pbarrier *)bar)->s = b;
    return 0;
}

PTH_API int pthread_barrier_destroy(pthread_barrier_t *bar)
{
    if (pth_internal())
        return pth_real(pthread_barrier_destroy)(bar);
    struct bstate *b = ((struct pbarrier *)bar)->s;
    if (!b)
        return EINVAL;
    pth_enter();
    ABT_mutex_lock(b->m);
    unsigned arrived = b->arrived;
    ABT_mutex_unlock(b->m);
    if (arrived == 0) {
        ABT_cond_free(&b->c);
        ABT_mutex_free(&b->m);
    }
    pth_leave();
    if (arrived != 0)
        return EBUSY;
    free(b);
    memset(bar, 0, sizeof *bar);
    return 0;
}

PTH_API int pthread_barrier_wait(pthread_barrier_t *bar)
{
    if (pth_internal())
        return pth_real(pthread_barrier_wait)(bar);
    struct bstate *b = ((struct pbarrier *)bar)->s;
    if (!b)
        return EINVAL;
    int ret = 0;
    pth_enter();
    ABT_mutex_lock(b->m);
    unsigned gen = b->gen;
    if (++b->arrived == b->count) {
        b->arrived = 0;
        b->gen++;
        ABT_cond_broadcast(b->c);
        ret = PTHREAD_BARRIER_SERIAL_THREAD;
    } else {
        while (b->gen == gen)
            ABT_cond_wait(b->c, b->m);
    }
    ABT_mutex_unlock(b->m);
    pth_leave();
    return ret;
}

/* The same functions under weft_<name> (include/weft_pthread.h). */
PTH_ALIAS(pthread_barrier_destroy)
PTH_ALIAS(pthread_barrier_init)
PTH_ALIAS(pthread_barrier_wait)
PTH_ALIAS(pthread_cond_broadcast)
PTH_ALIAS(pthread_cond_clockwait)
PTH_ALIAS(pthread_cond_destroy)
PTH_ALIAS(pthread_cond_init)
PTH_ALIAS(pthread_cond_signal)
PTH_ALIAS(pthread_cond_timedwait)
PTH_ALIAS(pthread_cond_wait)
