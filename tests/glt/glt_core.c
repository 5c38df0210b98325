/* glt_core: a program compiled with -DCORE (core modules only, both builds): the
 * extended part is not declared (checked at compile time) and the capability queries
 * answer 0; the core modules work. */
#include "glt_test.h"

#ifndef CORE
#error "glt_core is compiled with -DCORE"
#endif
#if defined(GLT_future) || defined(GLT_sched_def) || defined(GLT_SCHED_BASIC)
#error "-DCORE must leave the extended types out"
#endif

static void inc(void *arg) { __atomic_fetch_add((int *)arg, 1, __ATOMIC_RELAXED); }

int main(int argc, char **argv)
{
    CHECK_EQ_INT(glt_can_event_functions(), 0);
    CHECK_EQ_INT(glt_can_future_functions(), 0);
    CHECK_EQ_INT(glt_can_manage_scheduler(), 0);
    CHECK_EQ_INT(glt_can_malleability(), 0);
    CHECK_ABT(glt_init(argc, argv));
    int n = glt_get_num_threads(), x = 0;
    GLT_ult u[8];
    GLT_mutex m;
    CHECK_ABT(glt_mutex_create(&m));
    for (int i = 0; i < 8; i++)
        CHECK_ABT(glt_ult_create_to(inc, &x, &u[i], i % n));
    for (int i = 0; i < 8; i++) {
        CHECK_ABT(glt_ult_join(&u[i]));
        CHECK_ABT(glt_ult_free(&u[i]));
    }
    CHECK_ABT(glt_mutex_free(&m));
    CHECK_EQ_INT(x, 8);
    CHECK_ABT(glt_finalize());
    printf("glt_core (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
