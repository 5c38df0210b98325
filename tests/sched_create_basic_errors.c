/* sched_create_basic_errors: ABT_sched_create_basic rejects a negative
 * num_pools with ABT_ERR_INV_ARG and an unknown predefined scheduler with an
 * error (Argobots 1.2: ABT_ERR_INV_SCHED_PREDEF; docs: ABT_ERR_INV_ARG; both
 * accepted); on error the output is set to ABT_SCHED_NULL (1.x behaviour). */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_sched s = (ABT_sched)&s;
    CHECK_ERR(ABT_sched_create_basic(ABT_SCHED_BASIC, -1, NULL, ABT_SCHED_CONFIG_NULL, &s),
              ABT_ERR_INV_ARG);
    CHECK(s == ABT_SCHED_NULL);

    int bad[] = { 99, -1, 5 };
    for (int i = 0; i < 3; i++) {
        s = (ABT_sched)&s;
        int ret =
            ABT_sched_create_basic((ABT_sched_predef)bad[i], 0, NULL, ABT_SCHED_CONFIG_NULL, &s);
        if (ret != ABT_ERR_INV_SCHED_PREDEF && ret != ABT_ERR_INV_ARG)
            TEST_FAIL("predef %d returned %d (%s)", bad[i], ret, test_errname(ret));
        CHECK(s == ABT_SCHED_NULL);
    }

    CHECK_ABT(ABT_finalize());
    return 0;
}
