/* internal_poll_hook_spin: a poll hook's idle_ns answering 0 keeps an idle stream polling
 * instead of sleeping (core/poll_hook.h; libweft-mpi answers 0 for a while after each
 * completion).  With the scheduler's own spin off (ABT_SCHED_SPIN_NSEC=0), an idle
 * secondary stream whose hook answers 5 ms polls a handful of times in 60 ms; when the
 * hook answers 0 it polls on every loop: hundreds of times at least, even under valgrind.
 * Counts, not times, are checked. */
#define _GNU_SOURCE
#include "core/poll_hook.h"

#include <abt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CHECK(c)                                                          \
    do {                                                                  \
        if (!(c)) {                                                       \
            fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #c); \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

static _Atomic int polls, zero, watching;

static bool poll_fn(void)
{
    int rank = -1;
    if (atomic_load(&watching) && ABT_self_get_xstream_rank(&rank) == ABT_SUCCESS && rank == 1)
        atomic_fetch_add(&polls, 1);
    return false;
}

static uint64_t idle_fn(void) { return atomic_load(&zero) ? 0 : 5000000u; }

static const struct weft_poll_hook hook = { .name = "spin", .poll = poll_fn, .idle_ns = idle_fn };

static int polls_in(int answer_zero)
{
    atomic_store(&zero, answer_zero);
    usleep(20000); /* the stream settles into the new answer (a 5 ms nap ends) */
    atomic_store(&polls, 0);
    atomic_store(&watching, 1);
    usleep(60000);
    atomic_store(&watching, 0);
    return atomic_load(&polls);
}

int main(int argc, char **argv)
{
    setenv("ABT_SCHED_SPIN_NSEC", "0", 1);
    CHECK(ABT_init(argc, argv) == ABT_SUCCESS);
    CHECK(weft_poll_hook_add(&hook) == 0);
    ABT_xstream xs;
    CHECK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 1, &xs) == ABT_SUCCESS);
    int napping = polls_in(0), spinning = polls_in(1), napping2 = polls_in(0);
    printf("polls in 60 ms: %d napping (5 ms), %d answering 0, %d napping again\n", napping,
           spinning, napping2);
    CHECK(napping < 40 && napping2 < 40);
    const char *slow = getenv("WEFT_TEST_SLOW");
    bool skip = slow && *slow && *slow != '0';
    if (!skip)
        CHECK(spinning > 5000);
    CHECK(ABT_xstream_join(xs) == ABT_SUCCESS);
    CHECK(ABT_xstream_free(&xs) == ABT_SUCCESS);
    CHECK(ABT_finalize() == ABT_SUCCESS);
    if (skip) {
        fprintf(stderr, "SKIP: the polling rate is not checked under WEFT_TEST_SLOW\n");
        return 77;
    }
    return 0;
}
