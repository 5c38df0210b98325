/* thread_finalize_pending: named ULTs and tasklets that were created but never
 * joined or freed, including ULTs that block in a join on another ULT, must all have
 * run to completion by the time ABT_finalize returns. */
#include "test.h"
#include <stdatomic.h>

#define N 50
static atomic_int runs, task_runs, joiner_done;
static ABT_thread last;

static void func(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_thread_yield());
    atomic_fetch_add(&runs, 1);
}

static void task_func(void *arg)
{
    (void)arg;
    atomic_fetch_add(&task_runs, 1);
}

static void joiner(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_thread_join(last));
    atomic_store(&joiner_done, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread ts[N], j;
    ABT_task ks[N];
    CHECK_ABT(ABT_thread_create(pool, joiner, NULL, ABT_THREAD_ATTR_NULL, &j));
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
        CHECK_ABT(ABT_task_create(pool, task_func, NULL, &ks[i]));
    }
    last = ts[N - 1];
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(atomic_load(&runs), N);
    CHECK_EQ_INT(atomic_load(&task_runs), N);
    CHECK_EQ_INT(atomic_load(&joiner_done), 1);
    return 0;
}
