/* failinj_key: work-unit keys under allocation failure (tests/failinj.h fails each
 * traced call in turn).
 *
 * ABT_key_create (output untouched on error, as Argobots 1.x documents), ABT_key_set /
 * ABT_self_set_specific / ABT_thread_set_specific on the primary ULT and on ULTs, with
 * enough keys that a unit's key table grows several times, ABT_key_get, destructors at
 * ULT exit (each value set successfully is destroyed exactly once), and ABT_key_free.
 * A failed set reports ABT_ERR_MEM and leaves the old value in place. */
#include "failinj.h"

enum { NKEYS = 20, NULT = 4 };
static ABT_key keys[NKEYS];
static _Atomic int destroyed, stored;

static void dtor(void *v)
{
    atomic_fetch_add(&destroyed, 1);
    free(v);
}

static void set_all(ABT_thread t)
{
    for (int i = 0; i < NKEYS; i++) {
        if (keys[i] == ABT_KEY_NULL)
            continue;
        void *v = malloc(8), *old = (void *)1;
        int ok = t == ABT_THREAD_NULL ? FI_OK(ABT_self_set_specific(keys[i], v))
                                      : FI_OK(ABT_thread_set_specific(t, keys[i], v));
        if (!ok) {
            free(v);
            continue;
        }
        atomic_fetch_add(&stored, 1);
        if (t == ABT_THREAD_NULL)
            FI_MUST(ABT_key_get(keys[i], &old));
        else
            FI_MUST(ABT_thread_get_specific(t, keys[i], &old));
        if (old != v)
            FI_FAIL("key %d: read back %p, stored %p", i, old, v);
    }
}

static void ult(void *arg)
{
    if (arg) /* not set from outside already */
        set_all(ABT_THREAD_NULL);
    ABT_thread_yield();
}

static void program(void)
{
    FI_RETRY(ABT_init(0, NULL));
    for (int i = 0; i < NKEYS; i++)
        if (!FI_OUT_KEEP(keys[i], ABT_key_create(dtor, &keys[i])))
            keys[i] = ABT_KEY_NULL;
    ABT_xstream self;
    ABT_pool pool;
    FI_MUST(ABT_xstream_self(&self));
    FI_MUST(ABT_xstream_get_main_pools(self, 1, &pool));
    ABT_thread t[NULT];
    for (int i = 0; i < NULT; i++) {
        if (!FI_OUT_NULL(t[i], ABT_THREAD_NULL,
                         ABT_thread_create(pool, ult, (void *)(intptr_t)(i % 2 == 0),
                                           ABT_THREAD_ATTR_NULL, &t[i])))
            t[i] = ABT_THREAD_NULL;
        else if (i % 2)
            set_all(t[i]); /* from outside, before it runs */
    }
    for (int i = 0; i < NULT; i++)
        if (t[i] != ABT_THREAD_NULL)
            FI_MUST(ABT_thread_free(&t[i]));
    /* the primary ULT's values: destroyed at ABT_finalize; free ours first */
    for (int i = 0; i < NKEYS; i++)
        if (keys[i] != ABT_KEY_NULL) {
            void *v = NULL;
            FI_MUST(ABT_key_get(keys[i], &v));
            if (v)
                FI_FAIL("the primary ULT has a value it never set");
        }
    if (atomic_load(&destroyed) != atomic_load(&stored))
        FI_FAIL("%d values stored in ULTs, %d destroyed", atomic_load(&stored),
                atomic_load(&destroyed));
    for (int i = 0; i < NKEYS; i++)
        if (keys[i] != ABT_KEY_NULL)
            FI_MUST(ABT_key_free(&keys[i]));
    FI_MUST(ABT_finalize());
}

int main(void) { return fi_main("failinj_key", program); }
