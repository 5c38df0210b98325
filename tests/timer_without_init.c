/* timer_without_init: the timer routines and ABT_get_wtime may be called
 * without initializing Argobots (context "any"): all ten work before
 * ABT_init and after ABT_finalize, and a timer created before ABT_init stays
 * valid across init/finalize. */
#include "test.h"

static void busy_wait(double secs)
{
    double t0 = ABT_get_wtime();
    while (ABT_get_wtime() - t0 < secs)
        ;
}

static void exercise(void)
{
    ABT_timer t, d;
    double secs = -1, acc = 0, ov = -1;
    CHECK(ABT_get_wtime() > 0.0);
    CHECK_ABT(ABT_timer_create(&t));
    CHECK_ABT(ABT_timer_start(t));
    busy_wait(0.002);
    CHECK_ABT(ABT_timer_stop(t));
    CHECK_ABT(ABT_timer_read(t, &secs));
    CHECK(secs >= 0.002);
    CHECK_ABT(ABT_timer_dup(t, &d));
    CHECK_ABT(ABT_timer_start(d));
    CHECK_ABT(ABT_timer_stop_and_read(d, &secs));
    CHECK(secs >= 0.0);
    CHECK_ABT(ABT_timer_start(d));
    CHECK_ABT(ABT_timer_stop_and_add(d, &acc));
    CHECK(acc >= 0.0);
    CHECK_ABT(ABT_timer_get_overhead(&ov));
    CHECK(ov >= 0.0);
    CHECK_ABT(ABT_timer_free(&d));
    CHECK_ABT(ABT_timer_free(&t));
}

int main(int argc, char **argv)
{
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    exercise();

    ABT_timer keep;
    CHECK_ABT(ABT_timer_create(&keep));
    CHECK_ABT(ABT_timer_start(keep));
    CHECK_ABT(ABT_init(argc, argv));
    exercise();
    CHECK_ABT(ABT_finalize());
    CHECK_ABT(ABT_timer_stop(keep));
    double secs = -1;
    CHECK_ABT(ABT_timer_read(keep, &secs));
    CHECK(secs >= 0.0);
    CHECK_ABT(ABT_timer_free(&keep));

    exercise();
    return 0;
}
