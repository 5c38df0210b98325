/* sched_idle_wake_push_external: under every predefined scheduler, a stream that has been
 * idle long enough to sleep wakes up when an external thread (not an execution stream)
 * creates a ULT in its pool, and a primary stream whose ULT is blocked in a join wakes
 * up when that join completes: the pushed ULT runs and the join returns within a bounded
 * time (a lost wake-up leaves the ULT queued forever; the external thread gives up after
 * idle_wake_limit()). */
#include "idle_test.h"

static atomic_int ran;
static ABT_pool target;
static double latency;

static void woken(void *arg)
{
    (void)arg;
    atomic_store(&ran, 1);
}

static void *pusher(void *arg)
{
    (void)arg;
    idle_sleep(IDLE_SETTLE);
    double t0 = idle_now();
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(target, woken, NULL, ABT_THREAD_ATTR_NULL, &t));
    double end = t0 + idle_wake_limit();
    while (!atomic_load(&ran) && idle_now() < end)
        idle_sleep(0.00002);
    latency = idle_now() - t0;
    if (!atomic_load(&ran))
        TEST_FAIL("a ULT pushed by an external thread did not run within %.0f s",
                  idle_wake_limit());
    CHECK_ABT(ABT_thread_free(&t));
    return NULL;
}

static void blocked(void *arg)
{
    ABT_eventual ev = arg;
    CHECK_ABT(ABT_eventual_wait(ev, NULL));
}

static void *setter(void *arg)
{
    idle_sleep(IDLE_SETTLE);
    CHECK_ABT(ABT_eventual_set((ABT_eventual)arg, NULL, 0));
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    for (int k = 0; k < IDLE_NPREDEFS; k++) {
        idle_world w;
        idle_world_start(&w, idle_predefs[k]);
        for (int i = 1; i < IDLE_NSTREAMS; i++) {
            atomic_store(&ran, 0);
            target = w.pool[i];
            pthread_t th;
            CHECK(pthread_create(&th, NULL, pusher, NULL) == 0);
            CHECK(pthread_join(th, NULL) == 0);
            printf("%s: stream %d ran the ULT %.1f us after the push\n",
                   idle_sched_name(idle_predefs[k]), i, latency * 1e6);
        }
        /* the primary stream sleeps while its ULT is blocked in a join */
        ABT_eventual ev;
        CHECK_ABT(ABT_eventual_create(0, &ev));
        ABT_thread b;
        CHECK_ABT(ABT_thread_create(w.pool[1], blocked, ev, ABT_THREAD_ATTR_NULL, &b));
        pthread_t th;
        CHECK(pthread_create(&th, NULL, setter, ev) == 0);
        double t0 = idle_now();
        CHECK_ABT(ABT_thread_free(&b));
        double joined = idle_now() - t0;
        CHECK(pthread_join(th, NULL) == 0);
        CHECK_ABT(ABT_eventual_free(&ev));
        if (joined > IDLE_SETTLE + idle_wake_limit())
            TEST_FAIL("%s: the join took %.3f s", idle_sched_name(idle_predefs[k]), joined);
        idle_world_stop(&w);
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
