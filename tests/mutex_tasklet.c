/* mutex_tasklet: tasklets may lock a mutex (a tasklet that must wait blocks its stream's
 * OS thread on a futex, it cannot park) while ULTs on the same and another stream
 * contend for it.  (A holder must not yield to tasklets of its own stream that want
 * the mutex: they would block the very thread it needs, in Argobots too.) */
#include "sync_test.h"

#define NTASK 200
#define N     2000

static ABT_mutex mtx;
static long counter;

static void task(void *arg)
{
    (void)arg;
    for (int i = 0; i < 50; i++) {
        CHECK_ABT(ABT_mutex_lock(mtx));
        counter++;
        CHECK_ABT(ABT_mutex_unlock(mtx));
    }
}

static void ult(void *arg)
{
    (void)arg;
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_mutex_lock(mtx));
        counter++;
        CHECK_ABT(ABT_mutex_unlock(mtx));
        if (i % 100 == 0)
            ABT_thread_yield(); /* let this stream's tasklets in */
    }
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 2, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_mutex_create(&mtx));

    ABT_thread u[2];
    CHECK_ABT(ABT_thread_create(w.pools[1], ult, NULL, ABT_THREAD_ATTR_NULL, &u[0]));
    CHECK_ABT(ABT_thread_create(w.pools[2], ult, NULL, ABT_THREAD_ATTR_NULL, &u[1]));
    ABT_task t[NTASK];
    for (int i = 0; i < NTASK; i++)
        CHECK_ABT(ABT_task_create(w.pools[1 + i % 2], task, NULL, &t[i]));
    for (int i = 0; i < NTASK; i++)
        CHECK_ABT(ABT_task_free(&t[i]));
    sync_join_all(2, u);
    CHECK_EQ_INT(counter, 2L * N + NTASK * 50L);

    CHECK_ABT(ABT_mutex_free(&mtx));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
