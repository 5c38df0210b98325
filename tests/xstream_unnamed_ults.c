/* xstream_unnamed_ults: ULTs created with a NULL output handle are unnamed:
 * they run on the target stream (ABT_self_is_unnamed reports ABT_TRUE inside
 * them) and are released automatically without ABT_thread_free; joining the
 * stream lets all queued unnamed ULTs finish first and leaves its pool
 * empty. */
#include "test.h"
#include <stdatomic.h>

enum { N = 16 };
static atomic_int ran, unnamed;

static void work(void *arg)
{
    (void)arg;
    ABT_bool b = ABT_FALSE;
    if (ABT_self_is_unnamed(&b) == ABT_SUCCESS && b == ABT_TRUE)
        atomic_fetch_add(&unnamed, 1);
    atomic_fetch_add(&ran, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_pool pool;
    ABT_xstream xs;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &xs));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_ABT(ABT_xstream_join(xs));
    CHECK_EQ_INT(atomic_load(&ran), N);
    CHECK_EQ_INT(atomic_load(&unnamed), N);
    size_t sz = 9, tsz = 9;
    CHECK_ABT(ABT_pool_get_size(pool, &sz));
    CHECK_ABT(ABT_pool_get_total_size(pool, &tsz));
    CHECK_EQ_INT(sz, 0);
    CHECK_EQ_INT(tsz, 0);
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_pool_free(&pool));

    CHECK_ABT(ABT_finalize());
    return 0;
}
