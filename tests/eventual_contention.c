/* eventual_contention: many rounds of set / reset with waiters that are ULTs on two
 * streams and external threads, some of them timed with deadlines around the set: every
 * untimed waiter is released by its round's set, every timed one either sees the value
 * or times out - never both, never neither. */
#include "sync_test.h"

#define ROUNDS 200
#define NULT   6

static ABT_eventual ev[ROUNDS];
static atomic_int released, timedout;

static void waiter(int round, bool timed)
{
    void *v = NULL;
    if (timed) {
        struct timespec ts = sync_abstime(0.0002 * (round % 5));
        int r = ABT_eventual_timedwait(ev[round], &v, &ts);
        if (r == ABT_ERR_COND_TIMEDOUT) {
            atomic_fetch_add(&timedout, 1);
            return;
        }
        CHECK_ABT(r);
    } else {
        CHECK_ABT(ABT_eventual_wait(ev[round], &v));
    }
    CHECK_EQ_INT(*(int *)v, round);
    atomic_fetch_add(&released, 1);
}

static void ult(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int r = 0; r < ROUNDS; r++)
        waiter(r, id % 2 == 1);
}

static void *ext(void *arg)
{
    ult(arg);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    for (int r = 0; r < ROUNDS; r++)
        CHECK_ABT(ABT_eventual_create((int)sizeof(int), &ev[r]));

    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, ext, (void *)(intptr_t)i) == 0);
    ABT_thread ts[NULT];
    for (int i = 0; i < NULT; i++)
        CHECK_ABT(
            ABT_thread_create(w.pools[1], ult, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &ts[i]));
    /* the setter: the primary ULT, at a pace the waiters can follow */
    for (int r = 0; r < ROUNDS; r++) {
        sync_sleep(0.0003);
        CHECK_ABT(ABT_eventual_set(ev[r], &r, (int)sizeof(r)));
    }
    sync_join_all(NULT, ts);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    int waits = ROUNDS * (NULT + 2);
    CHECK_EQ_INT(atomic_load(&released) + atomic_load(&timedout), waits);
    CHECK(atomic_load(&released) >= waits / 2); /* the untimed half at least */
    printf("released %d, timed out %d\n", atomic_load(&released), atomic_load(&timedout));

    /* set/reset cycles on one eventual */
    for (int r = 0; r < ROUNDS; r++) {
        CHECK_ABT(ABT_eventual_reset(ev[0]));
        CHECK_ABT(ABT_eventual_set(ev[0], &r, (int)sizeof(r)));
    }
    for (int r = 0; r < ROUNDS; r++)
        CHECK_ABT(ABT_eventual_free(&ev[r]));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
