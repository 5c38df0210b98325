/* sched_size: ABT_sched_get_size is the sum of the sizes of the scheduler's
 * pools and ABT_sched_get_total_size the sum of their total sizes (which also
 * count suspended ULTs belonging to the pools).  ULTs created into the pools
 * of a scheduler that is not running yet are counted; once the scheduler runs
 * them on a stream, both become 0.  ABT_SCHED_NULL gives ABT_ERR_INV_SCHED. */
#include "test.h"
#include <stdatomic.h>

static atomic_int ran;

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_pool pools[2];
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[0]));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[1]));
    ABT_sched sched;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &sched));

    size_t sz = 99, tsz = 99;
    CHECK_ABT(ABT_sched_get_size(sched, &sz));
    CHECK_ABT(ABT_sched_get_total_size(sched, &tsz));
    CHECK_EQ_INT(sz, 0);
    CHECK_EQ_INT(tsz, 0);

    enum { N0 = 3, N1 = 4 };
    ABT_thread ts[N0 + N1];
    for (int i = 0; i < N0 + N1; i++)
        CHECK_ABT(
            ABT_thread_create(pools[i < N0 ? 0 : 1], work, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    CHECK_ABT(ABT_sched_get_size(sched, &sz));
    CHECK_ABT(ABT_sched_get_total_size(sched, &tsz));
    CHECK_EQ_INT(sz, N0 + N1);
    CHECK_EQ_INT(tsz, N0 + N1);
    CHECK_EQ_INT(atomic_load(&ran), 0);

    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(sched, &xs));
    for (int i = 0; i < N0 + N1; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
    CHECK_EQ_INT(atomic_load(&ran), N0 + N1);
    CHECK_ABT(ABT_sched_get_size(sched, &sz));
    CHECK_ABT(ABT_sched_get_total_size(sched, &tsz));
    CHECK_EQ_INT(sz, 0);
    CHECK_EQ_INT(tsz, 0);

    CHECK_ERR(ABT_sched_get_size(ABT_SCHED_NULL, &sz), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_sched_get_total_size(ABT_SCHED_NULL, &tsz), ABT_ERR_INV_SCHED);

    CHECK_ABT(ABT_xstream_free(&xs)); /* frees the automatic sched and pools */
    CHECK_ABT(ABT_finalize());
    return 0;
}
