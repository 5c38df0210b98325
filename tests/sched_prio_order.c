/* sched_prio_order: the predefined PRIO scheduler runs by strict pool priority, pool 0
 * first.  A secondary stream with a PRIO scheduler over three pools starts after ULTs
 * were created into the pools in mixed order: it runs all of pool 0, then pool 1, then
 * pool 2, each in FIFO order.  A ULT of pool 2 that then creates one ULT in pool 2 and one
 * in pool 0 and yields is followed by the new pool-0 ULT, then the new pool-2 ULT, then
 * itself (its yield put it behind that one, at the tail of its own pool). */
#include "test.h"
#include <stdatomic.h>

#define PER 5
static int order[64], norder; /* written by the one stream that runs them all */
static ABT_pool pools[3];
static atomic_int finished;

static void rec(void *arg)
{
    order[norder++] = (int)(intptr_t)arg;
    atomic_fetch_add(&finished, 1);
}

static void spawner(void *arg)
{
    order[norder++] = 100;
    CHECK_ABT(ABT_thread_create(pools[2], rec, (void *)(intptr_t)102, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_ABT(ABT_thread_create(pools[0], rec, (void *)(intptr_t)101, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_ABT(ABT_thread_yield());
    order[norder++] = 103;
    atomic_fetch_add(&finished, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
    /* ids: priority * 10 + sequence; created low priority first, interleaved */
    for (int k = 0; k < PER; k++)
        for (int prio = 2; prio >= 0; prio--)
            CHECK_ABT(ABT_thread_create(pools[prio], rec, (void *)(intptr_t)(prio * 10 + k),
                                        ABT_THREAD_ATTR_NULL, NULL));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_PRIO, 3, pools, ABT_SCHED_CONFIG_NULL, &xs));
    while (atomic_load(&finished) < 3 * PER)
        CHECK_ABT(ABT_thread_yield());
    CHECK_EQ_INT(norder, 3 * PER);
    for (int prio = 0, n = 0; prio < 3; prio++)
        for (int k = 0; k < PER; k++, n++)
            CHECK_EQ_INT(order[n], prio * 10 + k);

    CHECK_ABT(ABT_thread_create(pools[2], spawner, NULL, ABT_THREAD_ATTR_NULL, NULL));
    while (atomic_load(&finished) < 3 * PER + 3)
        CHECK_ABT(ABT_thread_yield());
    int want[] = { 100, 101, 102, 103 };
    CHECK_EQ_INT(norder, 3 * PER + 4);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(order[3 * PER + i], want[i]);

    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    return 0;
}
