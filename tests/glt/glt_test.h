/* tests/glt/glt_test.h - the helper of the GLT tests: tests/test.h's CHECK macros (GLT
 * returns abt.h error codes) over <glt.h>.  Every test source is compiled twice
 * (tests/glt/CMakeLists.txt): glt_<name> against libweft-glt, glt_<name>_fast with
 * -DFASTGLT (header-only, linked to libweft only).  GLT_TEST_BUILD names the build in
 * messages.  The tests register their own tool callbacks (events), so the life-cycle
 * checker of test.h is left out. */
#ifndef GLT_TEST_H
#define GLT_TEST_H

#include <glt.h>

#undef CHECK /* GLT's CHECK(x, y) (glt.h, as the original); the tests use test.h's */
#define TEST_NO_LIFECYCLE 1
#include "test.h"

#ifdef FASTGLT
#define GLT_TEST_BUILD "header-only"
#else
#define GLT_TEST_BUILD "library"
#endif

/* Spins (yielding) until *flag is set; fails the test after a generous bound. */
static inline void glt_test_wait_flag(volatile int *flag)
{
    double t0 = glt_get_wtime();
    while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
        glt_yield();
        if (glt_get_wtime() - t0 > 60.0)
            TEST_FAIL("waited 60 s for a flag");
    }
}

#endif
