/* task_unnamed_finalize: tasklets created with a NULL output handle (unnamed) run and
 * are freed automatically; ABT_finalize waits for all of them, including unnamed
 * tasklets created by unnamed tasklets and unnamed ULTs created by tasklets. */
#include "test.h"
#include <stdatomic.h>

#define N 300
static atomic_int runs, sub_tasks, sub_ults;
static ABT_pool pool;

static void sub_task(void *arg)
{
    (void)arg;
    atomic_fetch_add(&sub_tasks, 1);
}
static void sub_ult(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_thread_yield());
    atomic_fetch_add(&sub_ults, 1);
}

static void func(void *arg)
{
    int i = (int)(intptr_t)arg;
    if (i % 3 == 0)
        CHECK_ABT(ABT_task_create(pool, sub_task, NULL, NULL));
    if (i % 5 == 0)
        CHECK_ABT(ABT_thread_create(pool, sub_ult, NULL, ABT_THREAD_ATTR_NULL, NULL));
    atomic_fetch_add(&runs, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_task_create(pool, func, (void *)(intptr_t)i, NULL));
    CHECK_EQ_INT(atomic_load(&runs), 0);
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(atomic_load(&runs), N);
    CHECK_EQ_INT(atomic_load(&sub_tasks), N / 3);
    CHECK_EQ_INT(atomic_load(&sub_ults), N / 5);
    return 0;
}
