/* task_get_arg: ABT_task_get_arg returns the argument a tasklet was created or
 * revived with, before and after it runs; the tasklet function receives it. */
#include "test.h"

static void *received;
static void func(void *arg) { received = arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_task k;
    void *a;
    CHECK_ABT(ABT_task_create(pool, func, (void *)0x1234, &k));
    CHECK_ABT(ABT_task_get_arg(k, &a));
    CHECK_EQ_PTR(a, (void *)0x1234);
    CHECK_ABT(ABT_task_join(k));
    CHECK_EQ_PTR(received, (void *)0x1234);
    CHECK_ABT(ABT_task_get_arg(k, &a));
    CHECK_EQ_PTR(a, (void *)0x1234);
    CHECK_ABT(ABT_task_revive(pool, func, (void *)0x5678, &k));
    CHECK_ABT(ABT_task_get_arg(k, &a));
    CHECK_EQ_PTR(a, (void *)0x5678);
    CHECK_ABT(ABT_task_join(k));
    CHECK_EQ_PTR(received, (void *)0x5678);
    CHECK_ABT(ABT_task_free(&k));
    CHECK_ABT(ABT_finalize());
    return 0;
}
