/* sched_randws_steal: two secondary streams run predefined RANDWS schedulers over two
 * RANDWS pools, each stream's own pool first ({A, B} and {B, A}).  100,000 tasklets are
 * created into pool A before the streams start; pool B stays empty.  Both streams run
 * some (the first tasklet on each stream waits until the other stream has run one), every
 * tasklet runs once, and the deque discipline shows: the owner of A pops newest-first
 * (creation pushes to the head), the thief steals oldest-first from the tail, so the
 * indices each stream sees are strictly decreasing resp. increasing. */
#include "test.h"
#include <sched.h>
#include <stdatomic.h>

#define N 100000
static atomic_uchar ran[N];
static atomic_int started[8];
static atomic_long done;
static long seen[8], last[8]; /* per stream rank: only that stream writes */
static int owner_rank;        /* rank of the stream whose own pool is A */

static void task(void *arg)
{
    long i = (long)(intptr_t)arg;
    int r;
    CHECK_ABT(ABT_self_get_xstream_rank(&r));
    CHECK(r > 0 && r < 8);
    if (seen[r] == 0) {
        atomic_store(&started[r], 1);
        int others;
        do {
            others = 0;
            for (int k = 1; k < 8; k++)
                if (k != r)
                    others += atomic_load(&started[k]);
            if (!others)
                sched_yield();
        } while (!others);
    } else if (r == owner_rank) {
        if (i >= last[r])
            TEST_FAIL("owner ran %ld after %ld", i, last[r]);
    } else if (i <= last[r]) {
        TEST_FAIL("thief ran %ld after %ld", i, last[r]);
    }
    last[r] = i;
    seen[r]++;
    atomic_fetch_add(&ran[i], 1);
    atomic_fetch_add(&done, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool pa, pb;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_RANDWS, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pa));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_RANDWS, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pb));
    for (long i = 0; i < N; i++)
        CHECK_ABT(ABT_task_create(pa, task, (void *)(intptr_t)i, NULL));

    ABT_pool la[2] = { pa, pb }, lb[2] = { pb, pa };
    ABT_xstream xa, xb;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_RANDWS, 2, la, ABT_SCHED_CONFIG_NULL, &xa));
    CHECK_ABT(ABT_xstream_get_rank(xa, &owner_rank));
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_RANDWS, 2, lb, ABT_SCHED_CONFIG_NULL, &xb));
    int rb;
    CHECK_ABT(ABT_xstream_get_rank(xb, &rb));
    CHECK(owner_rank > 0 && owner_rank < 8 && rb > 0 && rb < 8);

    while (atomic_load(&done) < N)
        sched_yield();
    CHECK_ABT(ABT_xstream_join(xa));
    CHECK_ABT(ABT_xstream_join(xb));
    for (long i = 0; i < N; i++)
        if (atomic_load(&ran[i]) != 1)
            TEST_FAIL("tasklet %ld ran %d times", i, (int)atomic_load(&ran[i]));
    CHECK(seen[owner_rank] > 0);
    CHECK(seen[rb] > 0);
    CHECK_EQ_INT(seen[owner_rank] + seen[rb], N);
    CHECK_ABT(ABT_xstream_free(&xa));
    CHECK_ABT(ABT_xstream_free(&xb));
    CHECK_ABT(ABT_finalize());
    return 0;
}
