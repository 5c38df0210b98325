/* sync_weft_sleep: weft_thread_sleep parks a ULT for at least the given time while the
 * other ULTs of its stream keep running; many sleepers with different durations wake in
 * deadline order on a BASIC and a BASIC_WAIT stream; tasklets and external threads
 * sleep their OS thread; 0 yields; negative or NaN returns ABT_ERR_INV_ARG.
 *
 * Nothing here depends on how fast the machine runs the test.  A sleeper's deadline is
 * the time weft reads inside the call plus the duration, and weft reads it somewhere
 * between the sleeper's last clock read before the call and the first clock read of
 * any other work unit of the stream after the sleeper parked (one stream is one OS
 * thread: they run one after the other).  Every pair of sleepers whose deadline ranges
 * are disjoint must wake in deadline order; on a quiet machine the ranges are a few
 * microseconds wide and the deadlines 2 ms apart, so every pair is checked, on a loaded
 * one the pairs a preemption made ambiguous are not.  The spinner ULT of the stream must
 * run while each sleeper sleeps, whatever the timing: when a sleeper parks, the spinner
 * is in the stream's FIFO pool, and the woken sleeper is queued behind it. */
#include "sync_test.h"

#include <math.h>
#include <weft.h>

#define NSLEEP 32

static atomic_int progress, stop, fails, order_pos;
static atomic_int open_bracket; /* sleeper whose deadline range is still open, or -1 */
static double dur[NSLEEP];      /* sleeper i sleeps dur[i] s */
static double lo[NSLEEP];       /* its last clock read before the call */
static double hi[NSLEEP];       /* the stream's first clock read after it parked */
static int wake_pos[NSLEEP];    /* in which order the sleepers ran after waking */
static int spins_at_park[NSLEEP], spins_at_wake[NSLEEP];

/* Every work unit of the sleepers' stream calls this whenever it runs: the first one
 * after a sleeper parked closes that sleeper's deadline range. */
static void stamp(void)
{
    int open = atomic_exchange(&open_bracket, -1);
    if (open >= 0)
        hi[open] = sync_now();
}

static void sleeper(void *arg)
{
    int i = (int)(intptr_t)arg;
    stamp();
    spins_at_park[i] = atomic_load(&progress);
    double t0 = sync_now();
    lo[i] = t0;
    atomic_store(&open_bracket, i);
    CHECK_ABT(weft_thread_sleep(dur[i]));
    stamp(); /* if nothing else ran meanwhile: the wake time is an upper bound too */
    double dt = sync_now() - t0;
    spins_at_wake[i] = atomic_load(&progress);
    if (dt + 1e-6 < dur[i]) {
        fprintf(stderr, "sleeper %d slept %.6f s < %.6f s\n", i, dt, dur[i]);
        atomic_fetch_add(&fails, 1);
    }
    wake_pos[i] = atomic_fetch_add(&order_pos, 1);
}

static void spinner(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        stamp();
        atomic_fetch_add(&progress, 1);
        ABT_thread_yield();
    }
}

static void task(void *arg)
{
    (void)arg;
    double t0 = sync_now();
    CHECK_ABT(weft_thread_sleep(0.01));
    if (sync_now() - t0 + 1e-6 < 0.01)
        atomic_fetch_add(&fails, 1);
}

static void *ext(void *arg)
{
    task(arg);
    return NULL;
}

static void run(sync_world *w, int pool)
{
    atomic_store(&order_pos, 0);
    atomic_store(&stop, 0);
    atomic_store(&progress, 0);
    atomic_store(&open_bracket, -1);
    /* durations 2 ms apart, shuffled against the creation order */
    for (int i = 0; i < NSLEEP; i++)
        dur[i] = 0.02 + 0.002 * (double)((i * 37) % NSLEEP);
    ABT_thread sp, ts[NSLEEP];
    CHECK_ABT(ABT_thread_create(w->pools[pool], spinner, NULL, ABT_THREAD_ATTR_NULL, &sp));
    for (int i = 0; i < NSLEEP; i++)
        CHECK_ABT(ABT_thread_create(w->pools[pool], sleeper, (void *)(intptr_t)i,
                                    ABT_THREAD_ATTR_NULL, &ts[i]));
    sync_join_all(NSLEEP, ts);
    atomic_store(&stop, 1);
    CHECK_ABT(ABT_thread_free(&sp));
    CHECK_EQ_INT(atomic_load(&open_bracket), -1);
    int pairs = 0;
    for (int a = 0; a < NSLEEP; a++) {
        /* the stream kept running the spinner while sleeper a slept */
        if (spins_at_wake[a] <= spins_at_park[a])
            TEST_FAIL("pool %d: the spinner did not run while sleeper %d slept", pool, a);
        for (int b = 0; b < NSLEEP; b++) {
            /* deadline ranges [lo + dur, hi + dur], with a margin for the rounding of the
             * duration to whole nanoseconds */
            if (hi[a] + dur[a] + 1e-6 >= lo[b] + dur[b])
                continue; /* a's deadline is not surely before b's */
            pairs++;
            if (wake_pos[a] > wake_pos[b])
                TEST_FAIL("pool %d: sleeper %d (%.3f s, deadline by %.6f) woke after "
                          "sleeper %d (%.3f s, deadline from %.6f)",
                          pool, a, dur[a], hi[a] + dur[a], b, dur[b], lo[b] + dur[b]);
        }
    }
    printf("pool %d: %d of %d pairs of sleepers with surely ordered deadlines, all in order\n",
           pool, pairs, NSLEEP * (NSLEEP - 1) / 2);
}

int main(int argc, char **argv)
{
    CHECK_ERR(weft_thread_sleep(-1.0), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_thread_sleep(NAN), ABT_ERR_INV_ARG);
    CHECK_ABT(weft_thread_sleep(0.001)); /* before init: an external thread */

    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC_WAIT);
    CHECK_ABT(weft_thread_sleep(0.0)); /* the primary ULT: a yield */
    double t0 = sync_now();
    CHECK_ABT(weft_thread_sleep(0.01)); /* the primary ULT parks */
    CHECK(sync_now() - t0 + 1e-6 >= 0.01);

    run(&w, 1); /* BASIC_WAIT */
    run(&w, 0); /* BASIC (primary) */

    ABT_task k;
    CHECK_ABT(ABT_task_create(w.pools[1], task, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    pthread_t th;
    CHECK(pthread_create(&th, NULL, ext, NULL) == 0);
    pthread_join(th, NULL);
    CHECK_EQ_INT(atomic_load(&fails), 0);

    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
