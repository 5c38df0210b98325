/* xstream_self: ABT_xstream_self / ABT_xstream_self_rank return the stream
 * running the caller: the primary stream (rank 0) for the primary ULT, the
 * secondary stream and its rank inside a ULT running there; an external
 * pthread gets ABT_ERR_INV_XSTREAM (and ABT_XSTREAM_NULL for self). */
#include "test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_xstream seen_self = ABT_XSTREAM_NULL;
static atomic_int seen_rank = -1;
static atomic_int ext_self_ret = -1, ext_rank_ret = -1, ext_self_null = 0;

static void ult(void *arg)
{
    (void)arg;
    ABT_xstream self;
    int rank;
    if (ABT_xstream_self(&self) == ABT_SUCCESS)
        seen_self = self;
    if (ABT_xstream_self_rank(&rank) == ABT_SUCCESS)
        atomic_store(&seen_rank, rank);
}

static void *ext(void *arg)
{
    (void)arg;
    ABT_xstream self = (ABT_xstream)&self;
    int rank;
    atomic_store(&ext_self_ret, ABT_xstream_self(&self));
    atomic_store(&ext_self_null, self == ABT_XSTREAM_NULL);
    atomic_store(&ext_rank_ret, ABT_xstream_self_rank(&rank));
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream primary = ABT_XSTREAM_NULL;
    int rank = -1;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK(primary != ABT_XSTREAM_NULL);
    CHECK_ABT(ABT_xstream_self_rank(&rank));
    CHECK_EQ_INT(rank, 0);
    CHECK_ABT(ABT_xstream_get_rank(primary, &rank));
    CHECK_EQ_INT(rank, 0);
    ABT_bool is_primary = ABT_FALSE;
    CHECK_ABT(ABT_xstream_is_primary(primary, &is_primary));
    CHECK_EQ_INT(is_primary, ABT_TRUE);

    /* A ULT on the primary stream also sees the primary stream. */
    ABT_pool ppool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));
    CHECK_ABT(ABT_thread_create(ppool, ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK(seen_self == primary);
    CHECK_EQ_INT(atomic_load(&seen_rank), 0);

    ABT_xstream xs;
    ABT_pool pool;
    int xrank = -1;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CHECK_ABT(ABT_xstream_get_rank(xs, &xrank));
    CHECK(xrank > 0);
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK(seen_self == xs);
    CHECK_EQ_INT(atomic_load(&seen_rank), xrank);
    CHECK_ABT(ABT_xstream_free(&xs));

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_EQ_INT(atomic_load(&ext_self_ret), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(atomic_load(&ext_self_null), 1);
    CHECK_EQ_INT(atomic_load(&ext_rank_ret), ABT_ERR_INV_XSTREAM);

    CHECK_ABT(ABT_finalize());
    return 0;
}
