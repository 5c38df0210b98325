/* thread_revive_many: one ULT handle is revived 1,000 times (scaled down in slow builds)
 * with ABT_thread_revive, alternating between the primary stream's pool and a secondary
 * stream's pool, and each time runs exactly once, on the stream of the pool it was
 * revived into, with the new function and argument (two functions alternate; odd rounds
 * yield twice in the middle).  The first half is driven by the primary ULT, the second
 * half by a ULT of the secondary stream.  The handle never changes, the state goes
 * TERMINATED after each join, ABT_thread_get_last_pool reports the pool of the last
 * revival, and ABT_thread_get_thread_func / _get_arg the last function and argument. */
#include "test.h"
#include <stdatomic.h>

static ABT_xstream xs[2];
static ABT_pool pools[2];
static ABT_thread t;
static atomic_int runs_a, runs_b, bad;
static int rounds;

struct rarg {
    int round;
    int want_xs;
    atomic_int seen;
};
static struct rarg args[2];

static void body(struct rarg *a)
{
    ABT_xstream me;
    CHECK_ABT(ABT_self_get_xstream(&me));
    if (me != xs[a->want_xs])
        atomic_fetch_add(&bad, 1);
    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    if (self != t)
        atomic_fetch_add(&bad, 1);
    if (a->round & 1) {
        CHECK_ABT(ABT_thread_yield());
        CHECK_ABT(ABT_thread_yield());
        CHECK_ABT(ABT_self_get_xstream(&me));
        if (me != xs[a->want_xs])
            atomic_fetch_add(&bad, 1);
    }
    atomic_fetch_add(&a->seen, 1);
}

static void fa(void *arg)
{
    body(arg);
    atomic_fetch_add(&runs_a, 1);
}

static void fb(void *arg)
{
    body(arg);
    atomic_fetch_add(&runs_b, 1);
}

static void one_round(int i)
{
    int k = i & 1;
    struct rarg *a = &args[k];
    a->round = i;
    a->want_xs = k;
    atomic_store(&a->seen, 0);
    void (*f)(void *) = (i % 4 < 2) ? fa : fb;
    ABT_thread before = t;
    CHECK_ABT(ABT_thread_revive(pools[k], f, a, &t));
    CHECK_EQ_PTR(t, before);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(atomic_load(&a->seen), 1);
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(t, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    ABT_pool last;
    CHECK_ABT(ABT_thread_get_last_pool(t, &last));
    CHECK_EQ_PTR(last, pools[k]);
    void (*gf)(void *);
    void *ga;
    CHECK_ABT(ABT_thread_get_thread_func(t, &gf));
    CHECK(gf == f);
    CHECK_ABT(ABT_thread_get_arg(t, &ga));
    CHECK_EQ_PTR(ga, a);
}

static void driver(void *arg)
{
    int from = (int)(intptr_t)arg;
    for (int i = from; i < rounds; i++)
        one_round(i);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    rounds = 1000 / test_scale_div();
    CHECK_ABT(ABT_xstream_self(&xs[0]));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs[1]));
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));

    /* Round -1: the first life. */
    args[0].want_xs = 0;
    args[0].round = 0;
    CHECK_ABT(ABT_thread_create(pools[0], fa, &args[0], ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(atomic_load(&args[0].seen), 1);
    atomic_store(&runs_a, 0);

    int half = rounds / 2;
    for (int i = 0; i < half; i++)
        one_round(i);

    ABT_thread d;
    CHECK_ABT(
        ABT_thread_create(pools[1], driver, (void *)(intptr_t)half, ABT_THREAD_ATTR_NULL, &d));
    CHECK_ABT(ABT_thread_free(&d));

    CHECK_EQ_INT(atomic_load(&bad), 0);
    CHECK_EQ_INT(atomic_load(&runs_a) + atomic_load(&runs_b), rounds);
    CHECK_EQ_INT(atomic_load(&runs_a), rounds / 4 * 2 + (rounds % 4 < 2 ? rounds % 4 : 2));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_xstream_join(xs[1]));
    CHECK_ABT(ABT_xstream_free(&xs[1]));
    CHECK_ABT(ABT_finalize());
    return 0;
}
