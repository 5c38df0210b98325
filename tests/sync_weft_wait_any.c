/* sync_weft_wait_any: weft_eventual_wait_any returns the index (and value) of a ready
 * eventual - the lowest one if several are ready on entry, else the first one set -
 * ignores ABT_EVENTUAL_NULL entries, and works for ULTs (parked), external threads and
 * under racing setters (exactly one index reported, the waiter left on no list);
 * weft_eventual_timedwait_any times out; the errors. */
#include "sync_test.h"

#include <weft.h>

#define NE 5

static ABT_eventual ev[NE];
static atomic_int fails;

static void expect_index(size_t want)
{
    size_t idx = 99;
    void *v = NULL;
    int r = weft_eventual_wait_any(NE, ev, &idx, &v);
    if (r != ABT_SUCCESS || idx != want || !v || *(int *)v != (int)want) {
        fprintf(stderr, "wait_any: %d, index %zu (want %zu)\n", r, idx, want);
        atomic_fetch_add(&fails, 1);
    }
}

static void ult_wait3(void *arg)
{
    (void)arg;
    expect_index(3);
}

static void *ext_wait3(void *arg)
{
    (void)arg;
    expect_index(3);
    return NULL;
}

static void set(int i) { CHECK_ABT(ABT_eventual_set(ev[i], &i, (int)sizeof(i))); }

static void reset_all(void)
{
    for (int i = 0; i < NE; i++)
        CHECK_ABT(ABT_eventual_reset(ev[i]));
}

/* racing setters */
static atomic_int race_idx;

static void racer_wait(void *arg)
{
    (void)arg;
    size_t idx = 99;
    CHECK_ABT(weft_eventual_wait_any(NE, ev, &idx, NULL));
    atomic_store(&race_idx, (int)idx);
}

static void racer_set(void *arg) { set((int)(intptr_t)arg); }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 2, ABT_SCHED_BASIC);
    for (int i = 0; i < NE; i++)
        CHECK_ABT(ABT_eventual_create((int)sizeof(int), &ev[i]));

    size_t idx;
    struct timespec ts = sync_abstime(0.01);
    CHECK_ERR(weft_eventual_wait_any(NE, ev, NULL, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_eventual_wait_any(1, NULL, &idx, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_eventual_timedwait_any(NE, ev, &idx, NULL, NULL), ABT_ERR_INV_ARG);
    ABT_eventual nulls[2] = { ABT_EVENTUAL_NULL, ABT_EVENTUAL_NULL };
    CHECK_ERR(weft_eventual_wait_any(2, nulls, &idx, NULL), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(weft_eventual_wait_any(0, ev, &idx, NULL), ABT_ERR_INV_EVENTUAL);

    /* ready on entry: the lowest ready index */
    set(4);
    set(2);
    CHECK_ABT(weft_eventual_wait_any(NE, ev, &idx, NULL));
    CHECK_EQ_INT(idx, 2);
    reset_all();

    /* time-out, then NULL entries skipped */
    CHECK_ERR(weft_eventual_timedwait_any(NE, ev, &idx, NULL, &ts), ABT_ERR_COND_TIMEDOUT);
    ABT_eventual some[3] = { ABT_EVENTUAL_NULL, ev[1], ABT_EVENTUAL_NULL };
    set(1);
    CHECK_ABT(weft_eventual_wait_any(3, some, &idx, NULL));
    CHECK_EQ_INT(idx, 1);
    reset_all();

    /* blocked waiters of each kind, released by a later set */
    ABT_thread t[2];
    pthread_t th;
    CHECK_ABT(ABT_thread_create(w.pools[1], ult_wait3, NULL, ABT_THREAD_ATTR_NULL, &t[0]));
    CHECK_ABT(ABT_thread_create(w.pools[0], ult_wait3, NULL, ABT_THREAD_ATTR_NULL, &t[1]));
    CHECK(pthread_create(&th, NULL, ext_wait3, NULL) == 0);
    sync_yield_for(0.02);
    set(3);
    sync_join_all(2, t);
    pthread_join(th, NULL);
    /* and a timed one released before its deadline */
    ts = sync_abstime(5.0);
    CHECK_ABT(weft_eventual_timedwait_any(NE, ev, &idx, NULL, &ts));
    CHECK_EQ_INT(idx, 3);
    reset_all();

    /* races: setters on two streams while the waiter links itself */
    for (int round = 0; round < 300; round++) {
        ABT_thread wt, s1, s2;
        atomic_store(&race_idx, -1);
        CHECK_ABT(
            ABT_thread_create(w.pools[round % 3], racer_wait, NULL, ABT_THREAD_ATTR_NULL, &wt));
        CHECK_ABT(ABT_thread_create(w.pools[1], racer_set, (void *)(intptr_t)(round % NE),
                                    ABT_THREAD_ATTR_NULL, &s1));
        CHECK_ABT(ABT_thread_create(w.pools[2], racer_set, (void *)(intptr_t)((round + 2) % NE),
                                    ABT_THREAD_ATTR_NULL, &s2));
        CHECK_ABT(ABT_thread_free(&wt));
        CHECK_ABT(ABT_thread_free(&s1));
        CHECK_ABT(ABT_thread_free(&s2));
        int got = atomic_load(&race_idx);
        CHECK(got == round % NE || got == (round + 2) % NE);
        reset_all();
    }

    CHECK_EQ_INT(atomic_load(&fails), 0);
    for (int i = 0; i < NE; i++)
        CHECK_ABT(ABT_eventual_free(&ev[i]));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
