/* timer_get_wtime: ABT_get_wtime returns wall-clock seconds: consecutive
 * values never decrease, and over a ~20 ms interval its advance matches
 * clock_gettime(CLOCK_MONOTONIC) to within 5 ms. */
#include "test.h"
#include <time.h>

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    double prev = ABT_get_wtime();
    for (int i = 0; i < 100000; i++) {
        double now = ABT_get_wtime();
        if (now < prev)
            TEST_FAIL("ABT_get_wtime went backwards: %.9f -> %.9f", prev, now);
        prev = now;
    }

    /* Up to 3 attempts so that a preemption between the paired clock reads
     * on a loaded machine does not cause a spurious failure. */
    double dw = 0, dm = 0;
    int ok = 0;
    for (int attempt = 0; attempt < 3 && !ok; attempt++) {
        double w0 = ABT_get_wtime(), m0 = mono();
        while (mono() - m0 < 0.02)
            ;
        dw = ABT_get_wtime() - w0;
        dm = mono() - m0;
        ok = dw > dm - 0.005 && dw < dm + 0.005;
    }
    if (!ok)
        TEST_FAIL("wtime advanced %.6f s while CLOCK_MONOTONIC advanced %.6f s", dw, dm);

    CHECK_ABT(ABT_finalize());
    return 0;
}
