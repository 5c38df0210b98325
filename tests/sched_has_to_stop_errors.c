/* sched_has_to_stop_errors: ABT_sched_has_to_stop returns ABT_ERR_INV_SCHED
 * for ABT_SCHED_NULL, and (1.x) ABT_ERR_INV_XSTREAM when called from an
 * external (non-Argobots) thread, setting *stop to ABT_FALSE.  For a running
 * main scheduler with no pending request, a ULT on that stream sees
 * ABT_FALSE. */
#include "test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_sched target;
static atomic_int ext_ret = -1, ext_stop = -1, ult_ret = -1, ult_stop = -1;

static void *ext(void *arg)
{
    (void)arg;
    ABT_bool stop = (ABT_bool)77;
    atomic_store(&ext_ret, ABT_sched_has_to_stop(target, &stop));
    atomic_store(&ext_stop, stop);
    return NULL;
}

static void ult(void *arg)
{
    (void)arg;
    ABT_bool stop = (ABT_bool)77;
    atomic_store(&ult_ret, ABT_sched_has_to_stop(target, &stop));
    atomic_store(&ult_stop, stop);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_bool stop;
    CHECK_ERR(ABT_sched_has_to_stop(ABT_SCHED_NULL, &stop), ABT_ERR_INV_SCHED);

    ABT_xstream xs;
    ABT_pool pool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CHECK_ABT(ABT_xstream_get_main_sched(xs, &target));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&ult_ret), ABT_SUCCESS);
    CHECK_EQ_INT(atomic_load(&ult_stop), ABT_FALSE);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_EQ_INT(atomic_load(&ext_ret), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(atomic_load(&ext_stop), ABT_FALSE);

    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    return 0;
}
