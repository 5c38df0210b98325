/* barrier_basic: ABT_barrier with ULTs on two streams and an external thread, over many
 * rounds: nobody leaves a round before everybody arrived; reinit changes the number of
 * waiters (get_num_waiters reports it); a barrier of one never blocks; the errors:
 * ABT_ERR_INV_ARG for 0 waiters, ABT_ERR_INV_BARRIER for ABT_BARRIER_NULL,
 * ABT_ERR_BARRIER from a tasklet. */
#include "sync_test.h"

#define ROUNDS 300

static ABT_barrier bar;
static int nparties;
static atomic_int arrived[ROUNDS];
static atomic_int bad, task_ret;

static void party(void)
{
    for (int r = 0; r < ROUNDS; r++) {
        atomic_fetch_add(&arrived[r], 1);
        CHECK_ABT(ABT_barrier_wait(bar));
        if (atomic_load(&arrived[r]) != nparties)
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

static void task(void *arg)
{
    (void)arg;
    atomic_store(&task_ret, ABT_barrier_wait(bar));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);

    ABT_barrier b = ABT_BARRIER_NULL;
    uint32_t n = 0;
    CHECK_ERR(ABT_barrier_create(0, &b), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_barrier_free(&b), ABT_ERR_INV_BARRIER);
    CHECK_ERR(ABT_barrier_wait(ABT_BARRIER_NULL), ABT_ERR_INV_BARRIER);
    CHECK_ERR(ABT_barrier_reinit(ABT_BARRIER_NULL, 2), ABT_ERR_INV_BARRIER);
    CHECK_ERR(ABT_barrier_get_num_waiters(ABT_BARRIER_NULL, &n), ABT_ERR_INV_BARRIER);

    CHECK_ABT(ABT_barrier_create(1, &bar));
    CHECK_ABT(ABT_barrier_wait(bar)); /* one party: returns at once */
    CHECK_ABT(ABT_barrier_get_num_waiters(bar, &n));
    CHECK_EQ_INT(n, 1);
    CHECK_ERR(ABT_barrier_reinit(bar, 0), ABT_ERR_INV_ARG);
    CHECK_ABT(ABT_barrier_get_num_waiters(bar, &n));
    CHECK_EQ_INT(n, 1);

    /* 6 ULTs over two streams + the primary ULT + an external thread */
    nparties = 8;
    CHECK_ABT(ABT_barrier_reinit(bar, (uint32_t)nparties));
    CHECK_ABT(ABT_barrier_get_num_waiters(bar, &n));
    CHECK_EQ_INT(n, 8);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, ext, NULL) == 0);
    ABT_thread ts[6];
    sync_spawn(&w, 6, ult, NULL, 0, ts);
    party();
    sync_join_all(6, ts);
    pthread_join(th, NULL);
    CHECK_EQ_INT(atomic_load(&bad), 0);

    ABT_task k;
    CHECK_ABT(ABT_task_create(w.pools[1], task, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&task_ret), ABT_ERR_BARRIER);

    CHECK_ABT(ABT_barrier_free(&bar));
    CHECK(bar == ABT_BARRIER_NULL);
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
