/* eventual_static_init: ABT_EVENTUAL_INITIALIZER memory is an unset eventual without a
 * value buffer (size 0): waiters on two streams and an external thread are released by
 * set, and reset works.  (Passing it to ABT_eventual_free is undefined; weft refuses.) */
#include "sync_test.h"

static ABT_eventual_memory mem = ABT_EVENTUAL_INITIALIZER;
static atomic_int released;

static void wait_it(void)
{
    void *v = &v;
    CHECK_ABT(ABT_eventual_wait(ABT_EVENTUAL_MEMORY_GET_HANDLE(&mem), &v));
    CHECK(v == NULL);
    atomic_fetch_add(&released, 1);
}

static void ult(void *arg)
{
    (void)arg;
    wait_it();
}

static void *ext(void *arg)
{
    (void)arg;
    wait_it();
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK(sizeof(ABT_eventual_memory) == 64);
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    ABT_eventual e = ABT_EVENTUAL_MEMORY_GET_HANDLE(&mem);
    ABT_bool ready = ABT_TRUE;
    CHECK_ABT(ABT_eventual_test(e, NULL, &ready));
    CHECK_EQ_INT(ready, ABT_FALSE);
    int one = 1;
    CHECK_ERR(ABT_eventual_set(e, &one, (int)sizeof(one)), ABT_ERR_INV_EVENTUAL); /* size 0 */

    for (int round = 0; round < 3; round++) {
        atomic_store(&released, 0);
        pthread_t th;
        CHECK(pthread_create(&th, NULL, ext, NULL) == 0);
        ABT_thread ts[4];
        sync_spawn(&w, 4, ult, NULL, 0, ts);
        sync_yield_for(0.01);
        CHECK_EQ_INT(atomic_load(&released), 0);
        CHECK_ABT(ABT_eventual_set(e, NULL, 0));
        sync_join_all(4, ts);
        pthread_join(th, NULL);
        CHECK_EQ_INT(atomic_load(&released), 5);
        CHECK_ABT(ABT_eventual_reset(e));
    }

    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
