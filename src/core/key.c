/* src/core/key.c - work-unit-local storage (ABT_key).
 * A key has a process-unique id; each unit has a lazily allocated table of (value,
 * destructor) slots indexed by id, starting at ABT_KEY_TABLE_SIZE slots and doubling.
 * The destructor is copied into the slot when the value is set, so freeing a key does
 * not leave units pointing at freed memory.  Destructors run when the unit is freed
 * (unnamed units: when they terminate) for every non-NULL value. */
#include <stdlib.h>
#include <string.h>

#include "core/unit.h"

struct weft_key {
    uint32_t id;
    void (*dtor)(void *);
};

struct key_slot {
    void *value;
    void (*dtor)(void *);
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
        return ABT_ERR_MEM;        /* *newkey untouched, as in Argobots 1.x */
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

WEFT_INTERNAL int weft_key_set(weft_unit *u, ABT_key key, void *value)
{
    struct weft_key *k = key_from(key);
    if (!k)
        return ABT_ERR_INV_KEY;
    if (k->id >= u->nkeys) {
        if (!value)
            return ABT_SUCCESS;    /* nothing stored: unset is already the state */
        uint32_t n = u->nkeys ? u->nkeys : (weft_initialized() ? weft_g.cfg.key_table_size : 4);
        while (n <= k->id)
            n *= 2;
        struct key_slot *t = realloc(u->keys, n * sizeof(*t));
        if (!t)
            return ABT_ERR_MEM;
        memset(t + u->nkeys, 0, (n - u->nkeys) * sizeof(*t));
        u->keys = (void **)t;
        u->nkeys = n;
    }
    struct key_slot *t = (struct key_slot *)u->keys;
    t[k->id].value = value;
    t[k->id].dtor = k->dtor;
    return ABT_SUCCESS;
}

WEFT_INTERNAL int weft_key_get(weft_unit *u, ABT_key key, void **value)
{
    struct weft_key *k = key_from(key);
    if (!k)
        return ABT_ERR_INV_KEY;
    if (!value)
        return ABT_ERR_INV_ARG;
    struct key_slot *t = (struct key_slot *)u->keys;
    *value = k->id < u->nkeys ? t[k->id].value : NULL;
    return ABT_SUCCESS;
}

void weft_unit_run_key_dtors(weft_unit *u)
{
    struct key_slot *t = (struct key_slot *)u->keys;
    for (uint32_t i = 0; i < u->nkeys; i++)
        if (t[i].value && t[i].dtor)
            t[i].dtor(t[i].value);
    free(t);
    u->keys = NULL;
    u->nkeys = 0;
}
