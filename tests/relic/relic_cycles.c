/* relic_cycles: many relic_init/relic_finalize cycles on one thread, each running a few
 * tasks (and sometimes finalizing with tasks still pending, or with a hint given), and the
 * life-cycle errors: use before init, double init, finalize twice. */
#include "relic_test.h"

static void inc(void *arg) { (*(int *)arg)++; }

int main(void)
{
    int x = 0;
    CHECK(relic_self() == NULL);
    CHECK_RELIC_ERR(relic_submit(inc, &x), RELIC_ERR_NOT_INIT);
    CHECK_RELIC_ERR(relic_wait(), RELIC_ERR_NOT_INIT);
    CHECK_RELIC_ERR(relic_finalize(), RELIC_ERR_NOT_INIT);
    relic_wake_up_hint(); /* ignored without a Relic */
    relic_sleep_hint();
    CHECK_EQ_INT(x, 0);

    int cycles = 300 / test_scale_div();
    int expect = 0;
    for (int c = 0; c < cycles; c++) {
        CHECK_RELIC(relic_init());
        CHECK(relic_self() != NULL);
        CHECK_RELIC_ERR(relic_init(), RELIC_ERR_ALREADY);
        if (c % 3 == 1)
            relic_wake_up_hint();
        if (c % 3 == 2)
            relic_sleep_hint();
        for (int i = 0; i < c % 5 + 1; i++)
            CHECK_RELIC(relic_submit(inc, &x));
        expect += c % 5 + 1;
        if (c & 1) {
            CHECK_RELIC(relic_wait());
            CHECK_EQ_INT(x, expect);
        }
        CHECK_RELIC(relic_finalize()); /* waits for the rest */
        CHECK_EQ_INT(x, expect);
        CHECK(relic_self() == NULL);
        CHECK_RELIC_ERR(relic_finalize(), RELIC_ERR_NOT_INIT);
        CHECK_RELIC_ERR(relic_submit(inc, &x), RELIC_ERR_NOT_INIT);
    }
    return 0;
}
