/* src/pthread/rwlock.c - pthread read-write locks over weft.
 *
 * A pthread_rwlock_t (56 bytes) holds a pointer to its `rwstate`, made on first use (CAS
 * from NULL, the loser frees its own: PTHREAD_RWLOCK_INITIALIZER is all zero): an
 * ABT_mutex guarding the counts, and two ABT_conds, one for readers and one for writers.
 *   rdlock  waits while a writer holds it, then counts itself in `readers`;
 *   wrlock  waits while a writer or any reader holds it (counted in `wwait`), then owns it;
 *   unlock  a writer leaves, wakes all readers and one writer; the last reader wakes one
 *           writer.
 * Readers are preferred (glibc's default, PTHREAD_RWLOCK_PREFER_READER_NP): a reader gets
 * in while writers wait, so a thread may take a read lock it already holds.  A thread
 * asking for a lock while it holds the write lock gets EDEADLK, as with glibc.  Timed
 * variants wait with a CLOCK_REALTIME deadline (weft's cond). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pthread/face.h"

struct rwstate {
    ABT_mutex m;
    ABT_cond readers_cv, writers_cv;
    unsigned readers;   /* read locks held; guarded by m */
    unsigned wwait;     /* writers waiting; guarded by m */
    const void *writer; /* the write holder's identity, NULL if none; guarded by m */
    void *reach[3];     /* pth_reach of the three handles */
};

struct prw {
    struct rwstate *_Atomic s;
};
_Static_assert(sizeof(struct prw) <= sizeof(pthread_rwlock_t), "prw fits pthread_rwlock_t");

static void state_free(struct rwstate *s)
{
    if (s->writers_cv)
        ABT_cond_free(&s->writers_cv);
    if (s->readers_cv)
        ABT_cond_free(&s->readers_cv);
    if (s->m)
        ABT_mutex_free(&s->m);
    free(s);
}

/* The lock's state, made on first use; called with internal set. */
static int state_get(pthread_rwlock_t *rw, struct rwstate **out)
{
    struct prw *p = (struct prw *)rw;
    struct rwstate *s = weft_atomic_load_acquire(&p->s);
    if (WEFT_LIKELY(s != NULL)) {
        *out = s;
        return 0;
    }
    s = calloc(1, sizeof *s);
    if (!s)
        return ENOMEM;
    if (ABT_mutex_create(&s->m) != ABT_SUCCESS || ABT_cond_create(&s->readers_cv) != ABT_SUCCESS ||
        ABT_cond_create(&s->writers_cv) != ABT_SUCCESS) {
        state_free(s);
        return ENOMEM;
    }
    s->reach[0] = pth_reach(s->m);
    s->reach[1] = pth_reach(s->readers_cv);
    s->reach[2] = pth_reach(s->writers_cv);
    struct rwstate *e = NULL;
    if (!atomic_compare_exchange_strong(&p->s, &e, s)) {
        state_free(s);
        s = e;
    }
    *out = s;
    return 0;
}

PTH_API int pthread_rwlock_init(pthread_rwlock_t *rw, const pthread_rwlockattr_t *attr)
{
    if (pth_internal())
        return pth_real(pthread_rwlock_init)(rw, attr);
    if (attr) {
        int shared;
        if (pthread_rwlockattr_getpshared(attr, &shared) == 0 && shared == PTHREAD_PROCESS_SHARED)
            return ENOTSUP;
    }
    memset(rw, 0, sizeof *rw);
    return 0;
}

PTH_API int pthread_rwlock_destroy(pthread_rwlock_t *rw)
{
    if (pth_internal())
        return pth_real(pthread_rwlock_destroy)(rw);
    struct prw *p = (struct prw *)rw;
    struct rwstate *s = weft_atomic_load_acquire(&p->s);
    if (s) {
        pth_enter();
        ABT_mutex_lock(s->m);
        bool busy = s->readers || s->writer || s->wwait;
        ABT_mutex_unlock(s->m);
        if (!busy)
            state_free(s);
        pth_leave();
        if (busy)
            return EBUSY;
    }
    memset(rw, 0, sizeof *rw);
    return 0;
}

enum mode { READ, WRITE };

/* Take rw in `mode`; try: do not wait; abs_rt: deadline (NULL: none). */
static int rw_lock(pthread_rwlock_t *rw, enum mode mode, bool try, const struct timespec *abs_rt)
{
    if (!pth_ready())
        return EAGAIN;
    const void *me = pth_identity();
    struct rwstate *s;
    pth_enter();
    int rc = state_get(rw, &s);
    if (rc != 0)
        goto out;
    ABT_mutex_lock(s->m);
    if (s->writer == me) {
        rc = EDEADLK;
    } else if (mode == READ) {
        while (s->writer && rc == 0) {
            if (try)
                rc = EBUSY;
            else if (abs_rt)
                rc = pth_errno(ABT_cond_timedwait(s->readers_cv, s->m, abs_rt));
            else
                ABT_cond_wait(s->readers_cv, s->m);
        }
        if (rc == 0) {
            if (s->readers == UINT_MAX)
                rc = EAGAIN;
            else
                s->readers++;
        }
    } else {
        s->wwait++;
        while ((s->writer || s->readers) && rc == 0) {
            if (try)
                rc = EBUSY;
            else if (abs_rt)
                rc = pth_errno(ABT_cond_timedwait(s->writers_cv, s->m, abs_rt));
            else
                ABT_cond_wait(s->writers_cv, s->m);
        }
        s->wwait--;
        if (rc == 0)
            s->writer = me;
        else if (!s->writer && !s->readers && s->wwait) /* pass a wake-up we may have had */
            ABT_cond_signal(s->writers_cv);
    }
    ABT_mutex_unlock(s->m);
out:
    pth_leave();
    return rc;
}

