/* free_runs_fresh: ABT_thread_free and ABT_task_free of units that never ran (no join
 * first).  The free runs each unit exactly once, in creation order, as a running unit of
 * its kind (it sees itself RUNNING, a ULT or a tasklet, on the caller's stream); a key it
 * set has its destructor run; the handle becomes ABT_THREAD_NULL / ABT_TASK_NULL and a
 * copy of it is rejected afterwards; the recycled descriptors give fresh units that start
 * READY.  A unit that yields or blocks while its free runs it still completes.
 * So under every technique (WEFT_FORK): an SS or SC target too runs in the free, as RoC
 * or on the caller's stack, not through the scheduler's loop (which would run what else
 * is ready as well). */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define N 64

static int order[2 * N], norder;
static int bad_state, bad_type, bad_xs, dtor_calls;
static ABT_key key;
static ABT_xstream xs0;

static void dtor(void *v) { dtor_calls += (int)(intptr_t)v; }

static void body(void *arg)
{
    int id = (int)(intptr_t)arg;
    order[norder++] = id;
    ABT_thread self;
    ABT_thread_state st;
    if (ABT_self_get_thread(&self) != ABT_SUCCESS ||
        ABT_thread_get_state(self, &st) != ABT_SUCCESS || st != ABT_THREAD_STATE_RUNNING)
        bad_state++;
    ABT_unit_type type;
    ABT_self_get_type(&type);
    if (type != (id % 2 ? ABT_UNIT_TYPE_TASK : ABT_UNIT_TYPE_THREAD))
        bad_type++;
    ABT_xstream xs;
    if (ABT_self_get_xstream(&xs) != ABT_SUCCESS || xs != xs0)
        bad_xs++;
    if (id % 4 < 2)
        CHECK_ABT(ABT_key_set(key, (void *)(intptr_t)1));
}

static void yielder(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_thread_yield());
    order[norder++] = -1;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool pool0;
    CHECK_ABT(ABT_xstream_self(&xs0));
    CHECK_ABT(ABT_xstream_get_main_pools(xs0, 1, &pool0));
    CHECK_ABT(ABT_key_create(dtor, &key));

    for (int round = 0; round < 3; round++) {
        ABT_thread h[2 * N], copy[2 * N];
        norder = 0;
        dtor_calls = 0;
        for (int i = 0; i < 2 * N; i++) {
            void *arg = (void *)(intptr_t)i;
            if (i % 2)
                CHECK_ABT(ABT_task_create(pool0, body, arg, &h[i]));
            else
                CHECK_ABT(ABT_thread_create(pool0, body, arg, ABT_THREAD_ATTR_NULL, &h[i]));
            ABT_thread_state st;
            CHECK_ABT(ABT_thread_get_state(h[i], &st));
            CHECK_EQ_INT(st, ABT_THREAD_STATE_READY);
            copy[i] = h[i];
        }
        CHECK_EQ_INT(norder, 0);
        for (int i = 0; i < 2 * N; i++) {
            if (i % 2) {
                CHECK_ABT(ABT_task_free(&h[i]));
                CHECK(h[i] == ABT_TASK_NULL);
                CHECK_ERR(ABT_task_free(&copy[i]), ABT_ERR_INV_TASK);
            } else {
                CHECK_ABT(ABT_thread_free(&h[i]));
                CHECK(h[i] == ABT_THREAD_NULL);
                CHECK_ERR(ABT_thread_free(&copy[i]), ABT_ERR_INV_THREAD);
            }
            CHECK_EQ_INT(norder, i + 1); /* the free ran it, and only it */
        }
        for (int i = 0; i < 2 * N; i++)
            CHECK_EQ_INT(order[i], i);
        CHECK_EQ_INT(dtor_calls, N); /* ids 0 and 1 of every 4 set the key */
        CHECK_EQ_INT(bad_state, 0);
        CHECK_EQ_INT(bad_type, 0);
        CHECK_EQ_INT(bad_xs, 0);
    }

    /* a ULT that deviates while its free runs it */
    ABT_thread y;
    norder = 0;
    CHECK_ABT(ABT_thread_create(pool0, yielder, NULL, ABT_THREAD_ATTR_NULL, &y));
    CHECK_ABT(ABT_thread_free(&y));
    CHECK(y == ABT_THREAD_NULL);
    CHECK_EQ_INT(norder, 1);
    CHECK_EQ_INT(order[0], -1);

    CHECK_ABT(ABT_key_free(&key));
    CHECK_ABT(ABT_finalize());
    return 0;
}
