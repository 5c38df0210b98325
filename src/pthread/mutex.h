/* src/pthread/mutex.h - the layout of a pthread_mutex_t in this layer (mutex.c has the
 * protocol), shared with the condition variable, which releases and retakes the mutex. */
#ifndef WEFT_PTHREAD_MUTEX_H
#define WEFT_PTHREAD_MUTEX_H

#include "pthread/face.h"

struct pmutex {
    ABT_mutex _Atomic h;       /* the weft mutex, created on first use; NULL (zero, not
                                * ABT_MUTEX_NULL) before */
    const void *_Atomic owner; /* recursive/errorcheck: the holder's identity */
    int kind;                  /* glibc's __kind: PTHREAD_MUTEX_* type */
    unsigned count;            /* recursive: depth - 1; holder only */
    void *reach;               /* pth_reach(h) (face.h): for leak checkers */
};

#define PMUTEX_KIND_MASK 3 /* NORMAL 0, RECURSIVE 1, ERRORCHECK 2, ADAPTIVE 3 */

/* Recursive and errorcheck mutexes track their holder. */
static inline bool pmutex_owned_kind(int kind)
{
    return kind == PTHREAD_MUTEX_RECURSIVE || kind == PTHREAD_MUTEX_ERRORCHECK;
}

WEFT_INTERNAL int pth_mutex_handle_slow(struct pmutex *m, ABT_mutex *out);

/* The mutex's ABT_mutex, created on first use: 0 or an errno value. */
static inline int pth_mutex_handle(struct pmutex *m, ABT_mutex *out)
{
    ABT_mutex h = weft_atomic_load_acquire(&m->h);
    if (WEFT_LIKELY(h != NULL)) /* zero memory: not made yet */ {
        *out = h;
        return 0;
    }
    return pth_mutex_handle_slow(m, out);
}

#endif
