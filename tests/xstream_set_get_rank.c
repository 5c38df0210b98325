/* xstream_set_get_rank: ABT_xstream_set_rank changes a secondary stream's rank
 * (ABT_xstream_get_rank and ABT_xstream_self_rank see the new value, the old
 * rank becomes free); setting a rank in use by another stream or a negative
 * rank fails with ABT_ERR_INV_XSTREAM_RANK; the primary stream's rank cannot
 * be changed (ABT_ERR_INV_XSTREAM). */
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

    ABT_xstream primary, a, b;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 1, &a));
    CHECK_ABT(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 2, &b));

    int rank = -1;
    CHECK_ABT(ABT_xstream_set_rank(a, 7));
    CHECK_ABT(ABT_xstream_get_rank(a, &rank));
    CHECK_EQ_INT(rank, 7);

    ABT_pool pool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_get_main_pools(a, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, get_rank, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&seen_rank), 7);

    /* Old rank 1 is free now: b can take it. */
    CHECK_ABT(ABT_xstream_set_rank(b, 1));
    CHECK_ABT(ABT_xstream_get_rank(b, &rank));
    CHECK_EQ_INT(rank, 1);

    /* Used by another stream / negative / primary's rank. */
    CHECK_ERR(ABT_xstream_set_rank(b, 7), ABT_ERR_INV_XSTREAM_RANK);
    CHECK_ERR(ABT_xstream_set_rank(b, -2), ABT_ERR_INV_XSTREAM_RANK);
    CHECK_ERR(ABT_xstream_set_rank(b, 0), ABT_ERR_INV_XSTREAM_RANK);
    CHECK_ABT(ABT_xstream_get_rank(b, &rank));
    CHECK_EQ_INT(rank, 1); /* unchanged after failures */

    /* The primary's rank is fixed. */
    CHECK_ERR(ABT_xstream_set_rank(primary, 9), ABT_ERR_INV_XSTREAM);
    CHECK_ABT(ABT_xstream_get_rank(primary, &rank));
    CHECK_EQ_INT(rank, 0);

    CHECK_ERR(ABT_xstream_set_rank(ABT_XSTREAM_NULL, 3), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_get_rank(ABT_XSTREAM_NULL, &rank), ABT_ERR_INV_XSTREAM);

    CHECK_ABT(ABT_xstream_free(&a));
    CHECK_ABT(ABT_xstream_free(&b));
    CHECK_ABT(ABT_finalize());
    return 0;
}
