/* xstream_create_with_rank: ABT_xstream_create_with_rank gives the new stream
 * exactly the requested rank (seen by ABT_xstream_get_rank and by
 * ABT_xstream_self_rank inside a ULT on it); a negative rank or a rank already
 * in use (including the primary's rank 0) fails with
 * ABT_ERR_INV_XSTREAM_RANK and sets the handle to ABT_XSTREAM_NULL.  A freed
 * stream's rank can be reused. */
#include "test.h"
#include <stdatomic.h>

static atomic_int seen_rank = -1;

static void get_rank(void *arg)
{
    (void)arg;
    int r = -1;
    if (ABT_xstream_self_rank(&r) == ABT_SUCCESS)
        atomic_store(&seen_rank, r);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream xs = ABT_XSTREAM_NULL, xs2;
    CHECK_ABT(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 5, &xs));
    int rank = -1;
    CHECK_ABT(ABT_xstream_get_rank(xs, &rank));
    CHECK_EQ_INT(rank, 5);

    ABT_pool pool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, get_rank, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&seen_rank), 5);

    xs2 = (ABT_xstream)&xs2;
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 5, &xs2), ABT_ERR_INV_XSTREAM_RANK);
    CHECK(xs2 == ABT_XSTREAM_NULL);
    xs2 = (ABT_xstream)&xs2;
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 0, &xs2), ABT_ERR_INV_XSTREAM_RANK);
    CHECK(xs2 == ABT_XSTREAM_NULL);
    xs2 = (ABT_xstream)&xs2;
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, -1, &xs2), ABT_ERR_INV_XSTREAM_RANK);
    CHECK(xs2 == ABT_XSTREAM_NULL);

    int num = 0;
    CHECK_ABT(ABT_xstream_get_num(&num));
    CHECK_EQ_INT(num, 2);

    CHECK_ABT(ABT_xstream_free(&xs));
    /* Rank 5 is free again. */
    CHECK_ABT(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 5, &xs));
    CHECK_ABT(ABT_xstream_get_rank(xs, &rank));
    CHECK_EQ_INT(rank, 5);
    CHECK_ABT(ABT_xstream_free(&xs));

    CHECK_ABT(ABT_finalize());
    return 0;
}
