/* timer_get_overhead: ABT_timer_get_overhead succeeds and reports a small
 * non-negative overhead (well below a millisecond) for a start/stop pair. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    double ov = -1.0;
    CHECK_ABT(ABT_timer_get_overhead(&ov));
    if (!(ov >= 0.0 && ov < 1e-3))
        TEST_FAIL("overhead %.9f s", ov);
    CHECK_ABT(ABT_finalize());
    return 0;
}
