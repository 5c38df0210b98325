/* timer_get_wtime: ABT_get_wtime returns wall-clock seconds: consecutive
 * values never decrease, and over a ~20 ms interval its advance matches
 * clock_gettime(CLOCK_MONOTONIC) to within 5 ms.  Each ABT_get_wtime is read between
 * two monotonic reads, so a preemption between the reads (a loaded machine) widens the
 * interval its advance is compared with instead of skewing the comparison. */
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

    double m0a = mono(), w0 = ABT_get_wtime(), m0b = mono();
    while (mono() - m0b < 0.02)
        ;
    double m1a = mono(), w1 = ABT_get_wtime(), m1b = mono();
    /* w1 - w0 elapsed between m1a - m0b (the least) and m1b - m0a (the most) */
    double dw = w1 - w0, lo = m1a - m0b, hi = m1b - m0a;
    if (dw < lo - 0.005 || dw > hi + 0.005)
        TEST_FAIL("wtime advanced %.6f s while CLOCK_MONOTONIC advanced %.6f to %.6f s", dw, lo,
                  hi);

    CHECK_ABT(ABT_finalize());
    return 0;
}
