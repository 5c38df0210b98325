/* src/core/api/key.c - work-unit-local storage (ABT_key).
 *
 * A key has a process-unique id.  Each unit has a lazily made table of (value, destructor)
 * slots indexed by id.  The destructor is copied into the slot when the value is set, so
 * freeing a key does not leave units pointing at freed memory.  Destructors run when the
 * unit is freed (unnamed units: when they terminate) for every non-NULL value.
 *
 * Concurrency.  Argobots lets any stream or external thread set and get the keys of any
 * unit (ABT_thread_set_specific / get_specific on a handle) while the unit itself uses
 * them.  So the table never moves a slot once made, and growth only publishes new blocks:
 *   - the table (`struct weft_ktab`, published in u->keys by CAS) holds the first
 *     B = ABT_KEY_TABLE_SIZE slots (ids 0 .. B-1) inline;
 *   - ids >= B live in chunks: chunk c >= 1 holds the B << (c-1) ids from B << (c-1) on,
 *     so at most 33 chunks cover every 32-bit id; their pointers sit in a directory that is
 *     itself made on the first id >= B;
 *   - a missing table, directory or chunk is made zeroed and published by CAS from NULL
 *     (acq_rel); a thread that loses the race frees its copy and uses the winner's (the
 *     failed CAS acquires it).  Readers load each pointer with acquire.
 * No block is retired while the unit lives, so nobody can read freed memory and a value
 * stored in a slot is never lost to a concurrent copy (what realloc did).  Everything is
 * freed with the unit, when no other thread may use its handle any more.  A slot's value
 * is stored with release and loaded with acquire (a getter may dereference what a setter
 * built); its destructor is stored before it (relaxed: every setter of one id stores the
 * same one) and read only by the destruction, which is quiescent.
 * The owner's common path: one acquire load of u->keys, a compare with B, one access to
 * the slot (ids >= B: two more acquire loads and a bit scan); making blocks is `grow`. */
#include <stdlib.h>
#include <string.h>

#include "core/unit/unit.h"

struct weft_key {
    uint32_t id;
    void (*dtor)(void *);
};

typedef void (*key_dtor_fn)(void *);

struct key_slot {
    _Atomic(void *) value;
    _Atomic(key_dtor_fn) dtor;
};

#define KEY_CHUNKS 33 /* chunk 0 is the inline block; 1..32 cover 32-bit ids */

struct key_dir {
    _Atomic(struct key_slot *) chunk[KEY_CHUNKS];
};

struct weft_ktab {
    uint32_t shift;                /* B = 1 << shift inline slots */
    _Atomic(struct key_dir *) dir; /* NULL until an id >= B is set */
    struct key_slot slot[];        /* ids 0 .. B-1 */
};

static struct weft_key *key_from(ABT_key h)
{
    return (h == NULL || h == ABT_KEY_NULL) ? NULL : (struct weft_key *)h;
}

WEFT_API int ABT_key_create(void (*destructor)(void *value), ABT_key *newkey)
{
    if (!newkey)
        return ABT_ERR_INV_ARG;
    struct weft_key *k = malloc(sizeof(*k));
    if (!k)
        return ABT_ERR_MEM; /* *newkey untouched, as in Argobots 1.x */
    k->id = weft_atomic_fetch_add_seq_cst(&weft_g.next_key_id, 1);
    k->dtor = destructor;
    *newkey = (ABT_key)k;
    return ABT_SUCCESS;
}

WEFT_API int ABT_key_free(ABT_key *key)
{
    if (!key)
        return ABT_ERR_INV_ARG;
    struct weft_key *k = key_from(*key);
    if (!k)
        return ABT_ERR_INV_KEY;
    free(k);
    *key = ABT_KEY_NULL;
    return ABT_SUCCESS;
}

/* Chunk c >= 1 of an id >= B, and the id's index in it: chunk c holds the B << (c-1) ids
 * from B << (c-1) on (as many as all blocks before it). */
static inline uint32_t chunk_of(uint32_t q) { return 32u - (uint32_t)__builtin_clz(q); }
static inline uint64_t chunk_first(const struct weft_ktab *t, uint32_t c)
{
    return (uint64_t)1 << (t->shift + c - 1);
}

/* The slot of `id` if the blocks that hold it exist, else NULL. */
static inline struct key_slot *find_slot(weft_unit *u, uint32_t id)
{
    struct weft_ktab *t = weft_atomic_load_acquire(&u->keys);
    if (WEFT_UNLIKELY(!t))
        return NULL;
    uint32_t q = id >> t->shift;
    if (WEFT_LIKELY(q == 0))
        return &t->slot[id];
    struct key_dir *d = weft_atomic_load_acquire(&t->dir);
    if (WEFT_UNLIKELY(!d))
        return NULL;
    uint32_t c = chunk_of(q);
    struct key_slot *ch = weft_atomic_load_acquire(&d->chunk[c]);
    return ch ? &ch[id - chunk_first(t, c)] : NULL;
}

