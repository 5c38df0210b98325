/* xstream_set_main_sched_self_schedule: ABT_xstream_set_main_sched called by a ULT that
 * runs as the child of another ULT (ABT_self_schedule) is accepted, as in Argobots: the
 * call returns ABT_SUCCESS, the caller continues under the new scheduler, associated with
 * its first pool (it was associated with a pool of the old main scheduler), and
 * ABT_xstream_get_main_sched reports the new scheduler.  The parent continues when the
 * child leaves.  Checked on a secondary stream and on the primary stream; the new
 * scheduler also serves the old pool, so the parent (still associated with it) goes on. */
#include "test.h"
#include <stdatomic.h>
#include <unistd.h>

static ABT_pool P_old, P_new, Q;
static ABT_sched new_sched;
static ABT_xstream target;
static atomic_int child_done, parent_done;

static void child(void *arg)
{
    (void)arg;
    ABT_xstream me; /* the stream it runs on: `target` */
    CHECK_ABT(ABT_self_get_xstream(&me));
    int r = ABT_xstream_set_main_sched(me, new_sched);
    if (r != ABT_SUCCESS)
        TEST_FAIL("ABT_xstream_set_main_sched under ABT_self_schedule returned %d (%s)", r,
                  test_errname(r));
    ABT_sched cur;
    CHECK_ABT(ABT_xstream_get_main_sched(me, &cur));
    CHECK_EQ_PTR(cur, new_sched);
    ABT_pool last;
    CHECK_ABT(ABT_self_get_last_pool(&last));
    CHECK_EQ_PTR(last, P_new);
    ABT_xstream me2;
    CHECK_ABT(ABT_self_get_xstream(&me2));
    CHECK_EQ_PTR(me2, me);
    CHECK_ABT(ABT_thread_yield());
    atomic_store(&child_done, 1);
}

/* Pops the child from Q and schedules it, associated with the old main pool. */
static void parent(void *arg)
{
    (void)arg;
    ABT_thread t;
    CHECK_ABT(ABT_pool_pop_thread(Q, &t));
    CHECK(t != ABT_THREAD_NULL);
    CHECK_ABT(ABT_self_schedule(t, P_old));
    atomic_store(&parent_done, 1);
}

static void make_new_sched(void)
{
    ABT_pool pools[2] = { P_new, P_old };
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &new_sched));
}

int main(int argc, char **argv)
{
    alarm(120);
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &Q));

    /* secondary stream: the parent is a ULT of its old main pool */
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P_old));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P_new));
    make_new_sched();
    ABT_thread c, p;
    CHECK_ABT(ABT_thread_create(Q, child, NULL, ABT_THREAD_ATTR_NULL, &c));
    CHECK_ABT(ABT_thread_create(P_old, parent, NULL, ABT_THREAD_ATTR_NULL, &p));
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P_old, ABT_SCHED_CONFIG_NULL, &target));
    CHECK_ABT(ABT_thread_free(&p));
    CHECK_ABT(ABT_thread_free(&c));
    CHECK(atomic_load(&child_done) && atomic_load(&parent_done));
    CHECK_ABT(ABT_xstream_join(target));
    CHECK_ABT(ABT_xstream_free(&target));
    CHECK_ABT(ABT_pool_free(&P_new));
    CHECK_ABT(ABT_pool_free(&P_old));

    /* primary stream: the primary ULT is the parent */
    atomic_store(&child_done, 0);
    atomic_store(&parent_done, 0);
    CHECK_ABT(ABT_xstream_self(&target));
    CHECK_ABT(ABT_xstream_get_main_pools(target, 1, &P_old));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P_new));
    make_new_sched();
    CHECK_ABT(ABT_thread_create(Q, child, NULL, ABT_THREAD_ATTR_NULL, &c));
    parent(NULL);
    CHECK_ABT(ABT_thread_free(&c));
    CHECK(atomic_load(&child_done) && atomic_load(&parent_done));
    ABT_sched cur;
    CHECK_ABT(ABT_xstream_get_main_sched(target, &cur));
    CHECK_EQ_PTR(cur, new_sched);
    CHECK_ABT(ABT_pool_free(&Q));
    CHECK_ABT(ABT_finalize());
    return 0;
}
