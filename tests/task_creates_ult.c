/* task_creates_ult: a tasklet can create ULTs (named and unnamed) and other
 * tasklets; a ULT can create tasklets; the created work units run (on the same or a
 * second xstream) and the named ones are joined and freed from the main ULT. */
#include "test.h"
#include <stdatomic.h>

static ABT_pool pool1, pool2;
static ABT_thread ult_from_task;
static ABT_task task_from_task, task_from_ult;
static atomic_int ult_runs, task_runs, unnamed_runs;

static void leaf_ult(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_thread_yield());
    atomic_fetch_add(&ult_runs, 1);
}
static void leaf_task(void *arg)
{
    (void)arg;
    atomic_fetch_add(&task_runs, 1);
}
static void leaf_unnamed(void *arg)
{
    (void)arg;
    atomic_fetch_add(&unnamed_runs, 1);
}

static void parent_task(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_thread_create(pool2, leaf_ult, NULL, ABT_THREAD_ATTR_NULL, &ult_from_task));
    CHECK_ABT(ABT_task_create(pool1, leaf_task, NULL, &task_from_task));
    CHECK_ABT(ABT_thread_create(pool1, leaf_unnamed, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_ABT(ABT_task_create(pool2, leaf_unnamed, NULL, NULL));
}

static void parent_ult(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_task_create(pool2, leaf_task, NULL, &task_from_ult));
    CHECK_ABT(ABT_task_join(task_from_ult));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs1, xs2;
    CHECK_ABT(ABT_xstream_self(&xs1));
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &pool1));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    ABT_task pt;
    ABT_thread pu;
    CHECK_ABT(ABT_task_create(pool1, parent_task, NULL, &pt));
    CHECK_ABT(ABT_thread_create(pool1, parent_ult, NULL, ABT_THREAD_ATTR_NULL, &pu));
    CHECK_ABT(ABT_task_free(&pt));
    CHECK_ABT(ABT_thread_free(&pu));
    CHECK_ABT(ABT_thread_free(&ult_from_task));
    CHECK_ABT(ABT_task_free(&task_from_task));
    CHECK_ABT(ABT_task_free(&task_from_ult));
    CHECK_EQ_INT(atomic_load(&ult_runs), 1);
    CHECK_EQ_INT(atomic_load(&task_runs), 2);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(atomic_load(&unnamed_runs), 2);
    return 0;
}
