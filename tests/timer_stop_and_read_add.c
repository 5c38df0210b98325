/* timer_stop_and_read_add: ABT_timer_stop_and_read stops the timer and
 * returns the elapsed time (same as a later ABT_timer_read);
 * ABT_timer_stop_and_add adds the elapsed time to *secs instead of
 * overwriting it, so repeated start/stop_and_add accumulates. */
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

    ABT_timer timer;
    CHECK_ABT(ABT_timer_create(&timer));

    /* each interval reads at least the busy wait inside it and at most the time
     * measured around it (however long a preemption made that) */
    double secs = -1.0, readback = -2.0;
    double o0 = ABT_get_wtime();
    CHECK_ABT(ABT_timer_start(timer));
    busy_wait(0.01);
    CHECK_ABT(ABT_timer_stop_and_read(timer, &secs));
    double outer = ABT_get_wtime() - o0;
    CHECK(secs >= 0.01 && secs <= outer + 1e-6);
    CHECK_ABT(ABT_timer_read(timer, &readback));
    CHECK(readback == secs);

    double acc = 100.0, outer_sum = 0.0;
    for (int i = 0; i < 3; i++) {
        o0 = ABT_get_wtime();
        CHECK_ABT(ABT_timer_start(timer));
        busy_wait(0.005);
        CHECK_ABT(ABT_timer_stop_and_add(timer, &acc));
        outer_sum += ABT_get_wtime() - o0;
    }
    if (acc < 100.0 + 3 * 0.005 || acc > 100.0 + outer_sum + 1e-5)
        TEST_FAIL("accumulated %.6f, expected 100 + at least 0.015, at most %.6f", acc, outer_sum);
    /* The last interval is also readable. */
    CHECK_ABT(ABT_timer_read(timer, &readback));
    CHECK(readback >= 0.005 && readback <= acc - 100.0);

    CHECK_ABT(ABT_timer_free(&timer));
    CHECK_ABT(ABT_finalize());
    return 0;
}
