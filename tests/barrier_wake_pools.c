/* barrier_wake_pools: the last arrival of a barrier round wakes its waiters together
 * (weft_waiter_wake_list: the ULTs of one built-in FIFO pool in one lock round, up to four
 * pools at a time, the others one by one).  30 ULTs on 6 streams, each stream with a pool
 * of its own, meet at a barrier of 30 for many rounds: nobody leaves a round before all
 * arrived, each ULT always wakes up in its own pool (on its own stream: six pools, so the
 * wake takes both roads), and the ULTs that change their pool half-way
 * (ABT_self_set_associated_pool) wake up in the new one from then on. */
#include "sync_test.h"

#define STREAMS 6
#define PER     5
#define N       (STREAMS * PER)
#define ROUNDS  200

static ABT_barrier bar;
static ABT_pool pools[STREAMS];
static atomic_int arrived[ROUNDS];
static atomic_int bad_round, bad_pool;

struct arg {
    int home;
    ABT_thread self;
};

static void party(void *p)
{
    struct arg *a = p;
    for (int r = 0; r < ROUNDS; r++) {
        atomic_fetch_add(&arrived[r], 1);
        CHECK_ABT(ABT_barrier_wait(bar));
        if (atomic_load(&arrived[r]) != N)
            atomic_fetch_add(&bad_round, 1);
        ABT_pool now;
        CHECK_ABT(ABT_self_get_last_pool(&now));
        if (now != pools[a->home])
            atomic_fetch_add(&bad_pool, 1);
        if (r == ROUNDS / 2 && a->home == 1) {
            /* from here on this ULT lives in the next stream's pool */
            a->home = 2;
            CHECK_ABT(ABT_self_set_associated_pool(pools[2]));
        }
    }
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs[STREAMS];
    CHECK_ABT(ABT_xstream_self(&xs[0]));
    CHECK_ABT(ABT_xstream_get_main_pools(xs[0], 1, &pools[0]));
    for (int i = 1; i < STREAMS; i++) {
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
        CHECK_ABT(
            ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pools[i], ABT_SCHED_CONFIG_NULL, &xs[i]));
    }
    CHECK_ABT(ABT_barrier_create(N, &bar));
    static struct arg args[N];
    ABT_thread ts[N];
    for (int i = 0; i < N; i++) {
        args[i].home = i % STREAMS;
        CHECK_ABT(
            ABT_thread_create(pools[args[i].home], party, &args[i], ABT_THREAD_ATTR_NULL, &ts[i]));
    }
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
    CHECK_EQ_INT(atomic_load(&bad_round), 0);
    CHECK_EQ_INT(atomic_load(&bad_pool), 0);
    for (int r = 0; r < ROUNDS; r++)
        CHECK_EQ_INT(atomic_load(&arrived[r]), N);
    CHECK_ABT(ABT_barrier_free(&bar));
    for (int i = 1; i < STREAMS; i++) {
        CHECK_ABT(ABT_xstream_join(xs[i]));
        CHECK_ABT(ABT_xstream_free(&xs[i]));
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
