/* timer_measure: ABT_timer_create / start / stop / read measure elapsed wall
 * time: a ~20 ms busy wait (measured with ABT_get_wtime) reads back as about
 * 20 ms (and no more than the time around it); reading twice gives the same
 * value; restarting the timer starts a new interval (it reads no more than the
 * time around the new start/stop, which the test takes until it is shorter than
 * the first interval: a preemption there, on a loaded machine, only means one
 * more try); ABT_timer_free sets the handle to ABT_TIMER_NULL. */
#include "test.h"

static void busy_wait(double secs)
{
    double t0 = ABT_get_wtime();
    while (ABT_get_wtime() - t0 < secs)
        ;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_timer timer = ABT_TIMER_NULL;
    CHECK_ABT(ABT_timer_create(&timer));
    CHECK(timer != ABT_TIMER_NULL);

    double outer0 = ABT_get_wtime();
    CHECK_ABT(ABT_timer_start(timer));
    busy_wait(0.02);
    CHECK_ABT(ABT_timer_stop(timer));
    double outer = ABT_get_wtime() - outer0;

    double secs = -1.0, again = -2.0;
    CHECK_ABT(ABT_timer_read(timer, &secs));
    CHECK_ABT(ABT_timer_read(timer, &again));
    CHECK(secs == again);
    if (secs < 0.02 || secs > outer + 1e-3)
        TEST_FAIL("timer read %.6f s, expected in [0.02, %.6f]", secs, outer);

    /* A second, shorter interval. */
    double first = secs, tries0 = ABT_get_wtime();
    for (;;) {
        double o0 = ABT_get_wtime();
        CHECK_ABT(ABT_timer_start(timer));
        CHECK_ABT(ABT_timer_stop(timer));
        double o = ABT_get_wtime() - o0;
        CHECK_ABT(ABT_timer_read(timer, &secs));
        if (secs < 0.0 || secs > o + 1e-6)
            TEST_FAIL("restarted timer read %.6f s, the interval around it took %.6f s", secs, o);
        if (o < first)
            break; /* then secs < first: a new interval, not the first one continued */
        if (ABT_get_wtime() - tries0 > TEST_PATIENCE_S)
            TEST_FAIL("no start/stop took less than %.6f s in %.0f s", first, TEST_PATIENCE_S);
    }

    CHECK_ABT(ABT_timer_free(&timer));
    CHECK(timer == ABT_TIMER_NULL);
    CHECK_ABT(ABT_finalize());
    return 0;
}
