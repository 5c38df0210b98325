/* env_max_num_xstreams: ABT_MAX_NUM_XSTREAMS (or legacy
 * ABT_ENV_MAX_NUM_XSTREAMS) set before ABT_init is reported by
 * ABT_info_query_config(MAX_NUM_XSTREAMS) and streams can be created up to
 * that total (ranks 0..max-1).  Argobots 1.2 does not refuse to go beyond it:
 * creating one more stream still succeeds (it only warns) and the reported
 * maximum grows to the highest rank in use + 1; this test pins that
 * behaviour. */
#include "test.h"

static unsigned max_xstreams(void)
{
    unsigned v = 0;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS, &v));
    return v;
}

int main(int argc, char **argv)
{
    unsetenv("ABT_MAX_NUM_XSTREAMS");
    setenv("ABT_ENV_MAX_NUM_XSTREAMS", "4", 1);
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_EQ_INT(max_xstreams(), 4);
    CHECK_ABT(ABT_finalize());

    setenv("ABT_MAX_NUM_XSTREAMS", "2", 1); /* ABT_ wins over ABT_ENV_ */
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_EQ_INT(max_xstreams(), 2);

    ABT_xstream a, b;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &a)); /* total 2 == max */
    int rank = -1;
    CHECK_ABT(ABT_xstream_get_rank(a, &rank));
    CHECK_EQ_INT(rank, 1);
    CHECK_EQ_INT(max_xstreams(), 2);

    /* Beyond the limit: Argobots 1.2 allows it and raises the maximum. */
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &b));
    CHECK_ABT(ABT_xstream_get_rank(b, &rank));
    CHECK_EQ_INT(rank, 2);
    CHECK_EQ_INT(max_xstreams(), 3);
    int num = 0;
    CHECK_ABT(ABT_xstream_get_num(&num));
    CHECK_EQ_INT(num, 3);

    CHECK_ABT(ABT_xstream_free(&a));
    CHECK_ABT(ABT_xstream_free(&b));
    CHECK_ABT(ABT_finalize());
    return 0;
}
