/* stale_recycled_descriptor: a handle kept after its ULT was freed is refused even when a
 * new ULT uses the same descriptor (weft's caches are LIFO, so create-after-free reuses
 * it): the old handle gets ABT_ERR_INV_THREAD from join, free, cancel and get_state while
 * the new handle works; over many generations of one descriptor every old handle stays
 * refused and the live one accepted.  Also for a tasklet reusing a ULT's descriptor. */
#include "stale_test.h"

#include <stdlib.h>

static void body(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread old, t;
    CHECK_ABT(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &old));
    ABT_thread stale = old;
    CHECK_ABT(ABT_thread_free(&old));
    /* not started yet: the new ULT is READY, the stale handle must not reach it */
    CHECK_ABT(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st;
    STALE_STEP("stale handle while its descriptor is in use");
    CHECK_ERR(ABT_thread_get_state(stale, &st), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_cancel(stale), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_join(stale), ABT_ERR_INV_THREAD);
    ABT_thread copy = stale;
    CHECK_ERR(ABT_thread_free(&copy), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_thread_get_state(t, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_READY); /* the cancel did not reach it */
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_get_state(t, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_free(&t));

    /* many generations: create/free in a loop, keep every handle */
    int n = 2000 / test_scale_div();
    ABT_thread *hs = calloc((size_t)n, sizeof(*hs));
    CHECK(hs != NULL);
    STALE_STEP("generations");
    for (int i = 0; i < n; i++) {
        ABT_thread h;
        CHECK_ABT(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &h));
        hs[i] = h;
        CHECK_ABT(ABT_thread_free(&h));
    }
    ABT_thread live;
    CHECK_ABT(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &live));
    for (int i = 0; i < n; i++) {
        CHECK_ERR(ABT_thread_get_state(hs[i], &st), ABT_ERR_INV_THREAD);
        CHECK_ERR(ABT_thread_join(hs[i]), ABT_ERR_INV_THREAD);
    }
    CHECK_ABT(ABT_thread_join(live));
    CHECK_ABT(ABT_thread_free(&live));
    free(hs);

    /* a tasklet on a ULT's old descriptor, and the other way round */
    ABT_task task;
    CHECK_ABT(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &old));
    stale = old;
    CHECK_ABT(ABT_thread_free(&old));
    CHECK_ABT(ABT_task_create(pool, body, NULL, &task));
    CHECK_ERR(ABT_thread_join(stale), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_task_join(stale), ABT_ERR_INV_TASK);
    ABT_task stale_task = task;
    CHECK_ABT(ABT_task_free(&task));
    CHECK_ABT(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ERR(ABT_task_free(&stale_task), ABT_ERR_INV_TASK);
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_finalize());
    return 0;
}