PTH_API int pthread_rwlock_rdlock(pthread_rwlock_t *rw)
{
    if (pth_internal())
        return pth_real(pthread_rwlock_rdlock)(rw);
    return rw_lock(rw, READ, false, NULL);
}

PTH_API int pthread_rwlock_tryrdlock(pthread_rwlock_t *rw)
{
    if (pth_internal())
        return pth_real(pthread_rwlock_tryrdlock)(rw);
    int rc = rw_lock(rw, READ, true, NULL);
    return rc == EDEADLK ? EBUSY : rc;
}

PTH_API int pthread_rwlock_wrlock(pthread_rwlock_t *rw)
{
    if (pth_internal())
        return pth_real(pthread_rwlock_wrlock)(rw);
    return rw_lock(rw, WRITE, false, NULL);
}

PTH_API int pthread_rwlock_trywrlock(pthread_rwlock_t *rw)
{
    if (pth_internal())
        return pth_real(pthread_rwlock_trywrlock)(rw);
    int rc = rw_lock(rw, WRITE, true, NULL);
    return rc == EDEADLK ? EBUSY : rc;
}

static int timed(pthread_rwlock_t *rw, enum mode mode, clockid_t clock, const struct timespec *abs)
{
    if (!pth_ts_valid(abs))
        return EINVAL;
    if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
        return EINVAL;
    struct timespec rt = pth_to_realtime(clock, abs);
    return rw_lock(rw, mode, false, &rt);
}

PTH_API int pthread_rwlock_timedrdlock(pthread_rwlock_t *rw, const struct timespec *abs)
{
    if (pth_internal())
        return pth_real(pthread_rwlock_timedrdlock)(rw, abs);
    return timed(rw, READ, CLOCK_REALTIME, abs);
}

PTH_API int pthread_rwlock_timedwrlock(pthread_rwlock_t *rw, const struct timespec *abs)
{
    if (pth_internal())
        return pth_real(pthread_rwlock_timedwrlock)(rw, abs);
    return timed(rw, WRITE, CLOCK_REALTIME, abs);
}

PTH_API int pthread_rwlock_clockrdlock(pthread_rwlock_t *rw, clockid_t clock,
                                       const struct timespec *abs)
{
    if (pth_internal()) {
        __typeof__(&pthread_rwlock_clockrdlock) f = pth_real(pthread_rwlock_clockrdlock);
        return f ? f(rw, clock, abs) : ENOSYS;
    }
    return timed(rw, READ, clock, abs);
}

PTH_API int pthread_rwlock_clockwrlock(pthread_rwlock_t *rw, clockid_t clock,
                                       const struct timespec *abs)
{
    if (pth_internal()) {
        __typeof__(&pthread_rwlock_clockwrlock) f = pth_real(pthread_rwlock_clockwrlock);
        return f ? f(rw, clock, abs) : ENOSYS;
    }
    return timed(rw, WRITE, clock, abs);
}

PTH_API int pthread_rwlock_unlock(pthread_rwlock_t *rw)
{
    if (pth_internal())
        return pth_real(pthread_rwlock_unlock)(rw);
    struct rwstate *s = weft_atomic_load_acquire(&((struct prw *)rw)->s);
    if (!s)
        return EPERM;
    const void *me = pth_identity();
    int rc = 0;
    pth_enter();
    ABT_mutex_lock(s->m);
    if (s->writer) {
        if (s->writer != me) {
            rc = EPERM;
        } else {
            s->writer = NULL;
            ABT_cond_broadcast(s->readers_cv);
            if (s->wwait)
                ABT_cond_signal(s->writers_cv);
        }
    } else if (s->readers) {
        if (--s->readers == 0 && s->wwait)
            ABT_cond_signal(s->writers_cv);
    } else {
        rc = EPERM;
    }
    ABT_mutex_unlock(s->m);
    pth_leave();
    return rc;
}

/* The same functions under weft_<name> (include/weft_pthread.h). */
PTH_ALIAS(pthread_rwlock_clockrdlock)
PTH_ALIAS(pthread_rwlock_clockwrlock)
PTH_ALIAS(pthread_rwlock_destroy)
PTH_ALIAS(pthread_rwlock_init)
PTH_ALIAS(pthread_rwlock_rdlock)
PTH_ALIAS(pthread_rwlock_timedrdlock)
PTH_ALIAS(pthread_rwlock_timedwrlock)
PTH_ALIAS(pthread_rwlock_tryrdlock)
PTH_ALIAS(pthread_rwlock_trywrlock)
PTH_ALIAS(pthread_rwlock_unlock)
PTH_ALIAS(pthread_rwlock_wrlock)
