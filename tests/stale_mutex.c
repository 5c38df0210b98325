/* stale_mutex: a copy of a mutex handle kept after ABT_mutex_free is refused with
 * ABT_ERR_INV_MUTEX by every mutex routine (and by ABT_cond_wait), without blocking: also
 * when a new mutex took its memory and is held, where a lock through the stale handle
 * used to wait forever.  The new mutex is unaffected; a stale free frees nothing. */
#include "stale_test.h"

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_mutex m, stale, m2;
    CHECK_ABT(ABT_mutex_create(&m));
    CHECK_ABT(ABT_mutex_lock(m));
    CHECK_ABT(ABT_mutex_unlock(m));
    stale = m;
    CHECK_ABT(ABT_mutex_free(&m));
    CHECK(m == ABT_MUTEX_NULL);

    STALE_STEP("mutex: stale handle, memory free");
    CHECK_ERR(ABT_mutex_lock(stale), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_unlock(stale), ABT_ERR_INV_MUTEX);

    /* a new mutex (weft reuses the freed memory), held */
    CHECK_ABT(ABT_mutex_create(&m2));
    CHECK_ABT(ABT_mutex_lock(m2));
    STALE_STEP("mutex: stale handle, memory reused by a held mutex");
    CHECK_ERR(ABT_mutex_lock(stale), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_lock_high(stale), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_lock_low(stale), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_trylock(stale), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_spinlock(stale), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_unlock(stale), ABT_ERR_INV_MUTEX); /* must not release m2 */
    CHECK_ERR(ABT_mutex_unlock_se(stale), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_unlock_de(stale), ABT_ERR_INV_MUTEX);
    ABT_mutex_attr attr;
    CHECK_ERR(ABT_mutex_get_attr(stale, &attr), ABT_ERR_INV_MUTEX);
    ABT_cond c;
    CHECK_ABT(ABT_cond_create(&c));
    CHECK_ERR(ABT_cond_wait(c, stale), ABT_ERR_INV_MUTEX);
    CHECK_ABT(ABT_cond_free(&c));
    ABT_mutex copy = stale;
    CHECK_ERR(ABT_mutex_free(&copy), ABT_ERR_INV_MUTEX);
    CHECK(copy == stale);
    ABT_bool eq;
    CHECK_ABT(ABT_mutex_equal(stale, m2, &eq));
    CHECK(eq == ABT_FALSE);

    /* m2 is still held by us and works */
    CHECK_ERR(ABT_mutex_trylock(m2), ABT_ERR_MUTEX_LOCKED);
    CHECK_ABT(ABT_mutex_unlock(m2));
    CHECK_ABT(ABT_mutex_trylock(m2));
    CHECK_ABT(ABT_mutex_unlock(m2));
    CHECK_ABT(ABT_mutex_free(&m2));

    /* the memory of a freed mutex now holds a condition variable */
    CHECK_ABT(ABT_cond_create(&c));
    CHECK_ERR(ABT_mutex_lock(stale), ABT_ERR_INV_MUTEX);
    CHECK_ABT(ABT_cond_free(&c));

    /* statically initialised mutexes carry no tag and keep working */
    ABT_mutex_memory mem = ABT_MUTEX_INITIALIZER;
    ABT_mutex sm = ABT_MUTEX_MEMORY_GET_HANDLE(&mem);
    CHECK_ABT(ABT_mutex_lock(sm));
    CHECK_ABT(ABT_mutex_unlock(sm));
    CHECK_ABT(ABT_finalize());
    return 0;
}
