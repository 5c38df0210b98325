/* mutex_contention: 1,000,000 lock/unlock pairs on one mutex by ULTs on two streams and
 * two external pthreads at the same time; no increment is lost, no two holders ever
 * overlap, and nobody stays asleep (the test would hang). */
#include "sync_test.h"

#include <sched.h>

#define ULTS_PER_STREAM 4
#define NEXT            2
#define TOTAL           1000000
#define PER_WORKER      (TOTAL / (2 * ULTS_PER_STREAM + NEXT))

static ABT_mutex mtx;
static long counter; /* protected by mtx */
static int inside;   /* protected by mtx: 1 while somebody holds it */
static atomic_int overlap;
static atomic_int started;

/* everybody starts together, so the pairs really contend */
static void start_gate(int is_ult)
{
    atomic_fetch_add(&started, 1);
    while (atomic_load(&started) < 2 * ULTS_PER_STREAM + NEXT) {
        if (is_ult)
            ABT_thread_yield();
        else
            sched_yield();
    }
}

static void work(void)
{
    for (int i = 0; i < PER_WORKER; i++) {
        if (ABT_mutex_lock(mtx) != ABT_SUCCESS)
            atomic_fetch_add(&overlap, 1000);
        if (inside)
            atomic_fetch_add(&overlap, 1);
        inside = 1;
        counter++;
        for (volatile int k = 0; k < 8; k++) /* a critical section long enough to overlap */
            ;
        inside = 0;
        ABT_mutex_unlock(mtx);
    }
}

static void ult(void *arg)
{
    (void)arg;
    start_gate(1);
    work();
}

static void *ext(void *arg)
{
    (void)arg;
    start_gate(0);
    work();
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_mutex_create(&mtx));

    pthread_t th[NEXT];
    for (int i = 0; i < NEXT; i++)
        CHECK(pthread_create(&th[i], NULL, ext, NULL) == 0);
    ABT_thread ts[2 * ULTS_PER_STREAM];
    sync_spawn(&w, 2 * ULTS_PER_STREAM, ult, NULL, 0, ts);
    sync_join_all(2 * ULTS_PER_STREAM, ts);
    for (int i = 0; i < NEXT; i++)
        pthread_join(th[i], NULL);

    CHECK_EQ_INT(atomic_load(&overlap), 0);
    CHECK_EQ_INT(counter, (long)PER_WORKER * (2 * ULTS_PER_STREAM + NEXT));
    CHECK_EQ_INT(counter, TOTAL);
    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
