/* xstream_null_handle: every execution-stream routine taking an ABT_xstream
 * returns ABT_ERR_INV_XSTREAM for ABT_XSTREAM_NULL (ABT_xstream_free: for a
 * pointer to ABT_XSTREAM_NULL), without touching outputs. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream n = ABT_XSTREAM_NULL;
    int rank = -9;
    ABT_sched sched = (ABT_sched)&sched;
    ABT_pool pool = (ABT_pool)&pool;
    ABT_xstream_state state = (ABT_xstream_state)77;
    ABT_bool b = (ABT_bool)77;

    CHECK_ERR(ABT_xstream_join(ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_free(&n), ABT_ERR_INV_XSTREAM);
    CHECK(n == ABT_XSTREAM_NULL);
    CHECK_ERR(ABT_xstream_revive(ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_cancel(ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_set_rank(ABT_XSTREAM_NULL, 4), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_get_rank(ABT_XSTREAM_NULL, &rank), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(rank, -9);
    CHECK_ERR(ABT_xstream_get_main_sched(ABT_XSTREAM_NULL, &sched), ABT_ERR_INV_XSTREAM);
    CHECK(sched == (ABT_sched)&sched);
    CHECK_ERR(ABT_xstream_get_main_pools(ABT_XSTREAM_NULL, 1, &pool), ABT_ERR_INV_XSTREAM);
    CHECK(pool == (ABT_pool)&pool);
    CHECK_ERR(ABT_xstream_get_state(ABT_XSTREAM_NULL, &state), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(state, 77);
    CHECK_ERR(ABT_xstream_is_primary(ABT_XSTREAM_NULL, &b), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(b, 77);
    CHECK_ERR(ABT_xstream_set_main_sched(ABT_XSTREAM_NULL, ABT_SCHED_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_set_main_sched_basic(ABT_XSTREAM_NULL, ABT_SCHED_BASIC, 0, NULL),
              ABT_ERR_INV_XSTREAM);

    CHECK_ABT(ABT_finalize());
    return 0;
}
