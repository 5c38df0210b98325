/* src/omp/lock.c - the word lock, and omp_lock_t / omp_nest_lock_t on it.
 *
 * Layouts (gcc 12 omp.h on Linux): omp_lock_t is 4 bytes (aligned 4): the word;
 * omp_nest_lock_t is 16 bytes (aligned 8): the word, the nesting count, the owner.
 * The owner of a nestable lock is the task that set it (OpenMP: locks are owned by
 * tasks), i.e. the wo_task the OpenMP thread runs.
 *
 * Word lock: 0 free, 1 held, 2 held and maybe waited for.  lock = CAS 0 -> 1, else spin a
 * little, then exchange 2 in until it returned 0.  Between exchanges a waiter sleeps:
 *   - a ULT parks on the ABT_cond of the bucket its word hashes to (64 buckets): it
 *     increments bucket.nwait under the bucket mutex and waits only while the word still
 *     reads 2; unlock (word -> 0, then a read-modify-write read of nwait, ordered with the
 *     waiter's increment) broadcasts the bucket when nwait is not 0, under its mutex:
 *     no lost wake-up.
 *   - an OS thread that is not a ULT (or before weft runs) sleeps in futex_wait(word, 2);
 *     unlock wakes one futex waiter.
 * The ULT path never blocks its stream: the stream runs other ULTs meanwhile. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp/rt.h"

#define NBUCKETS 64

/* All-zero ABT_mutex_memory / ABT_cond_memory are initialized objects: the buckets need
 * no creation and nothing to free. */
static struct bucket {
    ABT_mutex_memory m;
    ABT_cond_memory c;
    _Atomic int nwait;
} buckets[NBUCKETS];

static struct bucket *bucket_of(_Atomic uint32_t *w)
{
    uintptr_t h = (uintptr_t)w;
    h ^= h >> 7;
    h ^= h >> 13;
    return &buckets[h % NBUCKETS];
}

static bool caller_is_ult(void)
{
    if (weft_atomic_load_acquire(&wo_rt_state) != 2)
        return false;
    ABT_unit_type type;
    return ABT_self_get_type(&type) == ABT_SUCCESS && type == ABT_UNIT_TYPE_THREAD;
}

void wo_word_lock_slow(_Atomic uint32_t *w)
{
    for (int i = 0; i < 200; i++) {
        weft_cpu_relax();
        uint32_t e = 0;
        if (weft_atomic_load_relaxed(w) == 0 && weft_atomic_cas_strong_acquire(w, &e, 1))
            return;
    }
    bool ult = caller_is_ult();
    while (weft_atomic_exchange_seq_cst(w, 2) != 0) {
        if (ult) {
            struct wo_tls_swap *s = wo_off_cpu();
            struct bucket *b = bucket_of(w);
            ABT_mutex m = ABT_MUTEX_MEMORY_GET_HANDLE(&b->m);
            ABT_mutex_lock(m);
            weft_atomic_fetch_add_seq_cst(&b->nwait, 1);
            if (weft_atomic_load_seq_cst(w) == 2)
                ABT_cond_wait(ABT_COND_MEMORY_GET_HANDLE(&b->c), m);
            weft_atomic_fetch_sub_seq_cst(&b->nwait, 1);
            ABT_mutex_unlock(m);
            wo_on_cpu(s);
        } else {
            weft_futex_wait(w, 2, 0);
        }
    }
}

void wo_word_unlock_slow(_Atomic uint32_t *w)
{
    weft_futex_wake(w, 1);
    struct bucket *b = bucket_of(w);
    if (weft_atomic_fetch_add_acq_rel(&b->nwait, 0) > 0) { /* RMW: see wo_team_wake */
        struct wo_tls_swap *s = wo_off_cpu();
        ABT_mutex m = ABT_MUTEX_MEMORY_GET_HANDLE(&b->m);
        ABT_mutex_lock(m);
        ABT_cond_broadcast(ABT_COND_MEMORY_GET_HANDLE(&b->c));
        ABT_mutex_unlock(m);
        wo_on_cpu(s);
    }
}

