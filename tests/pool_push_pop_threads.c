/* pool_push_pop_threads: ABT_pool_pop_threads pops at most len ULTs in FIFO
 * order and reports how many (without padding the output array; 0 from an
 * empty pool); ABT_pool_push_threads pushes an array in order and skips
 * ABT_THREAD_NULL entries. */
#include "test.h"
#include <stdatomic.h>

enum { N = 5 };
static atomic_int ran;
static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream primary;
    ABT_pool ppool;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));

    ABT_pool_kind kinds[] = { ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT };
    for (int k = 0; k < 2; k++) {
        ABT_pool pool;
        CHECK_ABT(ABT_pool_create_basic(kinds[k], ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
        ABT_thread ts[N];
        for (int i = 0; i < N; i++)
            CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));

        ABT_thread sentinel = (ABT_thread)&sentinel;
        ABT_thread out[N + 2];
        for (int i = 0; i < N + 2; i++)
            out[i] = sentinel;
        size_t num = 99;
        CHECK_ABT(ABT_pool_pop_threads(pool, out, 3, &num));
        CHECK_EQ_INT(num, 3);
        CHECK(out[0] == ts[0] && out[1] == ts[1] && out[2] == ts[2]);
        CHECK(out[3] == sentinel);
        CHECK_ABT(ABT_pool_pop_threads(pool, out + 3, 4, &num));
        CHECK_EQ_INT(num, 2);
        CHECK(out[3] == ts[3] && out[4] == ts[4]);
        CHECK(out[5] == sentinel && out[6] == sentinel);
        CHECK_ABT(ABT_pool_pop_threads(pool, out + 5, 2, &num));
        CHECK_EQ_INT(num, 0);
        CHECK(out[5] == sentinel);

        /* Push back reversed with NULL holes. */
        ABT_thread in[N + 2] = {
            ts[4], ABT_THREAD_NULL, ts[3], ts[2], ts[1], ABT_THREAD_NULL, ts[0]
        };
        CHECK_ABT(ABT_pool_push_threads(pool, in, N + 2));
        size_t sz = 0;
        CHECK_ABT(ABT_pool_get_size(pool, &sz));
        CHECK_EQ_INT(sz, N);
        for (int i = 0; i < N; i++) {
            ABT_thread t = ABT_THREAD_NULL;
            CHECK_ABT(ABT_pool_pop_thread(pool, &t));
            CHECK(t == ts[N - 1 - i]);
        }
        CHECK_ABT(ABT_pool_push_threads(pool, in, 0));
        CHECK_ABT(ABT_pool_get_size(pool, &sz));
        CHECK_EQ_INT(sz, 0);

        atomic_store(&ran, 0);
        CHECK_ABT(ABT_pool_push_threads(ppool, ts, N));
        for (int i = 0; i < N; i++)
            CHECK_ABT(ABT_thread_free(&ts[i]));
        CHECK_EQ_INT(atomic_load(&ran), N);
        CHECK_ABT(ABT_pool_free(&pool));
    }

    CHECK_ABT(ABT_finalize());
    return 0;
}
