/* self_get_unit: ABT_self_get_unit inside a ULT or tasklet returns the same unit as
 * ABT_thread_get_unit on its handle; the main ULT has a unit too.  From an external
 * thread: ABT_ERR_INV_XSTREAM. */
#include "test.h"
#include <pthread.h>

static ABT_unit seen[2];
static void func(void *arg) { CHECK_ABT(ABT_self_get_unit(&seen[(intptr_t)arg])); }

static void *ext(void *arg)
{
    (void)arg;
    ABT_unit u;
    CHECK_ERR(ABT_self_get_unit(&u), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread t, self;
    ABT_task k;
    ABT_unit u, u2;
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_task_create(pool, func, (void *)1, &k));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_task_join(k));
    CHECK_ABT(ABT_thread_get_unit(t, &u));
    CHECK(seen[0] == u);
    CHECK_ABT(ABT_thread_get_unit(k, &u));
    CHECK(seen[1] == u);
    CHECK(seen[0] != seen[1]);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_task_free(&k));

    CHECK_ABT(ABT_self_get_unit(&u));
    CHECK(u != ABT_UNIT_NULL);
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_get_unit(self, &u2));
    CHECK(u == u2);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_ABT(ABT_finalize());
    return 0;
}