/* ---- the omp_*_lock API ---- */

typedef struct {
    _Atomic uint32_t word;
} lock_t;

typedef struct {
    _Atomic uint32_t word;
    int count;           /* written by the owner only */
    void *_Atomic owner; /* read by anyone: is it me? (relaxed: only I store "me") */
} nest_t;

_Static_assert(sizeof(lock_t) == 4, "omp_lock_t is 4 bytes in gcc's omp.h");
_Static_assert(sizeof(nest_t) <= 16, "omp_nest_lock_t is 16 bytes in gcc's omp.h");

static void impl_init_lock(void *l) { weft_atomic_store_relaxed(&((lock_t *)l)->word, 0); }
WO_API void omp_init_lock_with_hint(void *l, int hint)
{
    (void)hint;
    impl_init_lock(l);
}
static void impl_destroy_lock(void *l) { (void)l; }
static void impl_set_lock(void *l) { wo_word_lock(&((lock_t *)l)->word); }
static void impl_unset_lock(void *l) { wo_word_unlock(&((lock_t *)l)->word); }
static int impl_test_lock(void *l)
{
    uint32_t e = 0;
    return weft_atomic_cas_strong_acquire(&((lock_t *)l)->word, &e, 1);
}

static void *owner_self(void) { return wo_self()->task; }

static void impl_init_nest_lock(void *l)
{
    nest_t *n = l;
    weft_atomic_store_relaxed(&n->word, 0);
    n->count = 0;
    weft_atomic_store_relaxed(&n->owner, NULL);
}
WO_API void omp_init_nest_lock_with_hint(void *l, int hint)
{
    (void)hint;
    impl_init_nest_lock(l);
}
static void impl_destroy_nest_lock(void *l) { (void)l; }
static void impl_set_nest_lock(void *l)
{
    nest_t *n = l;
    void *me = owner_self();
    if (weft_atomic_load_relaxed(&n->owner) == me) { /* only the owner sees itself */
        n->count++;
        return;
    }
    wo_word_lock(&n->word);
    weft_atomic_store_relaxed(&n->owner, me);
    n->count = 1;
}
static void impl_unset_nest_lock(void *l)
{
    nest_t *n = l;
    if (--n->count == 0) {
        weft_atomic_store_relaxed(&n->owner, NULL);
        wo_word_unlock(&n->word);
    }
}
static int impl_test_nest_lock(void *l)
{
    nest_t *n = l;
    void *me = owner_self();
    if (weft_atomic_load_relaxed(&n->owner) == me)
        return ++n->count;
    uint32_t e = 0;
    if (!weft_atomic_cas_strong_acquire(&n->word, &e, 1))
        return 0;
    weft_atomic_store_relaxed(&n->owner, me);
    n->count = 1;
    return 1;
}

/* Every lock routine exists twice, as in libgomp: the default version (OMP_3.0, the
 * 4- and 16-byte layouts of today's omp.h) and the OMP_1.0 version that binaries built
 * before OpenMP 3.0 were linked with (larger lock types: these operations use only
 * their first bytes, so one implementation serves both). */
#define VERSIONED(name, ret, params, args)                        \
    WO_API ret wo_##name##_30 params { return impl_##name args; } \
    WO_API ret wo_##name##_10 params { return impl_##name args; } \
    __asm__(".symver wo_" #name "_30, omp_" #name "@@OMP_3.0");   \
    __asm__(".symver wo_" #name "_10, omp_" #name "@OMP_1.0");
VERSIONED(init_lock, void, (void *l), (l))
VERSIONED(destroy_lock, void, (void *l), (l))
VERSIONED(set_lock, void, (void *l), (l))
VERSIONED(unset_lock, void, (void *l), (l))
VERSIONED(test_lock, int, (void *l), (l))
VERSIONED(init_nest_lock, void, (void *l), (l))
VERSIONED(destroy_nest_lock, void, (void *l), (l))
VERSIONED(set_nest_lock, void, (void *l), (l))
VERSIONED(unset_nest_lock, void, (void *l), (l))
VERSIONED(test_nest_lock, int, (void *l), (l))
