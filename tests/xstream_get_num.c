/* xstream_get_num: ABT_xstream_get_num counts every existing execution
 * stream: the primary, running secondaries and joined-but-not-freed
 * (terminated) ones; the count drops only when a stream is freed. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    int num = -1;
    CHECK_ABT(ABT_xstream_get_num(&num));
    CHECK_EQ_INT(num, 1);

    ABT_xstream a, b;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &a));
    CHECK_ABT(ABT_xstream_get_num(&num));
    CHECK_EQ_INT(num, 2);
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &b));
    CHECK_ABT(ABT_xstream_get_num(&num));
    CHECK_EQ_INT(num, 3);

    /* Terminated but not freed: still counted. */
    CHECK_ABT(ABT_xstream_join(a));
    CHECK_ABT(ABT_xstream_get_num(&num));
    CHECK_EQ_INT(num, 3);

    CHECK_ABT(ABT_xstream_free(&a));
    CHECK_ABT(ABT_xstream_get_num(&num));
    CHECK_EQ_INT(num, 2);
    CHECK_ABT(ABT_xstream_free(&b));
    CHECK_ABT(ABT_xstream_get_num(&num));
    CHECK_EQ_INT(num, 1);

    CHECK_ABT(ABT_finalize());
    return 0;
}
