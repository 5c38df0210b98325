/* xstream_create_join_free: ABT_xstream_create with ABT_SCHED_NULL makes a
 * running execution stream with a default scheduler and one pool; ULTs pushed
 * to that pool run on it; ABT_xstream_join makes it TERMINATED (joining again
 * is allowed); ABT_xstream_free sets the handle to ABT_XSTREAM_NULL. */
#include "test.h"
#include <stdatomic.h>

static ABT_xstream target;
static atomic_int ran_on_target;

static void work(void *arg)
{
    (void)arg;
    ABT_xstream self;
    if (ABT_xstream_self(&self) == ABT_SUCCESS && self == target)
        atomic_fetch_add(&ran_on_target, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream xs = ABT_XSTREAM_NULL, primary;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CHECK(xs != ABT_XSTREAM_NULL);
    CHECK(xs != primary);
    target = xs;

    ABT_xstream_state state;
    CHECK_ABT(ABT_xstream_get_state(xs, &state));
    CHECK_EQ_INT(state, ABT_XSTREAM_STATE_RUNNING);

    ABT_sched sched = ABT_SCHED_NULL;
    CHECK_ABT(ABT_xstream_get_main_sched(xs, &sched));
    CHECK(sched != ABT_SCHED_NULL);
    int num_pools = 0;
    CHECK_ABT(ABT_sched_get_num_pools(sched, &num_pools));
    CHECK_EQ_INT(num_pools, 1);

    ABT_pool pool = ABT_POOL_NULL;
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK(pool != ABT_POOL_NULL);

    enum { N = 8 };
    ABT_thread ts[N];
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
    CHECK_EQ_INT(atomic_load(&ran_on_target), N);

    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_ABT(ABT_xstream_get_state(xs, &state));
    CHECK_EQ_INT(state, ABT_XSTREAM_STATE_TERMINATED);
    /* Joining an already terminated execution stream succeeds. */
    CHECK_ABT(ABT_xstream_join(xs));

    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK(xs == ABT_XSTREAM_NULL);

    /* Free without a prior join also works (free waits for termination). */
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK(xs == ABT_XSTREAM_NULL);

    CHECK_ABT(ABT_finalize());
    return 0;
}
