/* xstream_barrier_basic: ABT_xstream_barrier synchronizes the primary stream, two
 * secondary streams (through ULTs that block their stream) and an external thread over
 * many rounds; the errors: ABT_ERR_INV_ARG for 0 waiters, ABT_ERR_INV_XSTREAM_BARRIER
 * for ABT_XSTREAM_BARRIER_NULL. */
#include "sync_test.h"

#define ROUNDS  300
#define PARTIES 4

static ABT_xstream_barrier bar;
static atomic_int arrived[ROUNDS];
static atomic_int bad;

static void party(void)
{
    for (int r = 0; r < ROUNDS; r++) {
        atomic_fetch_add(&arrived[r], 1);
        CHECK_ABT(ABT_xstream_barrier_wait(bar));
        if (atomic_load(&arrived[r]) != PARTIES)
            atomic_fetch_add(&bad, 1);
    }
}

static void ult(void *arg)
{
    (void)arg;
    party();
}

static void *ext(void *arg)
{
    (void)arg;
    party();
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 2, ABT_SCHED_BASIC);

    ABT_xstream_barrier b = ABT_XSTREAM_BARRIER_NULL;
    CHECK_ERR(ABT_xstream_barrier_create(0, &b), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_barrier_free(&b), ABT_ERR_INV_XSTREAM_BARRIER);
    CHECK_ERR(ABT_xstream_barrier_wait(ABT_XSTREAM_BARRIER_NULL), ABT_ERR_INV_XSTREAM_BARRIER);

    CHECK_ABT(ABT_xstream_barrier_create(1, &bar));
    CHECK_ABT(ABT_xstream_barrier_wait(bar));
    CHECK_ABT(ABT_xstream_barrier_free(&bar));
    CHECK(bar == ABT_XSTREAM_BARRIER_NULL);

    CHECK_ABT(ABT_xstream_barrier_create(PARTIES, &bar));
    pthread_t th;
    CHECK(pthread_create(&th, NULL, ext, NULL) == 0);
    ABT_thread t[2];
    CHECK_ABT(ABT_thread_create(w.pools[1], ult, NULL, ABT_THREAD_ATTR_NULL, &t[0]));
    CHECK_ABT(ABT_thread_create(w.pools[2], ult, NULL, ABT_THREAD_ATTR_NULL, &t[1]));
    party();
    sync_join_all(2, t);
    pthread_join(th, NULL);
    CHECK_EQ_INT(atomic_load(&bad), 0);
    CHECK_ABT(ABT_xstream_barrier_free(&bar));

    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
