/* stale_future: a copy of a future handle kept after ABT_future_free is refused with
 * ABT_ERR_INV_FUTURE by wait, test, set, reset and free - also when a new, unready future
 * with as many compartments took its memory, where a wait would block - and the new
 * future is unaffected (a stale set fills none of its compartments). */
#include "stale_test.h"

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_future f, stale, f2;
    CHECK_ABT(ABT_future_create(2, NULL, &f));
    stale = f;
    CHECK_ABT(ABT_future_free(&f));
    CHECK_ABT(ABT_future_create(2, NULL, &f2));
    STALE_STEP("future: stale handle, memory reused by an unready future");
    ABT_bool ready;
    CHECK_ERR(ABT_future_wait(stale), ABT_ERR_INV_FUTURE);
    CHECK_ERR(ABT_future_test(stale, &ready), ABT_ERR_INV_FUTURE);
    CHECK_ERR(ABT_future_set(stale, NULL), ABT_ERR_INV_FUTURE);
    CHECK_ERR(ABT_future_reset(stale), ABT_ERR_INV_FUTURE);
    ABT_future copy = stale;
    CHECK_ERR(ABT_future_free(&copy), ABT_ERR_INV_FUTURE);
    CHECK_ABT(ABT_future_set(f2, NULL));
    CHECK_ABT(ABT_future_test(f2, &ready));
    CHECK(ready == ABT_FALSE); /* one compartment left: the stale set counted nowhere */
    CHECK_ABT(ABT_future_set(f2, NULL));
    CHECK_ABT(ABT_future_wait(f2));
    CHECK_ABT(ABT_future_free(&f2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
