/* pool_create_basic: ABT_pool_create_basic succeeds for every predefined kind
 * (FIFO, FIFO_WAIT, RANDWS) in every access mode (PRIV, SPSC, MPSC, SPMC,
 * MPMC) and automatic TRUE/FALSE; the new pool reports its access mode, is
 * empty (size/total size 0, is_empty TRUE, pops return the NULL handles) and
 * ABT_pool_free sets the handle to ABT_POOL_NULL. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_pool_kind kinds[] = { ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT, ABT_POOL_RANDWS };
    ABT_pool_access accs[] = { ABT_POOL_ACCESS_PRIV, ABT_POOL_ACCESS_SPSC, ABT_POOL_ACCESS_MPSC,
                               ABT_POOL_ACCESS_SPMC, ABT_POOL_ACCESS_MPMC };
    for (int k = 0; k < 3; k++) {
        for (int a = 0; a < 5; a++) {
            for (int automatic = 0; automatic < 2; automatic++) {
                ABT_pool pool = ABT_POOL_NULL;
                CHECK_ABT(ABT_pool_create_basic(kinds[k], accs[a], automatic ? ABT_TRUE : ABT_FALSE,
                                                &pool));
                CHECK(pool != ABT_POOL_NULL);
                ABT_pool_access acc = (ABT_pool_access)-1;
                CHECK_ABT(ABT_pool_get_access(pool, &acc));
                CHECK_EQ_INT(acc, accs[a]);
                size_t sz = 7, tsz = 7;
                CHECK_ABT(ABT_pool_get_size(pool, &sz));
                CHECK_ABT(ABT_pool_get_total_size(pool, &tsz));
                CHECK_EQ_INT(sz, 0);
                CHECK_EQ_INT(tsz, 0);
                ABT_bool empty = ABT_FALSE;
                CHECK_ABT(ABT_pool_is_empty(pool, &empty));
                CHECK_EQ_INT(empty, ABT_TRUE);
                ABT_thread t = (ABT_thread)&t;
                CHECK_ABT(ABT_pool_pop_thread(pool, &t));
                CHECK(t == ABT_THREAD_NULL);
                ABT_unit u = (ABT_unit)&u;
                CHECK_ABT(ABT_pool_pop(pool, &u));
                CHECK(u == ABT_UNIT_NULL);
                /* Never attached to a scheduler: the user frees it either way. */
                CHECK_ABT(ABT_pool_free(&pool));
                CHECK(pool == ABT_POOL_NULL);
            }
        }
    }

    CHECK_ABT(ABT_finalize());
    return 0;
}
