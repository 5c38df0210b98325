/* internal_poll_hook_eager: weft_poll_hook_eager (core/sched/poll_hook.h).  While a face asks for
 * eager polling on a stream, its hook's poll_eager runs after every unit that stream's
 * predefined scheduler runs (libweft-mpi uses it so that MPI transfers advance between
 * computing ULTs); once the face takes it back, never.  One stream, so every unit runs on
 * the stream that asked; counts, not times, are checked. */
#include "core/sched/poll_hook.h"

#include <abt.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(c)                                                          \
    do {                                                                  \
        if (!(c)) {                                                       \
            fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #c); \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

#define UNITS 40 /* fewer than the default event_freq (50): the event checks do not count */

static _Atomic int eager_polls, ran;

static bool poll_fn(void) { return false; }
static bool poll_eager_fn(void)
{
    atomic_fetch_add(&eager_polls, 1);
    return false;
}

static const struct weft_poll_hook hook = { .name = "eager",
                                            .poll = poll_fn,
                                            .poll_eager = poll_eager_fn };

static void unit(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

/* Run UNITS ULTs on the primary stream's pool, through its scheduler (the primary ULT
 * yields behind them: a join would start a fresh ULT itself, without the scheduler), and
 * free them; the eager polls meanwhile. */
static int polls_over_units(ABT_pool pool)
{
    ABT_thread t[UNITS];
    int before = atomic_load(&eager_polls), ran0 = atomic_load(&ran);
    for (int i = 0; i < UNITS; i++)
        CHECK(ABT_thread_create(pool, unit, NULL, ABT_THREAD_ATTR_NULL, &t[i]) == ABT_SUCCESS);
    while (atomic_load(&ran) - ran0 < UNITS)
        CHECK(ABT_thread_yield() == ABT_SUCCESS);
    for (int i = 0; i < UNITS; i++)
        CHECK(ABT_thread_free(&t[i]) == ABT_SUCCESS);
    return atomic_load(&eager_polls) - before;
}

int main(int argc, char **argv)
{
    CHECK(weft_poll_hook_eager(true) == false); /* not a stream yet: nothing to ask */
    CHECK(ABT_init(argc, argv) == ABT_SUCCESS);
    CHECK(weft_poll_hook_add(&hook) == 0);
    ABT_xstream xs;
    ABT_pool pool;
    CHECK(ABT_xstream_self(&xs) == ABT_SUCCESS);
    CHECK(ABT_xstream_get_main_pools(xs, 1, &pool) == ABT_SUCCESS);

    int off = polls_over_units(pool);
    CHECK(weft_poll_hook_eager(true));
    int on = polls_over_units(pool);
    CHECK(weft_poll_hook_eager(true)); /* nested: two faces ask */
    CHECK(weft_poll_hook_eager(false));
    int still = polls_over_units(pool);
    CHECK(weft_poll_hook_eager(false));
    int after = polls_over_units(pool);
    CHECK(weft_poll_hook_eager(false)); /* one more than asked: ignored, no underflow */
    int after2 = polls_over_units(pool);
    printf("eager polls over %d units: %d off, %d on, %d still on, %d off, %d off\n", UNITS, off,
           on, still, after, after2);
    CHECK(atomic_load(&ran) == 5 * UNITS);
    CHECK(off == 0 && after == 0 && after2 == 0);
    CHECK(on >= UNITS && still >= UNITS); /* the UNITS ULTs, and the primary ULT's turns */
    CHECK(ABT_finalize() == ABT_SUCCESS);
    return 0;
}
