/* task_create_join: ABT_task_create runs the tasklet function with its argument;
 * ABT_task_join waits for it; ABT_task_free sets the handle to ABT_TASK_NULL (not
 * ABT_THREAD_NULL) and waits if it has not run yet; a tasklet handle is also
 * accepted by ABT_thread_join / ABT_thread_free.  Many tasklets on one pool all run
 * exactly once, in FIFO order on a single xstream. */
#include "test.h"
#include <stdatomic.h>

#define N 1000
static int order[N];
static atomic_int pos;

static void func(void *arg) { order[atomic_fetch_add(&pos, 1)] = (int)(intptr_t)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, func, (void *)7, &k));
    CHECK(k != ABT_TASK_NULL);
    CHECK_ABT(ABT_task_join(k));
    CHECK_EQ_INT(atomic_load(&pos), 1);
    CHECK_EQ_INT(order[0], 7);
    CHECK_ABT(ABT_task_free(&k));
    CHECK(k == ABT_TASK_NULL);
    CHECK(k != ABT_THREAD_NULL);

    /* Free without join. */
    atomic_store(&pos, 0);
    CHECK_ABT(ABT_task_create(pool, func, (void *)8, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&pos), 1);
    CHECK_EQ_INT(order[0], 8);

    /* Thread API on a tasklet handle. */
    atomic_store(&pos, 0);
    ABT_thread t;
    CHECK_ABT(ABT_task_create(pool, func, (void *)9, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK(t == ABT_THREAD_NULL);
    CHECK_EQ_INT(order[0], 9);

    static ABT_task ks[N];
    atomic_store(&pos, 0);
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_task_create(pool, func, (void *)(intptr_t)i, &ks[i]));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_task_free(&ks[i]));
    CHECK_EQ_INT(atomic_load(&pos), N);
    for (int i = 0; i < N; i++)
        CHECK_EQ_INT(order[i], i);

    CHECK_ABT(ABT_finalize());
    return 0;
}
