/* eventual_basic: ABT_eventual with a value buffer and without: set copies the value,
 * wait and test return the buffer (NULL without one), reset makes it unready, and the
 * errors: ABT_ERR_INV_ARG for a negative size, ABT_ERR_EVENTUAL for a second set,
 * ABT_ERR_INV_EVENTUAL for a value larger than the buffer and for
 * ABT_EVENTUAL_NULL, ABT_ERR_EVENTUAL when a tasklet waits (1.x). */
#include "sync_test.h"

static ABT_eventual ev;
static atomic_int task_ret;
static atomic_long seen;

static void waiter(void *arg)
{
    (void)arg;
    void *v = NULL;
    CHECK_ABT(ABT_eventual_wait(ev, &v));
    atomic_store(&seen, *(long *)v);
}

static void task(void *arg)
{
    (void)arg;
    atomic_store(&task_ret, ABT_eventual_wait(ev, NULL));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);

    ABT_eventual e = ABT_EVENTUAL_NULL;
    void *v;
    ABT_bool ready;
    struct timespec ts = sync_abstime(0.01);
    CHECK_ERR(ABT_eventual_create(-1, &e), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_eventual_free(&e), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_wait(ABT_EVENTUAL_NULL, &v), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_timedwait(ABT_EVENTUAL_NULL, &v, &ts), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_test(ABT_EVENTUAL_NULL, &v, &ready), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_set(ABT_EVENTUAL_NULL, NULL, 0), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_reset(ABT_EVENTUAL_NULL), ABT_ERR_INV_EVENTUAL);

    /* with a buffer */
    CHECK_ABT(ABT_eventual_create((int)sizeof(long), &ev));
    CHECK_ABT(ABT_eventual_test(ev, &v, &ready));
    CHECK_EQ_INT(ready, ABT_FALSE);
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(w.pools[1], waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    long x = 42, big[4] = { 0 };
    CHECK_ERR(ABT_eventual_set(ev, big, (int)sizeof(big)), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_set(ev, &x, -1), ABT_ERR_INV_ARG);
    CHECK_ABT(ABT_eventual_set(ev, &x, (int)sizeof(x)));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&seen), 42);
    CHECK_ERR(ABT_eventual_set(ev, &x, (int)sizeof(x)), ABT_ERR_EVENTUAL);
    v = NULL;
    CHECK_ABT(ABT_eventual_test(ev, &v, &ready));
    CHECK_EQ_INT(ready, ABT_TRUE);
    CHECK_EQ_INT(*(long *)v, 42);
    CHECK_ABT(ABT_eventual_wait(ev, &v));
    CHECK_EQ_INT(*(long *)v, 42);
    CHECK_ABT(ABT_eventual_test(ev, NULL, &ready)); /* value may be NULL */

    /* reset: unready again, may be set again with a smaller value */
    CHECK_ABT(ABT_eventual_reset(ev));
    CHECK_ABT(ABT_eventual_test(ev, &v, &ready));
    CHECK_EQ_INT(ready, ABT_FALSE);
    CHECK_ABT(ABT_thread_create(w.pools[1], waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    x = 7;
    CHECK_ABT(ABT_eventual_set(ev, &x, (int)sizeof(x)));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&seen), 7);

    /* tasklet */
    CHECK_ABT(ABT_eventual_reset(ev));
    ABT_task k;
    CHECK_ABT(ABT_task_create(w.pools[1], task, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(atomic_load(&task_ret), ABT_ERR_EVENTUAL);
    CHECK_ABT(ABT_eventual_free(&ev));
    CHECK(ev == ABT_EVENTUAL_NULL);

    /* no buffer */
    CHECK_ABT(ABT_eventual_create(0, &ev));
    CHECK_ERR(ABT_eventual_set(ev, &x, (int)sizeof(x)), ABT_ERR_INV_EVENTUAL);
    CHECK_ABT(ABT_eventual_set(ev, NULL, 0));
    v = &x;
    CHECK_ABT(ABT_eventual_wait(ev, &v));
    CHECK(v == NULL);
    CHECK_ABT(ABT_eventual_free(&ev));

    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
