/* src/omp/critical.c - critical (unnamed and named) and atomic start/end.
 *
 * Each is a word lock (lock.c): 0 free, 1 held, 2 held with waiters.  The unnamed
 * critical and the atomic fallback have a static word each.  A named critical passes
 * a pointer-sized variable gcc emits per name (zero-initialized, shared by every
 * object file that uses the name): the word lock lives in its first 4 bytes. */
#include "omp/rt.h"

static _Atomic uint32_t unnamed_word;
static _Atomic uint32_t atomic_word;

WO_API void GOMP_critical_start(void) { wo_word_lock(&unnamed_word); }

WO_API void GOMP_critical_end(void) { wo_word_unlock(&unnamed_word); }

WO_API void GOMP_critical_name_start(void **pptr) { wo_word_lock((_Atomic uint32_t *)pptr); }

WO_API void GOMP_critical_name_end(void **pptr) { wo_word_unlock((_Atomic uint32_t *)pptr); }

WO_API void GOMP_atomic_start(void) { wo_word_lock(&atomic_word); }

WO_API void GOMP_atomic_end(void) { wo_word_unlock(&atomic_word); }
