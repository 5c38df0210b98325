/* eventual_value_sizes: ABT_eventual_set copies exactly `nbytes` bytes of the value for
 * every size (1 to 24, the scalar sizes included), leaves the bytes past them as they
 * were, refuses a value larger than the buffer (ABT_ERR_INV_EVENTUAL) and a second set
 * (ABT_ERR_EVENTUAL); waiting on the ready eventual returns its buffer, and a tasklet's
 * wait is refused with ABT_ERR_EVENTUAL even when the eventual is ready (1.x). The same
 * for a ready future: a tasklet's ABT_future_wait is ABT_ERR_FUTURE.  A future without a
 * callback is ready after its last set; one with no compartment stays ready after reset. */
#include "sync_test.h"

#include <string.h>

static ABT_eventual tev;
static ABT_future tfut;
static atomic_int task_ev_ret, task_fut_ret;

static void task(void *arg)
{
    (void)arg;
    void *v = NULL;
    atomic_store(&task_ev_ret, ABT_eventual_wait(tev, &v));
    atomic_store(&task_fut_ret, ABT_future_wait(tfut));
}

static void check_size(int cap)
{
    ABT_eventual ev;
    CHECK_ABT(ABT_eventual_create(cap, &ev));
    unsigned char fill[32], val[32];
    for (int n = 1; n <= cap; n++) {
        memset(fill, 0xA5, sizeof fill);
        for (int i = 0; i < n; i++)
            val[i] = (unsigned char)(n * 7 + i + 1);
        /* first the whole buffer with the fill pattern, then n bytes of the value */
        CHECK_ABT(ABT_eventual_set(ev, fill, cap));
        CHECK_ABT(ABT_eventual_reset(ev));
        CHECK_ABT(ABT_eventual_set(ev, val, n));
        CHECK_ERR(ABT_eventual_set(ev, val, n), ABT_ERR_EVENTUAL);
        void *out = NULL;
        CHECK_ABT(ABT_eventual_wait(ev, &out));
        CHECK(out != NULL);
        if (memcmp(out, val, (size_t)n) != 0)
            TEST_FAIL("size %d of %d: the value differs", n, cap);
        if (memcmp((unsigned char *)out + n, fill, (size_t)(cap - n)) != 0)
            TEST_FAIL("size %d of %d: bytes past the value changed", n, cap);
        CHECK_ABT(ABT_eventual_reset(ev));
    }
    CHECK_ERR(ABT_eventual_set(ev, val, cap + 1), ABT_ERR_INV_EVENTUAL);
    CHECK_ABT(ABT_eventual_free(&ev));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    for (int cap = 1; cap <= 24; cap++)
        check_size(cap);

    /* a tasklet waits on a ready eventual and a ready future */
    long v = 42;
    CHECK_ABT(ABT_eventual_create((int)sizeof v, &tev));
    CHECK_ABT(ABT_eventual_set(tev, &v, (int)sizeof v));
    CHECK_ABT(ABT_future_create(2, NULL, &tfut));
    CHECK_ABT(ABT_future_set(tfut, NULL));
    ABT_bool ready = ABT_TRUE;
    CHECK_ABT(ABT_future_test(tfut, &ready));
    CHECK(ready == ABT_FALSE);
    CHECK_ABT(ABT_future_set(tfut, &v));
    CHECK_ABT(ABT_future_test(tfut, &ready));
    CHECK(ready == ABT_TRUE); /* no callback: ready after the last set */
    CHECK_ERR(ABT_future_set(tfut, NULL), ABT_ERR_FUTURE);
    ABT_pool pool;
    ABT_xstream self;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pool));
    ABT_task t;
    CHECK_ABT(ABT_task_create(pool, task, NULL, &t));
    CHECK_ABT(ABT_task_free(&t));
    CHECK_EQ_INT(atomic_load(&task_ev_ret), ABT_ERR_EVENTUAL);
    CHECK_EQ_INT(atomic_load(&task_fut_ret), ABT_ERR_FUTURE);
    CHECK_ABT(ABT_future_reset(tfut));
    CHECK_ABT(ABT_future_test(tfut, &ready));
    CHECK(ready == ABT_FALSE);
    CHECK_ABT(ABT_future_free(&tfut));
    CHECK_ABT(ABT_eventual_free(&tev));

    /* no compartment: ready from the start and after reset; a set is refused */
    ABT_future f0;
    CHECK_ABT(ABT_future_create(0, NULL, &f0));
    CHECK_ABT(ABT_future_wait(f0));
    CHECK_ABT(ABT_future_reset(f0));
    CHECK_ABT(ABT_future_test(f0, &ready));
    CHECK(ready == ABT_TRUE);
    CHECK_ABT(ABT_future_wait(f0));
    CHECK_ERR(ABT_future_set(f0, NULL), ABT_ERR_FUTURE);
    CHECK_ABT(ABT_future_free(&f0));
    CHECK_ABT(ABT_finalize());
    return 0;
}
