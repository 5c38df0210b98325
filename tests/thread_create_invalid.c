/* thread_create_invalid: ABT_thread_create with ABT_POOL_NULL fails with
 * ABT_ERR_INV_POOL and sets the output handle to ABT_THREAD_NULL (1.x behaviour);
 * ABT_task_create likewise (output ABT_TASK_NULL); ABT_task_create_on_xstream with
 * ABT_XSTREAM_NULL fails with ABT_ERR_INV_XSTREAM; ABT_thread_create_many with NULL
 * pools fails with ABT_ERR_INV_POOL.  Nothing runs. */
#include "test.h"
#include <stdatomic.h>

static atomic_int runs;
static void func(void *arg)
{
    (void)arg;
    atomic_fetch_add(&runs, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_thread t = (ABT_thread)&t;
    CHECK_ERR(ABT_thread_create(ABT_POOL_NULL, func, NULL, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_INV_POOL);
    CHECK(t == ABT_THREAD_NULL);
    CHECK_ERR(ABT_thread_create(ABT_POOL_NULL, func, NULL, ABT_THREAD_ATTR_NULL, NULL),
              ABT_ERR_INV_POOL);
    ABT_task k = (ABT_task)&k;
    CHECK_ERR(ABT_task_create(ABT_POOL_NULL, func, NULL, &k), ABT_ERR_INV_POOL);
    CHECK(k == ABT_TASK_NULL);
    k = (ABT_task)&k;
    CHECK_ERR(ABT_task_create_on_xstream(ABT_XSTREAM_NULL, func, NULL, &k), ABT_ERR_INV_XSTREAM);
    CHECK(k == ABT_TASK_NULL);

    ABT_pool pools[2] = { ABT_POOL_NULL, ABT_POOL_NULL };
    void (*funcs[2])(void *) = { func, func };
    ABT_thread ts[2];
    CHECK_ERR(ABT_thread_create_many(2, pools, funcs, NULL, ABT_THREAD_ATTR_NULL, ts),
              ABT_ERR_INV_POOL);

    CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(atomic_load(&runs), 0);
    return 0;
}
