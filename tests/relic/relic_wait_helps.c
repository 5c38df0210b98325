/* relic_wait_helps: relic_wait runs the tasks still unclaimed in the waiting thread, while
 * the assistant races it for them.  Over round trips (submit + wait) and batches of 1 to
 * RELIC_RING_SIZE tasks, with the assistant awake, sleeping between batches, or hinted
 * nothing: every task runs exactly once, one at a time in submission order (plain, non-
 * atomic order counter and run counts, checked after each wait; TSan sees a race if two
 * tasks ever overlap), and both threads do run tasks (the test keeps going until each ran
 * some, and fails after a bounded number of rounds).  A Relic call from a task that the
 * waiting thread runs is refused with RELIC_ERR_ASSISTANT, and the ring stays usable. */
#include <stdatomic.h>
#include <time.h>

#include "relic_test.h"

#define MAXB RELIC_RING_SIZE

static pthread_t main_thread;
static int seq_next; /* plain: tasks run one after the other */
static int seq_of[MAXB];
static int ran[MAXB];
static long on_main, on_assistant; /* plain, as seq_next */
static int refused = -1;           /* what relic_submit returned inside a task on main */

static void task(void *arg)
{
    int i = (int)(intptr_t)arg;
    if (pthread_equal(pthread_self(), main_thread)) {
        on_main++;
        if (refused == -1)
            refused = relic_submit(task, arg);
    } else {
        on_assistant++;
    }
    seq_of[i] = seq_next++;
    ran[i]++;
    for (volatile int k = 0; k < (i & 7) * 8; k++) /* a few lengths */
        ;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
    main_thread = pthread_self();
    setenv("RELIC_SPIN_US", "20", 1); /* hint NONE: the assistant often sleeps */
    CHECK_RELIC(relic_init());
    long rounds = 0, tasks = 0, min_rounds = 30000 / test_scale_div();
    double start = now_s();
    unsigned rng = 12345;
    while (rounds < min_rounds || on_main == 0 || on_assistant == 0) {
        if (now_s() - start > 30.0)
            TEST_FAIL("after %ld rounds: %ld tasks on main, %ld on the assistant", rounds, on_main,
                      on_assistant);
        /* no hint at first, then 64 rounds awake, 64 asleep, ... */
        if (rounds % 64 == 0 && rounds > 0)
            (rounds / 64) % 2 ? relic_wake_up_hint() : relic_sleep_hint();
        rng = rng * 1103515245u + 12345u;
        /* mostly round trips, sometimes a batch up to a full ring */
        int b = (rng >> 16) % 4 != 0 ? 1 : 1 + (int)((rng >> 8) % MAXB);
        seq_next = 0;
        for (int i = 0; i < b; i++)
            ran[i] = 0;
        for (int i = 0; i < b; i++)
            CHECK_RELIC(relic_submit(task, (void *)(intptr_t)i));
        CHECK_RELIC(relic_wait());
        for (int i = 0; i < b; i++) {
            CHECK_EQ_INT(ran[i], 1);
            CHECK_EQ_INT(seq_of[i], i);
        }
        CHECK_EQ_INT(seq_next, b);
        rounds++;
        tasks += b;
    }
    CHECK(on_main + on_assistant == tasks);
    CHECK_RELIC_ERR(refused, RELIC_ERR_ASSISTANT);
    printf("%ld rounds, %ld tasks: %ld on the waiting main thread, %ld on the assistant\n", rounds,
           tasks, on_main, on_assistant);
    /* Still usable, and the hints from outside a task still work. */
    relic_wake_up_hint();
    seq_next = 0;
    ran[0] = 0;
    CHECK_RELIC(relic_submit(task, (void *)(intptr_t)0));
    CHECK_RELIC(relic_wait());
    CHECK_EQ_INT(ran[0], 1);
    CHECK_RELIC(relic_finalize());
    return 0;
}