/* The slot of `id`, making the table, the directory and the chunk that are missing; NULL
 * when out of memory.  Each block is published by CAS from NULL; a thread that loses the
 * race frees its own block and uses the winner's (the failed CAS acquires it). */
static WEFT_COLD struct key_slot *grow(weft_unit *u, uint32_t id)
{
    struct weft_ktab *t = weft_atomic_load_acquire(&u->keys);
    if (!t) {
        uint32_t b = weft_initialized() ? weft_g.cfg.key_table_size : 4; /* a power of two */
        struct weft_ktab *fresh = calloc(1, sizeof(*fresh) + (size_t)b * sizeof(struct key_slot));
        if (!fresh)
            return NULL;
        fresh->shift = (uint32_t)__builtin_ctz(b);
        if (weft_atomic_cas_strong_acq_rel_acquire(&u->keys, &t, fresh)) {
            t = fresh;
            /* the release's one test of what it has to release (types.h, `cold`) */
            weft_atomic_store_relaxed(&u->cold, 1);
        } else {
            free(fresh);
        }
    }
    uint32_t q = id >> t->shift;
    if (q == 0)
        return &t->slot[id];
    struct key_dir *d = weft_atomic_load_acquire(&t->dir);
    if (!d) {
        struct key_dir *fresh = calloc(1, sizeof(*fresh));
        if (!fresh)
            return NULL;
        if (weft_atomic_cas_strong_acq_rel_acquire(&t->dir, &d, fresh))
            d = fresh;
        else
            free(fresh);
    }
    uint32_t c = chunk_of(q);
    uint64_t first = chunk_first(t, c);
    struct key_slot *ch = weft_atomic_load_acquire(&d->chunk[c]);
    if (!ch) {
        struct key_slot *fresh = NULL;
        if (first <= SIZE_MAX / sizeof(struct key_slot))
            fresh = calloc((size_t)first, sizeof(struct key_slot));
        if (!fresh)
            return NULL;
        if (weft_atomic_cas_strong_acq_rel_acquire(&d->chunk[c], &ch, fresh))
            ch = fresh;
        else
            free(fresh);
    }
    return &ch[id - first];
}

int weft_key_set(weft_unit *u, ABT_key key, void *value)
{
    struct weft_key *k = key_from(key);
    if (!k)
        return ABT_ERR_INV_KEY;
    struct key_slot *sl = find_slot(u, k->id);
    if (WEFT_UNLIKELY(!sl)) {
        if (!value) /* a slot never made: unset is already the state */
            return ABT_SUCCESS;
        if (!(sl = grow(u, k->id)))
            return ABT_ERR_MEM;
    }
    weft_atomic_store_relaxed(&sl->dtor, k->dtor);
    weft_atomic_store_release(&sl->value, value);
    return ABT_SUCCESS;
}

int weft_key_get(weft_unit *u, ABT_key key, void **value)
{
    struct weft_key *k = key_from(key);
    if (!k)
        return ABT_ERR_INV_KEY;
    if (!value)
        return ABT_ERR_INV_ARG;
    struct key_slot *sl = find_slot(u, k->id);
    *value = sl ? weft_atomic_load_acquire(&sl->value) : NULL;
    return ABT_SUCCESS;
}

static void run_slots(struct key_slot *sl, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        void *v = weft_atomic_load_relaxed(&sl[i].value);
        key_dtor_fn f = weft_atomic_load_relaxed(&sl[i].dtor);
        if (v && f)
            f(v);
    }
}

/* The unit is being freed: nobody else may use it any more. */
void weft_unit_run_key_dtors(weft_unit *u)
{
    struct weft_ktab *t = weft_atomic_load_acquire(&u->keys);
    if (!t)
        return;
    run_slots(t->slot, (uint64_t)1 << t->shift);
    struct key_dir *d = weft_atomic_load_acquire(&t->dir);
    if (d) {
        for (uint32_t c = 1; c < KEY_CHUNKS; c++) {
            struct key_slot *ch = weft_atomic_load_acquire(&d->chunk[c]);
            if (ch) {
                run_slots(ch, chunk_first(t, c));
                free(ch);
            }
        }
        free(d);
    }
    free(t);
    weft_atomic_store_relaxed(&u->keys, NULL);
}
