/* thread_join_other_xstream: ULTs created with ABT_thread_create_on_xstream on a
 * second execution stream are joined from the main ULT on the primary xstream (which
 * blocks while the other xstream runs them), and from a ULT on the primary xstream.
 * Every ULT ran on the second xstream. */
#include "test.h"
#include <stdatomic.h>

#define N 32
static ABT_xstream xs2;
static atomic_int ran_on_xs2;

static void func(void *arg)
{
    (void)arg;
    ABT_xstream me;
    CHECK_ABT(ABT_self_get_xstream(&me));
    if (me == xs2)
        atomic_fetch_add(&ran_on_xs2, 1);
    for (int i = 0; i < 10; i++)
        CHECK_ABT(ABT_thread_yield());
}

static void joiner(void *arg)
{
    ABT_thread *ts = (ABT_thread *)arg;
    for (int i = N / 2; i < N; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    ABT_thread ts[N];
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_create_on_xstream(xs2, func, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread j;
    CHECK_ABT(ABT_thread_create(pool, joiner, ts, ABT_THREAD_ATTR_NULL, &j));
    for (int i = 0; i < N / 2; i++) {
        CHECK_ABT(ABT_thread_join(ts[i]));
        ABT_xstream last;
        CHECK_ABT(ABT_thread_get_last_xstream(ts[i], &last));
        CHECK(last == xs2);
        CHECK_ABT(ABT_thread_free(&ts[i]));
    }
    CHECK_ABT(ABT_thread_free(&j));
    for (int i = 0; i < N; i++)
        CHECK(ts[i] == ABT_THREAD_NULL);
    CHECK_EQ_INT(atomic_load(&ran_on_xs2), N);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
