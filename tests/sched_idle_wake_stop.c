/* sched_idle_wake_stop: under every predefined scheduler, streams that have been idle
 * long enough to sleep react to stop requests at once: ABT_xstream_join of a sleeping
 * stream, ABT_xstream_cancel of another, ABT_xstream_free of a third (which joins it),
 * ABT_sched_finish of the scheduler of a fourth: each returns, or the stream terminates
 * (printed: microseconds); a lost wake-up would leave the caller blocked, which the test
 * calls a failure after idle_wake_limit(). */
#include "idle_test.h"

static void check_fast(const char *what, ABT_sched_predef p, double t)
{
    double limit = idle_wake_limit();
    printf("%s: %s of a sleeping stream took %.1f us\n", idle_sched_name(p), what, t * 1e6);
    if (t > limit)
        TEST_FAIL("%s: %s of a sleeping stream took %.3f s", idle_sched_name(p), what, t);
}

static ABT_xstream new_stream(ABT_sched_predef p, ABT_sched *sched)
{
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create_basic(p, 0, NULL, ABT_SCHED_CONFIG_NULL, &xs));
    if (sched)
        CHECK_ABT(ABT_xstream_get_main_sched(xs, sched));
    return xs;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    for (int k = 0; k < IDLE_NPREDEFS; k++) {
        ABT_sched_predef p = idle_predefs[k];
        ABT_sched s4;
        ABT_xstream a = new_stream(p, NULL), b = new_stream(p, NULL);
        ABT_xstream c = new_stream(p, NULL), d = new_stream(p, &s4);
        idle_sleep(IDLE_SETTLE);

        double t0 = idle_now();
        CHECK_ABT(ABT_xstream_join(a));
        check_fast("ABT_xstream_join", p, idle_now() - t0);

        t0 = idle_now();
        CHECK_ABT(ABT_xstream_cancel(b));
        CHECK_ABT(ABT_xstream_join(b));
        check_fast("ABT_xstream_cancel", p, idle_now() - t0);

        t0 = idle_now();
        CHECK_ABT(ABT_xstream_free(&c));
        check_fast("ABT_xstream_free", p, idle_now() - t0);

        t0 = idle_now();
        CHECK_ABT(ABT_sched_finish(s4));
        ABT_xstream_state st;
        do
            CHECK_ABT(ABT_xstream_get_state(d, &st));
        while (st != ABT_XSTREAM_STATE_TERMINATED && idle_now() < t0 + idle_wake_limit());
        check_fast("ABT_sched_finish", p, idle_now() - t0);

        ABT_xstream all[3] = { a, b, d };
        for (int i = 0; i < 3; i++)
            CHECK_ABT(ABT_xstream_free(&all[i]));
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
