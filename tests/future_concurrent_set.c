/* future_concurrent_set: compartments set concurrently by ULTs on two streams and
 * external threads, waiters of all kinds: the callback runs exactly once per round with
 * every value present once, extra sets fail with ABT_ERR_FUTURE, and every waiter is
 * released after the callback. */
#include "sync_test.h"

#define SETTERS 6
#define PER     8
#define NC      (SETTERS * PER)
#define ROUNDS  50

static ABT_future fut;
static atomic_int cb_calls, bad, extra_fail;
static int round_no;

static void cb(void **values)
{
    int seen[NC] = { 0 };
    for (int i = 0; i < NC; i++) {
        int v = (int)(intptr_t)values[i];
        if (v < 0 || v >= NC || seen[v]++)
            atomic_fetch_add(&bad, 1);
    }
    atomic_fetch_add(&cb_calls, 1);
}

static void setter(int id)
{
    for (int i = 0; i < PER; i++)
        CHECK_ABT(ABT_future_set(fut, (void *)(intptr_t)(id * PER + i)));
}

static void waiter_check(int expect_calls)
{
    CHECK_ABT(ABT_future_wait(fut));
    if (atomic_load(&cb_calls) < expect_calls)
        atomic_fetch_add(&bad, 1);
}

static void ult(void *arg)
{
    int id = (int)(intptr_t)arg;
    if (id < SETTERS)
        setter(id);
    else
        waiter_check(round_no + 1);
}

static void *ext(void *arg)
{
    ult(arg);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_future_create(NC, cb, &fut));

    for (round_no = 0; round_no < ROUNDS; round_no++) {
        /* setters 0,1 external; 2..5 ULTs; waiters 6..9: 6 external, 7..9 ULTs */
        pthread_t th[3];
        int ext_ids[3] = { 0, 1, SETTERS };
        for (int i = 0; i < 3; i++)
            CHECK(pthread_create(&th[i], NULL, ext, (void *)(intptr_t)ext_ids[i]) == 0);
        ABT_thread ts[7];
        int ult_ids[7] = { 2, 3, 4, 5, SETTERS + 1, SETTERS + 2, SETTERS + 3 };
        for (int i = 0; i < 7; i++)
            CHECK_ABT(ABT_thread_create(w.pools[i % 2], ult, (void *)(intptr_t)ult_ids[i],
                                        ABT_THREAD_ATTR_NULL, &ts[i]));
        sync_join_all(7, ts);
        for (int i = 0; i < 3; i++)
            pthread_join(th[i], NULL);
        CHECK_EQ_INT(atomic_load(&cb_calls), round_no + 1);
        if (ABT_future_set(fut, NULL) != ABT_ERR_FUTURE)
            atomic_fetch_add(&extra_fail, 1);
        CHECK_ABT(ABT_future_reset(fut));
    }
    CHECK_EQ_INT(atomic_load(&bad), 0);
    CHECK_EQ_INT(atomic_load(&extra_fail), 0);
    CHECK_ABT(ABT_future_free(&fut));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
