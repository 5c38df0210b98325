/* init_initialized_state: ABT_initialized() returns ABT_ERR_UNINITIALIZED
 * before ABT_init, ABT_SUCCESS while initialized (also from a ULT on a
 * secondary execution stream and from an external pthread), and
 * ABT_ERR_UNINITIALIZED again after the last ABT_finalize. */
#include "test.h"
#include <pthread.h>
#include <stdatomic.h>

static atomic_int ult_ret = -1;
static atomic_int ext_ret = -1;

static void ult(void *arg)
{
    (void)arg;
    atomic_store(&ult_ret, ABT_initialized());
}

static void *ext(void *arg)
{
    (void)arg;
    atomic_store(&ext_ret, ABT_initialized());
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED); /* no side effect */

    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_initialized());

    ABT_xstream xs;
    ABT_pool pool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_EQ_INT(atomic_load(&ult_ret), ABT_SUCCESS);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_EQ_INT(atomic_load(&ext_ret), ABT_SUCCESS);

    CHECK_ABT(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    return 0;
}
