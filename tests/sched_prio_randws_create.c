/* sched_prio_randws_create: ABT_SCHED_PRIO and ABT_SCHED_RANDWS are accepted by
 * ABT_sched_create_basic and ABT_xstream_create_basic.  Without a pool list PRIO makes
 * three pools and RANDWS one (distinct, MPMC, automatic: freed with the scheduler); with
 * a list they use it in order, ABT_POOL_NULL entries replaced by new pools.  A stream
 * made by ABT_xstream_create_basic(ABT_SCHED_PRIO, 0, NULL, ...) runs ULTs pushed into
 * any of its three main pools. */
#include "test.h"

static int ran;
static void ult(void *arg) { ran++; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_sched_predef predefs[] = { ABT_SCHED_PRIO, ABT_SCHED_RANDWS };
    int want[] = { 3, 1 };
    for (int k = 0; k < 2; k++) {
        ABT_sched s;
        int n;
        CHECK_ABT(ABT_sched_create_basic(predefs[k], 0, NULL, ABT_SCHED_CONFIG_NULL, &s));
        CHECK_ABT(ABT_sched_get_num_pools(s, &n));
        CHECK_EQ_INT(n, want[k]);
        ABT_pool ps[3];
        CHECK_ABT(ABT_sched_get_pools(s, n, 0, ps));
        for (int i = 0; i < n; i++) {
            ABT_pool_access acc;
            CHECK(ps[i] != ABT_POOL_NULL);
            CHECK_ABT(ABT_pool_get_access(ps[i], &acc));
            CHECK_EQ_INT(acc, ABT_POOL_ACCESS_MPMC);
            for (int j = 0; j < i; j++)
                CHECK(ps[i] != ps[j]);
        }
        CHECK_ABT(ABT_sched_free(&s));

        ABT_pool mine;
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_RANDWS, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &mine));
        ABT_pool list[2] = { ABT_POOL_NULL, mine };
        CHECK_ABT(ABT_sched_create_basic(predefs[k], 2, list, ABT_SCHED_CONFIG_NULL, &s));
        CHECK_ABT(ABT_sched_get_num_pools(s, &n));
        CHECK_EQ_INT(n, 2);
        CHECK_ABT(ABT_sched_get_pools(s, 2, 0, ps));
        CHECK(ps[0] != ABT_POOL_NULL && ps[0] != mine && ps[1] == mine);
        CHECK_ABT(ABT_sched_free(&s));
        CHECK_ABT(ABT_pool_free(&mine));
    }

    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_PRIO, 0, NULL, ABT_SCHED_CONFIG_NULL, &xs));
    ABT_pool ps[3];
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 3, ps));
    ABT_thread ts[3];
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_thread_create(ps[i], ult, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_thread_free(&ts[i]));
    CHECK_EQ_INT(ran, 3);
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    return 0;
}
