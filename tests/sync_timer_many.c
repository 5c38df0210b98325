/* sync_timer_many: many timed waiters at once, some woken by their eventual before the
 * deadline (their timer entries are removed from the middle of the queue), the others
 * timing out, on two streams that share one pool - so a ULT often resumes on the other
 * stream and cancels its timer entry there.  Every waiter ends exactly once, at the right
 * outcome, never before its deadline when it times out. */
#include "sync_test.h"

#define NW 400

static ABT_eventual ev[NW];
static atomic_int timedout, woken, fails;

static void waiter(void *arg)
{
    int i = (int)(intptr_t)arg;
    double sec = 0.005 + 0.00005 * (double)((i * 7919) % NW); /* 5 .. 25 ms, shuffled */
    struct timespec ts = sync_abstime(sec);
    double t0 = sync_now();
    int r = ABT_eventual_timedwait(ev[i], NULL, &ts);
    double dt = sync_now() - t0;
    if (r == ABT_ERR_COND_TIMEDOUT) {
        atomic_fetch_add(&timedout, 1);
        if (dt < sec - 0.001) /* never early */
            atomic_fetch_add(&fails, 1);
    } else if (r == ABT_SUCCESS) {
        atomic_fetch_add(&woken, 1);
        if (i % 2 == 0)
            atomic_fetch_add(&fails, 1); /* nobody sets the even ones */
    } else {
        atomic_fetch_add(&fails, 1);
    }
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool shared;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &shared));
    ABT_xstream xs[2];
    for (int i = 0; i < 2; i++)
        CHECK_ABT(
            ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL, &xs[i]));
    for (int i = 0; i < NW; i++)
        CHECK_ABT(ABT_eventual_create(0, &ev[i]));
    ABT_thread ts[NW];
    for (int i = 0; i < NW; i++)
        CHECK_ABT(
            ABT_thread_create(shared, waiter, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &ts[i]));
    /* set the odd ones, spread over the first 10 ms */
    for (int i = 1; i < NW; i += 2) {
        if (i % 40 == 1)
            sync_sleep(0.0005);
        CHECK_ABT(ABT_eventual_set(ev[i], NULL, 0));
    }
    sync_join_all(NW, ts);
    printf("woken %d, timed out %d\n", atomic_load(&woken), atomic_load(&timedout));
    CHECK_EQ_INT(atomic_load(&fails), 0);
    CHECK_EQ_INT(atomic_load(&woken) + atomic_load(&timedout), NW);
    CHECK(atomic_load(&timedout) >= NW / 2);

    for (int i = 0; i < NW; i++)
        CHECK_ABT(ABT_eventual_free(&ev[i]));
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_xstream_free(&xs[i]));
    CHECK_ABT(ABT_pool_free(&shared));
    CHECK_ABT(ABT_finalize());
    return 0;
}
