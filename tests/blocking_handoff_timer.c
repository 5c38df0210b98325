/* tests/blocking_handoff_timer.c - weft_blocking_begin/end: a timed wait of the only stream
 * fires while another ULT of that stream sleeps in the kernel: a spare serves the stream's
 * timer queue and pool, so the 200 ms sleeper wakes before the 2 s blocking call returns
 * (the ordering, not a duration, is checked: a loaded machine delays both alike).  A ULT
 * other than the primary one creates both (blocking_handoff_pipe.c says why). */
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED
#include <time.h>

static double t_timed, t_blocked;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void timed(void *arg)
{
    (void)arg;
    CHECK_ABT(weft_thread_sleep(0.2));
    t_timed = now();
}

static void blocked(void *arg)
{
    (void)arg;
    struct timespec d = { .tv_sec = 2, .tv_nsec = 0 };
    CHECK_ABT(weft_blocking_begin());
    while (nanosleep(&d, &d) != 0) {
    }
    CHECK_ABT(weft_blocking_end());
    t_blocked = now();
}

static void parent(void *arg)
{
    ABT_pool pool = arg;
    ABT_thread a, b;
    CHECK_ABT(ABT_thread_create(pool, timed, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_ABT(ABT_thread_create(pool, blocked, NULL, ABT_THREAD_ATTR_NULL, &b));
    CHECK_ABT(ABT_thread_free(&a));
    CHECK_ABT(ABT_thread_free(&b));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool pool;
    CHECK_ABT(ABT_self_get_last_pool(&pool));
    double t0 = now();
    ABT_thread p;
    CHECK_ABT(ABT_thread_create(pool, parent, pool, ABT_THREAD_ATTR_NULL, &p));
    CHECK_ABT(ABT_thread_free(&p));
    printf("timed wait of 0.2 s woke after %.3f s; the 2 s blocking call returned after %.3f s\n",
           t_timed - t0, t_blocked - t0);
    CHECK(t_timed > 0 && t_blocked > 0);
    CHECK(t_timed < t_blocked);
    CHECK_ABT(ABT_finalize());
    return 0;
}
#endif
