/* self_get_xstream: ABT_self_get_xstream / ABT_self_get_xstream_rank return the
 * calling execution stream: the primary xstream (rank 0) in main and in ULTs /
 * tasklets of its pool; the second xstream (its rank) in work units running there.
 * From an external thread both return ABT_ERR_INV_XSTREAM. */
#include "test.h"
#include <pthread.h>

struct seen {
    ABT_xstream xs;
    int rank;
};
static struct seen s[4];

static void func(void *arg)
{
    struct seen *p = (struct seen *)arg;
    CHECK_ABT(ABT_self_get_xstream(&p->xs));
    CHECK_ABT(ABT_self_get_xstream_rank(&p->rank));
}

static void *ext(void *arg)
{
    (void)arg;
    ABT_xstream x;
    int r;
    CHECK_ERR(ABT_self_get_xstream(&x), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_get_xstream_rank(&r), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2, me;
    ABT_pool pool, pool2;
    int rank;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK(me == xs);
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    CHECK_EQ_INT(rank, 0);

    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));
    int rank2;
    CHECK_ABT(ABT_xstream_get_rank(xs2, &rank2));
    CHECK(rank2 != 0);

    ABT_thread t0, t2;
    ABT_task k0, k2;
    CHECK_ABT(ABT_thread_create(pool, func, &s[0], ABT_THREAD_ATTR_NULL, &t0));
    CHECK_ABT(ABT_task_create(pool, func, &s[1], &k0));
    CHECK_ABT(ABT_thread_create(pool2, func, &s[2], ABT_THREAD_ATTR_NULL, &t2));
    CHECK_ABT(ABT_task_create(pool2, func, &s[3], &k2));
    CHECK_ABT(ABT_thread_free(&t0));
    CHECK_ABT(ABT_task_free(&k0));
    CHECK_ABT(ABT_thread_free(&t2));
    CHECK_ABT(ABT_task_free(&k2));
    CHECK(s[0].xs == xs && s[0].rank == 0);
    CHECK(s[1].xs == xs && s[1].rank == 0);
    CHECK(s[2].xs == xs2 && s[2].rank == rank2);
    CHECK(s[3].xs == xs2 && s[3].rank == rank2);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
