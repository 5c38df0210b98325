/* glt_two_tu_b: the second translation unit of glt_two_tu (see glt_two_tu_a.c). */
#include "glt_test.h"

static void inc(void *arg) { __atomic_fetch_add((int *)arg, 1, __ATOMIC_RELAXED); }

glt_team_t *two_tu_b_team(void) { return main_team; }

/* one ULT per thread, created from this unit; returns how many ran */
int two_tu_b_work(void)
{
    int n = glt_get_num_threads(), x = 0;
    GLT_ult u[64];
    for (int i = 0; i < n && i < 64; i++)
        CHECK_ABT(glt_ult_create_to(inc, &x, &u[i], i));
    for (int i = 0; i < n && i < 64; i++)
        CHECK_ABT(glt_ult_free(&u[i]));
    GLT_ult h;
    CHECK_ABT(glt_ult_create(inc, &x, &h)); /* the cache filled by the other unit */
    CHECK_ABT(glt_ult_free(&h));
    return x - 1;
}
