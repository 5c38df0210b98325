/* sync_weft_sleep: weft_thread_sleep parks a ULT for at least the given time while the
 * other ULTs of its stream keep running; many sleepers with different durations wake in
 * deadline order on a BASIC and a BASIC_WAIT stream; tasklets and external threads
 * sleep their OS thread; 0 yields; negative or NaN returns ABT_ERR_INV_ARG. */
#include "sync_test.h"

#include <math.h>
#include <weft.h>

#define NSLEEP 32

static atomic_int progress, stop, fails, order_pos;
static int order[NSLEEP];

static double base; /* common origin of the sleepers' deadlines */

static void sleeper(void *arg)
{
    int i = (int)(intptr_t)arg;
    /* deadlines 2 ms apart, shuffled, all after every sleeper has started */
    double start = sync_slow() ? 1.0 : 0.2;
    double deadline = base + start + 0.002 * (double)((i * 37) % NSLEEP);
    double t0 = sync_now();
    double sec = deadline - t0;
    CHECK(sec > 0);
    CHECK_ABT(weft_thread_sleep(sec));
    double dt = sync_now() - t0;
    if (dt < sec - 1e-4) {
        fprintf(stderr, "slept %.4f s < %.4f s\n", dt, sec);
        atomic_fetch_add(&fails, 1);
    }
    order[atomic_fetch_add(&order_pos, 1)] = (i * 37) % NSLEEP;
}

static void spinner(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        atomic_fetch_add(&progress, 1);
        ABT_thread_yield();
    }
}

static void task(void *arg)
{
    (void)arg;
    double t0 = sync_now();
    CHECK_ABT(weft_thread_sleep(0.01));
    if (sync_now() - t0 < 0.0099)
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
    base = sync_now();
    ABT_thread sp, ts[NSLEEP];
    CHECK_ABT(ABT_thread_create(w->pools[pool], spinner, NULL, ABT_THREAD_ATTR_NULL, &sp));
    for (int i = 0; i < NSLEEP; i++)
        CHECK_ABT(ABT_thread_create(w->pools[pool], sleeper, (void *)(intptr_t)i,
                                    ABT_THREAD_ATTR_NULL, &ts[i]));
    sync_join_all(NSLEEP, ts);
    int p = atomic_load(&progress);
    atomic_store(&stop, 1);
    CHECK_ABT(ABT_thread_free(&sp));
    CHECK(p > 100); /* the stream kept running the spinner while they slept */
    /* 2 ms apart: woken in deadline order (not checked in slow runs, where a preemption
     * between reading the clock here and in weft_thread_sleep may shift a deadline) */
    for (int i = 1; i < NSLEEP && !sync_slow(); i++)
        CHECK(order[i - 1] < order[i]);
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
    CHECK(sync_now() - t0 >= 0.0099);

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
