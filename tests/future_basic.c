/* future_basic: ABT_future with n compartments becomes ready after n sets; the callback
 * runs exactly once, with the values in the order they were set, before waiters are
 * released; set on a ready future returns ABT_ERR_FUTURE; reset makes it unready; a
 * future without compartments is ready at once and refuses set; ABT_ERR_INV_FUTURE for
 * ABT_FUTURE_NULL; ABT_ERR_FUTURE when a tasklet waits (1.x). */
#include "sync_test.h"

#define N 4

static ABT_future fut;
static atomic_int cb_calls, task_ret;
static long cb_values[N];
static atomic_int waiter_saw_cb;

static void cb(void **values)
{
    for (int i = 0; i < N; i++)
        cb_values[i] = (long)(intptr_t)values[i];
    atomic_fetch_add(&cb_calls, 1);
}

static void waiter(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_future_wait(fut));
    atomic_store(&waiter_saw_cb, atomic_load(&cb_calls));
}

static void task(void *arg)
{
    (void)arg;
    atomic_store(&task_ret, ABT_future_wait(fut));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);

    ABT_future f = ABT_FUTURE_NULL;
    ABT_bool ready;
    CHECK_ERR(ABT_future_free(&f), ABT_ERR_INV_FUTURE);
    CHECK_ERR(ABT_future_wait(ABT_FUTURE_NULL), ABT_ERR_INV_FUTURE);
    CHECK_ERR(ABT_future_test(ABT_FUTURE_NULL, &ready), ABT_ERR_INV_FUTURE);
    CHECK_ERR(ABT_future_set(ABT_FUTURE_NULL, NULL), ABT_ERR_INV_FUTURE);
    CHECK_ERR(ABT_future_reset(ABT_FUTURE_NULL), ABT_ERR_INV_FUTURE);

    CHECK_ABT(ABT_future_create(N, cb, &fut));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(w.pools[1], waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_future_test(fut, &ready));
        CHECK_EQ_INT(ready, ABT_FALSE);
        CHECK_ABT(ABT_future_set(fut, (void *)(intptr_t)(10 + i)));
    }
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&cb_calls), 1);
    CHECK_EQ_INT(atomic_load(&waiter_saw_cb), 1); /* released after the callback */
    for (int i = 0; i < N; i++)
        CHECK_EQ_INT(cb_values[i], 10 + i);
    CHECK_ABT(ABT_future_test(fut, &ready));
    CHECK_EQ_INT(ready, ABT_TRUE);
    CHECK_ABT(ABT_future_wait(fut));
    CHECK_ERR(ABT_future_set(fut, NULL), ABT_ERR_FUTURE);
    CHECK_EQ_INT(atomic_load(&cb_calls), 1);

    /* reset: a second round */
    CHECK_ABT(ABT_future_reset(fut));
    CHECK_ABT(ABT_future_test(fut, &ready));
    CHECK_EQ_INT(ready, ABT_FALSE);
    ABT_task k;
    CHECK_ABT(ABT_task_create(w.pools[1], task, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&task_ret), ABT_ERR_FUTURE);
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_future_set(fut, (void *)(intptr_t)(20 + i)));
    CHECK_EQ_INT(atomic_load(&cb_calls), 2);
    CHECK_EQ_INT(cb_values[N - 1], 20 + N - 1);
    CHECK_ABT(ABT_future_free(&fut));
    CHECK(fut == ABT_FUTURE_NULL);

    /* no compartments; no callback */
    CHECK_ABT(ABT_future_create(0, cb, &f));
    CHECK_ABT(ABT_future_test(f, &ready));
    CHECK_EQ_INT(ready, ABT_TRUE);
    CHECK_ABT(ABT_future_wait(f));
    CHECK_ERR(ABT_future_set(f, NULL), ABT_ERR_FUTURE);
    CHECK_ABT(ABT_future_reset(f));
    CHECK_ABT(ABT_future_test(f, &ready));
    CHECK_EQ_INT(ready, ABT_TRUE);
    CHECK_ABT(ABT_future_free(&f));
    CHECK_ABT(ABT_future_create(1, NULL, &f));
    CHECK_ABT(ABT_future_set(f, NULL));
    CHECK_ABT(ABT_future_wait(f));
    CHECK_ABT(ABT_future_free(&f));
    CHECK_EQ_INT(atomic_load(&cb_calls), 2);

    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
