/* stale_rwlock: a copy of a readers-writer lock handle kept after ABT_rwlock_free is
 * refused with ABT_ERR_INV_RWLOCK by rdlock, wrlock, unlock and free - also when a new
 * rwlock took its memory and is write-locked, where the stale calls would block - and
 * the new lock is unaffected. */
#include "stale_test.h"

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_rwlock l, stale, l2;
    CHECK_ABT(ABT_rwlock_create(&l));
    stale = l;
    CHECK_ABT(ABT_rwlock_free(&l));
    CHECK_ABT(ABT_rwlock_create(&l2));
    CHECK_ABT(ABT_rwlock_wrlock(l2));
    STALE_STEP("rwlock: stale handle, memory reused by a write-locked rwlock");
    CHECK_ERR(ABT_rwlock_rdlock(stale), ABT_ERR_INV_RWLOCK);
    CHECK_ERR(ABT_rwlock_wrlock(stale), ABT_ERR_INV_RWLOCK);
    CHECK_ERR(ABT_rwlock_unlock(stale), ABT_ERR_INV_RWLOCK); /* must not release l2 */
    ABT_rwlock copy = stale;
    CHECK_ERR(ABT_rwlock_free(&copy), ABT_ERR_INV_RWLOCK);
    CHECK_ABT(ABT_rwlock_unlock(l2));
    CHECK_ABT(ABT_rwlock_rdlock(l2));
    CHECK_ABT(ABT_rwlock_rdlock(l2));
    CHECK_ABT(ABT_rwlock_unlock(l2));
    CHECK_ABT(ABT_rwlock_unlock(l2));
    CHECK_ABT(ABT_rwlock_wrlock(l2));
    CHECK_ABT(ABT_rwlock_unlock(l2));
    CHECK_ABT(ABT_rwlock_free(&l2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
