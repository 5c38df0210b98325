/* sched_idle_wake_push_stream: under every predefined scheduler, a stream that has been
 * idle long enough to sleep wakes up when a ULT on another stream creates work in its
 * pool: the new ULT runs (on the sleeping stream, except under RANDWS where any stream
 * sharing the pool may take it) within a bounded time.  A lost wake-up would leave it
 * queued; the creator gives up after 2 s.  Wake-up latencies are printed. */
#include "idle_test.h"

static atomic_int ran_rank = -1;
static double pushed_at, ran_at;

static void woken(void *arg)
{
    (void)arg;
    ran_at = idle_now();
    atomic_store(&ran_rank, idle_rank());
}

static void creator(void *arg)
{
    ABT_pool target = *(ABT_pool *)arg;
    double end = idle_now() + IDLE_SETTLE;
    while (idle_now() < end)
        ABT_thread_yield(); /* stream 1 goes to sleep meanwhile */
    pushed_at = idle_now();
    CHECK_ABT(ABT_thread_create(target, woken, NULL, ABT_THREAD_ATTR_NULL, NULL));
    end = pushed_at + idle_wake_limit();
    while (atomic_load(&ran_rank) < 0 && idle_now() < end)
        ABT_thread_yield();
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    for (int k = 0; k < IDLE_NPREDEFS; k++) {
        idle_world w;
        idle_world_start(&w, idle_predefs[k]);
        int rank1;
        CHECK_ABT(ABT_xstream_get_rank(w.xs[1], &rank1));
        for (int round = 0; round < 3; round++) {
            atomic_store(&ran_rank, -1);
            ABT_thread c;
            CHECK_ABT(ABT_thread_create(w.pool[2], creator, &w.pool[1], ABT_THREAD_ATTR_NULL, &c));
            CHECK_ABT(ABT_thread_free(&c));
            int r = atomic_load(&ran_rank);
            if (r < 0)
                TEST_FAIL("%s: work pushed to a sleeping stream did not run within %.0f s",
                          idle_sched_name(idle_predefs[k]), idle_wake_limit());
            if (idle_predefs[k] != ABT_SCHED_RANDWS)
                CHECK_EQ_INT(r, rank1);
            printf("%s round %d: ran on stream %d %.1f us after the push\n",
                   idle_sched_name(idle_predefs[k]), round, r, (ran_at - pushed_at) * 1e6);
        }
        idle_world_stop(&w);
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
