/* thread_yield_pingpong: two ULTs on one execution stream (FIFO pool) that each
 * record their id and call ABT_thread_yield N times strictly alternate: A B A B ...
 * The same holds with ABT_self_yield. */
#include "test.h"
#include <stdatomic.h>

#define N 1000
static int seq[2 * N + 8];
static atomic_int pos;
static int use_self_yield;

static void player(void *arg)
{
    int me = (int)(intptr_t)arg;
    for (int i = 0; i < N; i++) {
        seq[atomic_fetch_add(&pos, 1)] = me;
        if (use_self_yield)
            CHECK_ABT(ABT_self_yield());
        else
            CHECK_ABT(ABT_thread_yield());
    }
}

static void run_round(ABT_pool pool)
{
    atomic_store(&pos, 0);
    ABT_thread a, b;
    CHECK_ABT(ABT_thread_create(pool, player, (void *)1, ABT_THREAD_ATTR_NULL, &a));
    CHECK_ABT(ABT_thread_create(pool, player, (void *)2, ABT_THREAD_ATTR_NULL, &b));
    CHECK_ABT(ABT_thread_free(&a));
    CHECK_ABT(ABT_thread_free(&b));
    CHECK_EQ_INT(atomic_load(&pos), 2 * N);
    CHECK_EQ_INT(seq[0], 1);
    int alternations = 0;
    for (int i = 1; i < 2 * N; i++)
        if (seq[i] != seq[i - 1])
            alternations++;
    CHECK_EQ_INT(alternations, 2 * N - 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    run_round(pool);
    use_self_yield = 1;
    run_round(pool);
    CHECK_ABT(ABT_finalize());
    return 0;
}
