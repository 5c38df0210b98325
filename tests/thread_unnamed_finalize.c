/* thread_unnamed_finalize: ULTs created with a NULL output handle (unnamed) run and
 * are freed automatically; ABT_finalize, called right after creating them without
 * any yield or join, waits until all of them (and the ULTs they create in turn, and
 * those that yield several times) have run. */
#include "test.h"
#include <stdatomic.h>

#define N 200
static atomic_int runs, children;
static ABT_pool pool;

static void child(void *arg)
{
    (void)arg;
    atomic_fetch_add(&children, 1);
}

static void func(void *arg)
{
    int i = (int)(intptr_t)arg;
    for (int k = 0; k < i % 4; k++)
        CHECK_ABT(ABT_thread_yield());
    if (i % 10 == 0)
        CHECK_ABT(ABT_thread_create(pool, child, NULL, ABT_THREAD_ATTR_NULL, NULL));
    atomic_fetch_add(&runs, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_create(pool, func, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_EQ_INT(atomic_load(&runs), 0);
    CHECK_ABT(ABT_finalize());
    CHECK_EQ_INT(atomic_load(&runs), N);
    CHECK_EQ_INT(atomic_load(&children), N / 10);
    return 0;
}
