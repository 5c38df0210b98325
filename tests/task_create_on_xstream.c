/* task_create_on_xstream: a tasklet created with ABT_task_create_on_xstream runs on
 * that execution stream (ABT_self_get_xstream / _rank inside) and is pushed to its
 * first main pool; ABT_task_get_xstream reports the xstream after it ran. */
#include "test.h"

static ABT_xstream seen;
static int seen_rank = -1;
static ABT_pool seen_pool;

static void func(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_self_get_xstream(&seen));
    CHECK_ABT(ABT_self_get_xstream_rank(&seen_rank));
    CHECK_ABT(ABT_self_get_last_pool(&seen_pool));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs2, got;
    ABT_pool pool2;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));
    int rank2;
    CHECK_ABT(ABT_xstream_get_rank(xs2, &rank2));

    ABT_task k;
    CHECK_ABT(ABT_task_create_on_xstream(xs2, func, NULL, &k));
    CHECK_ABT(ABT_task_join(k));
    CHECK(seen == xs2);
    CHECK_EQ_INT(seen_rank, rank2);
    CHECK(seen_pool == pool2);
    CHECK_ABT(ABT_task_get_xstream(k, &got));
    CHECK(got == xs2);
    CHECK_ABT(ABT_task_free(&k));

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
