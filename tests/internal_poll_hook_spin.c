/* internal_poll_hook_spin: a poll hook's idle_ns answering 0 keeps an idle stream polling
 * instead of sleeping (core/sched/poll_hook.h; libweft-mpi answers 0 for a while after each
 * completion).  With the scheduler's own spin off (ABT_SCHED_SPIN_NSEC=0), an idle
 * secondary stream whose hook answers 5 ms sleeps after every few polls, each sleep
 * capped at 5 ms; when the hook answers 0 it polls on every loop and never sleeps.
 *
 * The hook also has a sleep function, which counts the stream's sleeps (and their
 * time-outs) and declines, so that the stream then sleeps on its futex as it would
 * without it.  Counts of polls and sleeps, not rates, are checked: how much CPU a loaded
 * machine gives the stream changes neither. */
#define _GNU_SOURCE
#include "core/sched/poll_hook.h"

#include <abt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define CHECK(c)                                                          \
    do {                                                                  \
        if (!(c)) {                                                       \
            fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #c); \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

#define NAP_NS   5000000u
#define PATIENCE 60.0 /* seconds: only a stream that stopped looping takes that long */
#define SLEEPS   10   /* sleeps watched while napping */
#define POLLS    5000 /* polls watched while answering 0 */

static _Atomic int zero;     /* what idle_ns answers: 0 (1) or 5 ms (0) */
static _Atomic int answered; /* stream 1's last answer: 1 = 5 ms, 2 = 0 */
static _Atomic int watching, polls, sleeps;
static _Atomic uint64_t max_timeout; /* the longest sleep asked for (0: no limit) */
static _Atomic int unbounded;        /* a sleep without a limit was asked for */

static bool on_stream1(void)
{
    int rank = -1;
    return ABT_self_get_xstream_rank(&rank) == ABT_SUCCESS && rank == 1;
}

static bool poll_fn(void)
{
    if (atomic_load(&watching) && on_stream1())
        atomic_fetch_add(&polls, 1);
    return false;
}

static uint64_t idle_fn(void)
{
    int z = atomic_load(&zero);
    if (on_stream1())
        atomic_store(&answered, z ? 2 : 1);
    return z ? 0 : NAP_NS;
}

static bool sleep_fn(_Atomic uint32_t *word, uint64_t timeout_ns)
{
    (void)word;
    if (atomic_load(&watching) && on_stream1()) {
        atomic_fetch_add(&sleeps, 1);
        if (timeout_ns == 0)
            atomic_store(&unbounded, 1);
        else if (timeout_ns > atomic_load(&max_timeout))
            atomic_store(&max_timeout, timeout_ns);
    }
    return false; /* declined: the stream sleeps on its futex */
}

static const struct weft_poll_hook hook = {
    .name = "spin", .poll = poll_fn, .idle_ns = idle_fn, .sleep = sleep_fn
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Make the hook answer `answer_zero`, wait until stream 1 has got that answer (every
 * later idle decision of the stream gets it too), then watch until `enough()` holds. */
static void watch(int answer_zero, bool (*enough)(void), const char *what)
{
    atomic_store(&zero, answer_zero);
    double t0 = now();
    while (atomic_load(&answered) != (answer_zero ? 2 : 1)) {
        if (now() - t0 > PATIENCE) {
            fprintf(stderr, "FAIL: stream 1 never asked the hook (%s)\n", what);
            exit(1);
        }
        usleep(100);
    }
    atomic_store(&polls, 0);
    atomic_store(&sleeps, 0);
    atomic_store(&max_timeout, 0);
    atomic_store(&unbounded, 0);
    atomic_store(&watching, 1);
    t0 = now();
    while (!enough()) {
        if (now() - t0 > PATIENCE) {
            fprintf(stderr, "FAIL: %s: %d polls, %d sleeps in %.0f s\n", what, atomic_load(&polls),
                    atomic_load(&sleeps), PATIENCE);
            exit(1);
        }
        usleep(1000);
    }
    atomic_store(&watching, 0);
}

static bool slept_enough(void) { return atomic_load(&sleeps) >= SLEEPS; }
static bool polled_enough(void) { return atomic_load(&polls) >= POLLS; }

static void check_napping(const char *what)
{
    watch(0, slept_enough, what);
    int p = atomic_load(&polls), s = atomic_load(&sleeps);
    printf("%s: %d polls, %d sleeps of at most %.3f ms\n", what, p, s,
           (double)atomic_load(&max_timeout) * 1e-6);
    CHECK(!atomic_load(&unbounded)); /* every sleep capped by the hook's answer */
    CHECK(atomic_load(&max_timeout) <= NAP_NS);
    CHECK(p <= 4 * s + 4); /* a few polls per sleep, not a spin */
}

int main(int argc, char **argv)
{
    setenv("ABT_SCHED_SPIN_NSEC", "0", 1);
    CHECK(ABT_init(argc, argv) == ABT_SUCCESS);
    CHECK(weft_poll_hook_add(&hook) == 0);
    ABT_xstream xs;
    CHECK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 1, &xs) == ABT_SUCCESS);

    check_napping("napping (5 ms)");
    watch(1, polled_enough, "answering 0");
    printf("answering 0: %d polls, %d sleeps\n", atomic_load(&polls), atomic_load(&sleeps));
    CHECK(atomic_load(&sleeps) == 0); /* polled on, never slept */
    check_napping("napping again");

    CHECK(ABT_xstream_join(xs) == ABT_SUCCESS);
    CHECK(ABT_xstream_free(&xs) == ABT_SUCCESS);
    CHECK(ABT_finalize() == ABT_SUCCESS);
    return 0;
}
