/* stale_eventual: a copy of an eventual handle kept after ABT_eventual_free is refused
 * with ABT_ERR_INV_EVENTUAL by wait, timedwait, test, set, reset and free - also when a
 * new, unset eventual of the same size took its memory, where a wait would block - and
 * the new eventual is unaffected (a stale set does not set it). */
#include "stale_test.h"

#include <time.h>

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_eventual e, stale, e2;
    int v = 7;
    CHECK_ABT(ABT_eventual_create(sizeof(int), &e));
    CHECK_ABT(ABT_eventual_set(e, &v, sizeof(int)));
    stale = e;
    CHECK_ABT(ABT_eventual_free(&e));
    CHECK_ABT(ABT_eventual_create(sizeof(int), &e2));

    STALE_STEP("eventual: stale handle, memory reused by an unset eventual");
    void *val;
    ABT_bool ready;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 60;
    CHECK_ERR(ABT_eventual_wait(stale, &val), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_timedwait(stale, &val, &ts), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_test(stale, &val, &ready), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_set(stale, &v, sizeof(int)), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_reset(stale), ABT_ERR_INV_EVENTUAL);
    ABT_eventual copy = stale;
    CHECK_ERR(ABT_eventual_free(&copy), ABT_ERR_INV_EVENTUAL);

    CHECK_ABT(ABT_eventual_test(e2, &val, &ready));
    CHECK(ready == ABT_FALSE); /* the stale set did not reach it */
    int w = 42;
    CHECK_ABT(ABT_eventual_set(e2, &w, sizeof(int)));
    CHECK_ABT(ABT_eventual_wait(e2, &val));
    CHECK_EQ_INT(*(int *)val, 42);
    CHECK_ABT(ABT_eventual_free(&e2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
