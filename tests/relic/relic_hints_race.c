/* relic_hints_race: sleep and wake-up hints interleaved at random with submits, waits and
 * short pauses, with a tiny bounded spin (RELIC_SPIN_US=2) so that the assistant goes to
 * sleep and is woken all the time, and so that relic_wait sleeps on its futex behind slow
 * tasks.  A lost wake-up hangs the test (ctest timeout); a lost or doubled task fails the
 * count (the counters are atomic: a full ring runs tasks inline).  Several main threads at once, to
 * race the futex paths of different Relics. */
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "relic_test.h"

#define THREADS 2

struct counter { /* atomic: a full ring runs tasks inline, in parallel */
    _Atomic long done;
    _Atomic long slow;
};

static void inc(void *arg)
{
    atomic_fetch_add_explicit(&((struct counter *)arg)->done, 1, memory_order_relaxed);
}

static void slow_task(void *arg)
{
    struct timespec ts = { 0, 200000 }; /* 0.2 ms: longer than the spins */
    nanosleep(&ts, NULL);
    atomic_fetch_add_explicit(&((struct counter *)arg)->slow, 1, memory_order_relaxed);
}

static void *worker(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u + 1;
    int rounds = 20000 / test_scale_div();
    struct counter c;
    atomic_init(&c.done, 0);
    atomic_init(&c.slow, 0);
    long expect = 0, expect_slow = 0;
    CHECK_RELIC(relic_init());
    for (int r = 0; r < rounds; r++) {
        seed = seed * 1103515245u + 12345u;
        switch ((seed >> 16) % 8) {
        case 0: relic_sleep_hint(); break;
        case 1: relic_wake_up_hint(); break;
        case 2: usleep(20); break; /* let the assistant spin out and sleep */
        case 3:
            if (((seed >> 8) & 15) == 0) {
                CHECK_RELIC(relic_submit(slow_task, &c));
                expect_slow++;
            }
            break;
        default: break;
        }
        int k = 1 + (int)((seed >> 4) % 7);
        for (int i = 0; i < k; i++)
            CHECK_RELIC(relic_submit(inc, &c));
        expect += k;
        /* Between the submits and the wait the tasks and the counter are racing: the
         * counter is read only after relic_wait. */
        if ((seed >> 20) & 1) {
            CHECK_RELIC(relic_wait());
            long d = atomic_load(&c.done), sl = atomic_load(&c.slow);
            if (d != expect || sl != expect_slow)
                TEST_FAIL("after wait: done %ld of %ld, slow %ld of %ld", d, expect, sl,
                          expect_slow);
        }
    }
    CHECK_RELIC(relic_finalize());
    CHECK_EQ_INT(atomic_load(&c.done), expect);
    CHECK_EQ_INT(atomic_load(&c.slow), expect_slow);
    return NULL;
}

int main(void)
{
    setenv("RELIC_SPIN_US", "2", 1);
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&th[i], NULL, worker, (void *)(uintptr_t)(i + 1)) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    return 0;
}
