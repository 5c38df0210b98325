/* sched_data: the user value of a scheduler created by ABT_sched_create is
 * NULL initially; ABT_sched_set_data / ABT_sched_get_data store and return a
 * value (also visible from inside the scheduler's run function via the
 * handle it receives).  On a predefined (basic) scheduler set/get round-trip
 * the value as well (the original value is restored before use, because
 * Argobots 1.2 keeps its own state in that slot).  ABT_SCHED_NULL gives
 * ABT_ERR_INV_SCHED. */
#include "test.h"
#include <sched.h>
#include <stdatomic.h>

static int marker;
static _Atomic(void *) seen_in_run = NULL;

static void run(ABT_sched sched)
{
    void *d = NULL;
    if (ABT_sched_get_data(sched, &d) == ABT_SUCCESS)
        atomic_store(&seen_in_run, d);
    /* Run nothing; stop as soon as asked. */
    while (1) {
        ABT_bool stop = ABT_FALSE;
        ABT_xstream_check_events(sched);
        if (ABT_sched_has_to_stop(sched, &stop) != ABT_SUCCESS || stop)
            break;
        sched_yield(); /* idle scheduler: give the CPU away */
    }
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_sched_def def = {
        .type = ABT_SCHED_TYPE_ULT, .init = NULL, .run = run, .free = NULL, .get_migr_pool = NULL
    };
    ABT_pool pool;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool));
    ABT_sched s;
    CHECK_ABT(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &s));
    void *d = &d;
    CHECK_ABT(ABT_sched_get_data(s, &d));
    CHECK(d == NULL);
    CHECK_ABT(ABT_sched_set_data(s, &marker));
    CHECK_ABT(ABT_sched_get_data(s, &d));
    CHECK(d == &marker);

    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(s, &xs));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK(atomic_load(&seen_in_run) == &marker);
    /* ABT_sched_create schedulers are not automatic. */
    CHECK_ABT(ABT_sched_get_data(s, &d));
    CHECK(d == &marker);
    CHECK_ABT(ABT_sched_set_data(s, NULL));
    CHECK_ABT(ABT_sched_get_data(s, &d));
    CHECK(d == NULL);
    CHECK_ABT(ABT_sched_free(&s));

    /* Predefined scheduler: round trip, then restore. */
    ABT_sched b;
    void *orig;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &b));
    CHECK_ABT(ABT_sched_get_data(b, &orig));
    CHECK_ABT(ABT_sched_set_data(b, &marker));
    CHECK_ABT(ABT_sched_get_data(b, &d));
    CHECK(d == &marker);
    CHECK_ABT(ABT_sched_set_data(b, orig));
    CHECK_ABT(ABT_xstream_create(b, &xs));
    CHECK_ABT(ABT_xstream_free(&xs));

    CHECK_ERR(ABT_sched_set_data(ABT_SCHED_NULL, &marker), ABT_ERR_INV_SCHED);
    d = &d;
    CHECK_ERR(ABT_sched_get_data(ABT_SCHED_NULL, &d), ABT_ERR_INV_SCHED);
    CHECK(d == &d);

    CHECK_ABT(ABT_finalize());
    return 0;
}
