/* src/pthread/key.c - thread-specific data (pthread_key_*) and pthread_once.
 *
 * Keys.  A global table of PTHREAD_KEYS_MAX slots, each with a sequence number that is odd
 * while the key exists (create and delete each add one, under `lock`) and its destructor.
 * A thread's values are a `pth_values` array of {seq, value} grown on demand, so that a
 * value set under a deleted key reads as NULL under a new key in the same slot.  A ULT
 * keeps its array in its record; a thread that is not a ULT keeps it under one real glibc
 * key, whose destructor runs ours when that thread exits.  At a thread's end the
 * destructors run for up to PTHREAD_DESTRUCTOR_ITERATIONS rounds, as glibc does.
 *
 * Once.  The control word (glibc's int, PTHREAD_ONCE_INIT = 0): 0 not run, 1 running,
 * 2 done.  The first caller CASes 0 -> 1, runs the routine, stores 2 (release); the others
 * yield until they read 2 (acquire): a ULT waiting for a ULT of its own stream must let
 * it run.  Cancellation of the routine does not exist here. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pthread/face.h"

#define NKEYS PTHREAD_KEYS_MAX

struct key_slot {
    _Atomic uintptr_t seq; /* odd: in use */
    void (*_Atomic dtor)(void *);
};

struct pth_values {
    unsigned cap; /* entries */
    struct {
        uintptr_t seq;
        void *val;
    } v[];
};

static struct key_slot keys[NKEYS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* real: creation and deletion */
static pthread_key_t ext_key; /* the values of threads that are not ULTs */

static struct pth_values **my_values(void);

static void ext_destroy(void *p)
{
    (void)p; /* the same array as the exiting thread's own pointer, which we clear */
    pth_values_destroy(my_values());
}

int pth_keys_init(void) { return pth_real(pthread_key_create)(&ext_key, ext_destroy); }

/* The caller's value array (NULL if it has none). */
static struct pth_values **my_values(void)
{
    pth_thread *s = pth_self();
    if (s)
        return &s->values;
    static __thread struct pth_values *ext; /* mirrored in ext_key for its destructor */
    return &ext;
}

void pth_values_destroy(struct pth_values **values)
{
    struct pth_values *v = *values;
    if (!v)
        return;
    for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
        bool any = false;
        for (unsigned k = 0; k < v->cap; k++) {
            void *val = v->v[k].val;
            if (!val)
                continue;
            uintptr_t seq = v->v[k].seq;
            void (*d)(void *) = weft_atomic_load_acquire(&keys[k].dtor);
            v->v[k].val = NULL;
            if (d && weft_atomic_load_acquire(&keys[k].seq) == seq) {
                d(val); /* may set values again: another round */
                v = *values;
                any = true;
            }
        }
        if (!any)
            break;
    }
    *values = NULL;
    free(v);
}

PTH_API int pthread_key_create(pthread_key_t *key, void (*dtor)(void *))
{
    if (pth_internal())
        return pth_real(pthread_key_create)(key, dtor);
    pth_real(pthread_mutex_lock)(&lock);
    int rc = EAGAIN;
    for (unsigned k = 0; k < NKEYS; k++) {
        uintptr_t seq = weft_atomic_load_relaxed(&keys[k].seq);
        if (seq & 1)
            continue;
        weft_atomic_store_relaxed(&keys[k].dtor, dtor);
        weft_atomic_store_release(&keys[k].seq, seq + 1);
        *key = k;
        rc = 0;
        break;
    }
    pth_real(pthread_mutex_unlock)(&lock);
    return rc;
}

PTH_API int pthread_key_delete(pthread_key_t key)
{
    if (pth_internal())
        return pth_real(pthread_key_delete)(key);
    if (key >= NKEYS)
        return EINVAL;
    pth_real(pthread_mutex_lock)(&lock);
    uintptr_t seq = weft_atomic_load_relaxed(&keys[key].seq);
    int rc = EINVAL;
    if (seq & 1) {
        weft_atomic_store_release(&keys[key].seq, seq + 1);
        rc = 0;
    }
    pth_real(pthread_mutex_unlock)(&lock);
    return rc;
}

PTH_API void *pthread_getspecific(pthread_key_t key)
{
    if (pth_internal())
        return pth_real(pthread_getspecific)(key);
    if (key >= NKEYS)
        return NULL;
    struct pth_values *v = *my_values();
    if (!v || key >= v->cap)
        return NULL;
    if (v->v[key].seq != weft_atomic_load_relaxed(&keys[key].seq))
        return NULL;
    return v->v[key].val;
}

PTH_API int pthread_setspecific(pthread_key_t key, const void *val)
{
    if (pth_internal())
        return pth_real(pthread_setspecific)(key, val);
    if (key >= NKEYS)
        return EINVAL;
    uintptr_t seq = weft_atomic_load_acquire(&keys[key].seq);
    if (!(seq & 1))
        return EINVAL;
    struct pth_values **pv = my_values();
    struct pth_values *v = *pv;
    if (!v || key >= v->cap) {
        if (!val)
            return 0;
        unsigned cap = v ? v->cap : 0, ncap = cap ? cap : 8;
        while (ncap <= key)
            ncap *= 2;
        if (ncap > NKEYS)
            ncap = NKEYS;
        struct pth_values *n = realloc(v, sizeof *n + ncap * sizeof n->v[0]);
        if (!n)
            return ENOMEM;
        memset(&n->v[cap], 0, (ncap - cap) * sizeof n->v[0]);
        n->cap = ncap;
        *pv = v = n;
        if (!pth_self()) /* not a ULT: glibc runs ext_destroy at its exit */
            pth_real(pthread_setspecific)(ext_key, n);
    }
    v->v[key].seq = seq;
    v->v[key].val = (void *)val;
    return 0;
}

PTH_API int pthread_once(pthread_once_t *once, void (*init)(void))
{
    if (pth_internal())
        return pth_real(pthread_once)(once, init);
    _Atomic int *w = (_Atomic int *)once;
    int s = weft_atomic_load_acquire(w);
    if (WEFT_LIKELY(s == 2))
        return 0;
    if (s == 0 && weft_atomic_cas_strong_acquire(w, &s, 1)) {
        init();
        weft_atomic_store_release(w, 2);
        return 0;
    }
    while (weft_atomic_load_acquire(w) != 2)
        pth_yield();
    return 0;
}

/* The same functions under weft_<name> (include/weft_pthread.h). */
PTH_ALIAS(pthread_getspecific)
PTH_ALIAS(pthread_key_create)
PTH_ALIAS(pthread_key_delete)
PTH_ALIAS(pthread_once)
PTH_ALIAS(pthread_setspecific)
