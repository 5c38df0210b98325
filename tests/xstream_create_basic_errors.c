/* xstream_create_basic_errors: ABT_xstream_create_basic rejects a negative
 * num_pools with ABT_ERR_INV_ARG and an unknown predefined scheduler with an
 * error (Argobots 1.2 returns ABT_ERR_INV_SCHED_PREDEF; the 1.2 docs say
 * ABT_ERR_INV_ARG -- both accepted); on error the output handle is set to
 * ABT_XSTREAM_NULL (1.x behaviour) and no execution stream is created. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream xs = (ABT_xstream)&xs;
    CHECK_ERR(ABT_xstream_create_basic(ABT_SCHED_BASIC, -1, NULL, ABT_SCHED_CONFIG_NULL, &xs),
              ABT_ERR_INV_ARG);
    CHECK(xs == ABT_XSTREAM_NULL);

    xs = (ABT_xstream)&xs;
    int ret = ABT_xstream_create_basic((ABT_sched_predef)99, 0, NULL, ABT_SCHED_CONFIG_NULL, &xs);
    if (ret != ABT_ERR_INV_SCHED_PREDEF && ret != ABT_ERR_INV_ARG)
        TEST_FAIL("invalid predef returned %d (%s)", ret, test_errname(ret));
    CHECK(xs == ABT_XSTREAM_NULL);

    xs = (ABT_xstream)&xs;
    ret = ABT_xstream_create_basic((ABT_sched_predef)-1, 0, NULL, ABT_SCHED_CONFIG_NULL, &xs);
    if (ret != ABT_ERR_INV_SCHED_PREDEF && ret != ABT_ERR_INV_ARG)
        TEST_FAIL("predef -1 returned %d (%s)", ret, test_errname(ret));
    CHECK(xs == ABT_XSTREAM_NULL);

    int num = 0;
    CHECK_ABT(ABT_xstream_get_num(&num));
    CHECK_EQ_INT(num, 1);

    CHECK_ABT(ABT_finalize());
    return 0;
}
