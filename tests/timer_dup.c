/* timer_dup: ABT_timer_dup creates an independent timer holding the same
 * start and stop times: it reads the same interval as the original, and
 * restarting/stopping either one later does not affect the other. */
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

    ABT_timer a, b = ABT_TIMER_NULL;
    CHECK_ABT(ABT_timer_create(&a));
    CHECK_ABT(ABT_timer_start(a));
    busy_wait(0.01);
    CHECK_ABT(ABT_timer_stop(a));

    CHECK_ABT(ABT_timer_dup(a, &b));
    CHECK(b != ABT_TIMER_NULL && b != a);
    double sa = -1, sb = -2;
    CHECK_ABT(ABT_timer_read(a, &sa));
    CHECK_ABT(ABT_timer_read(b, &sb));
    CHECK(sa == sb);
    CHECK(sa >= 0.01);

    /* Independent afterwards: a new interval of a (shorter than the first, retried until
     * the time around it is, as a preemption may stretch it) leaves b alone. */
    double sa2 = -1, sb2 = -2, tries0 = ABT_get_wtime();
    for (;;) {
        double o0 = ABT_get_wtime();
        CHECK_ABT(ABT_timer_start(a));
        CHECK_ABT(ABT_timer_stop(a));
        double o = ABT_get_wtime() - o0;
        CHECK_ABT(ABT_timer_read(a, &sa2));
        CHECK_ABT(ABT_timer_read(b, &sb2));
        CHECK(sb2 == sb);
        CHECK(sa2 >= 0.0 && sa2 <= o + 1e-6);
        if (o < sa)
            break;
        if (ABT_get_wtime() - tries0 > TEST_PATIENCE_S)
            TEST_FAIL("no start/stop took less than %.6f s in %.0f s", sa, TEST_PATIENCE_S);
    }
    CHECK(sa2 < sa);

    /* Dup of a started-but-running timer copies the start time. */
    CHECK_ABT(ABT_timer_start(a));
    ABT_timer c;
    CHECK_ABT(ABT_timer_dup(a, &c));
    busy_wait(0.01);
    double sc = -1;
    CHECK_ABT(ABT_timer_stop_and_read(c, &sc));
    CHECK(sc >= 0.01);

    CHECK_ABT(ABT_timer_free(&a));
    CHECK_ABT(ABT_timer_free(&b));
    CHECK_ABT(ABT_timer_free(&c));
    CHECK(a == ABT_TIMER_NULL && b == ABT_TIMER_NULL && c == ABT_TIMER_NULL);
    CHECK_ABT(ABT_finalize());
    return 0;
}
