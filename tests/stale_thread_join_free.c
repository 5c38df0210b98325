/* stale_thread_join_free: a copy of a ULT handle kept after ABT_thread_free is refused by
 * ABT_thread_join and ABT_thread_free (ABT_ERR_INV_THREAD, no hang, no double free), while
 * its descriptor sits free in weft's cache; the runtime keeps working afterwards (the
 * refused free did not put the descriptor in the cache twice: two new ULTs created after
 * it get two different descriptors and both run). */
#include "stale_test.h"

static int ran;
static void body(void *arg) { (*(int *)arg)++; }

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread t, stale;
    CHECK_ABT(ABT_thread_create(pool, body, &ran, ABT_THREAD_ATTR_NULL, &t));
    stale = t;
    CHECK_ABT(ABT_thread_free(&t));
    CHECK(t == ABT_THREAD_NULL);
    CHECK_EQ_INT(ran, 1);

    STALE_STEP("join of a freed ULT");
    CHECK_ERR(ABT_thread_join(stale), ABT_ERR_INV_THREAD);
    STALE_STEP("free of a freed ULT");
    ABT_thread copy = stale;
    CHECK_ERR(ABT_thread_free(&copy), ABT_ERR_INV_THREAD);
    CHECK(copy == stale); /* an error leaves the handle as it was */
    CHECK_ERR(ABT_thread_join_many(1, &copy), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_free_many(1, &copy), ABT_ERR_INV_THREAD);

    /* the descriptor is in the cache once: two live ULTs at a time are distinct */
    STALE_STEP("two new ULTs");
    ABT_thread a, b;
    int ra = 0, rb = 0;
    CHECK_ABT(ABT_thread_create(pool, body, &ra, ABT_THREAD_ATTR_NULL, &a));
    CHECK_ABT(ABT_thread_create(pool, body, &rb, ABT_THREAD_ATTR_NULL, &b));
    ABT_bool eq;
    CHECK_ABT(ABT_thread_equal(a, b, &eq));
    CHECK(eq == ABT_FALSE);
    CHECK_ABT(ABT_thread_join(a));
    CHECK_ABT(ABT_thread_join(b));
    CHECK_EQ_INT(ra, 1);
    CHECK_EQ_INT(rb, 1);
    CHECK_ABT(ABT_thread_free(&a));
    CHECK_ABT(ABT_thread_free(&b));
    CHECK_ERR(ABT_thread_join(stale), ABT_ERR_INV_THREAD);

    CHECK_ABT(ABT_finalize());
    return 0;
}
