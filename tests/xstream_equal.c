/* xstream_equal: ABT_xstream_equal reports ABT_TRUE exactly when the two
 * handles are the same (including two ABT_XSTREAM_NULL handles) and always
 * returns ABT_SUCCESS. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream primary, primary2, xs;
    ABT_bool r;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_self(&primary2));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));

    r = ABT_FALSE;
    CHECK_ABT(ABT_xstream_equal(primary, primary2, &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    r = ABT_TRUE;
    CHECK_ABT(ABT_xstream_equal(primary, xs, &r));
    CHECK_EQ_INT(r, ABT_FALSE);
    r = ABT_TRUE;
    CHECK_ABT(ABT_xstream_equal(xs, ABT_XSTREAM_NULL, &r));
    CHECK_EQ_INT(r, ABT_FALSE);
    r = ABT_FALSE;
    CHECK_ABT(ABT_xstream_equal(ABT_XSTREAM_NULL, ABT_XSTREAM_NULL, &r));
    CHECK_EQ_INT(r, ABT_TRUE);
    r = ABT_FALSE;
    CHECK_ABT(ABT_xstream_equal(xs, xs, &r));
    CHECK_EQ_INT(r, ABT_TRUE);

    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    return 0;
}
