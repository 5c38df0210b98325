/* self_set_associated_pool: a ULT that calls ABT_self_set_associated_pool(P2) and
 * then yields is pushed to P2 and continues on the xstream that runs P2; doing it
 * back and forth moves it between the two xstreams each time.  ABT_POOL_NULL gives
 * ABT_ERR_INV_POOL; from an external thread ABT_ERR_INV_XSTREAM. */
#include "test.h"
#include <pthread.h>

static ABT_pool pools[2];
static ABT_xstream xss[2];
static int hops_ok;

static void func(void *arg)
{
    (void)arg;
    int ok = 1;
    for (int i = 0; i < 10; i++) {
        int to = (i + 1) % 2;
        CHECK_ABT(ABT_self_set_associated_pool(pools[to]));
        CHECK_ABT(ABT_self_yield());
        ABT_xstream me;
        CHECK_ABT(ABT_self_get_xstream(&me));
        if (me != xss[to])
            ok = 0;
    }
    hops_ok = ok;
}

static void *ext(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_self_set_associated_pool(pools[0]), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_xstream_self(&xss[0]));
    CHECK_ABT(ABT_xstream_get_main_pools(xss[0], 1, &pools[0]));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xss[1]));
    CHECK_ABT(ABT_xstream_get_main_pools(xss[1], 1, &pools[1]));

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pools[0], func, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK(hops_ok);

    CHECK_ERR(ABT_self_set_associated_pool(ABT_POOL_NULL), ABT_ERR_INV_POOL);
    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);

    CHECK_ABT(ABT_xstream_join(xss[1]));
    CHECK_ABT(ABT_xstream_free(&xss[1]));
    CHECK_ABT(ABT_finalize());
    return 0;
}
