/* glt_two_tu: two translation units include GLT (this one and glt_two_tu_b.c) and the
 * program links (the original fast_glt.h defined main_team in every unit: multiple
 * definitions with -fno-common) and shares one state: a team made in one unit is seen
 * by the other, and the per-thread pool cache filled by one is used by both. */
#include "glt_test.h"

int two_tu_b_work(void); /* glt_two_tu_b.c */
glt_team_t *two_tu_b_team(void);

static void inc(void *arg) { (*(int *)arg)++; }

int main(int argc, char **argv)
{
    CHECK(two_tu_b_team() == NULL);
    CHECK_ABT(glt_init(argc, argv));
    CHECK(two_tu_b_team() == glt_get_team());
    int x = 0;
    GLT_ult u;
    CHECK_ABT(glt_ult_create(inc, &x, &u));
    CHECK_ABT(glt_ult_free(&u));
    CHECK_EQ_INT(two_tu_b_work(), glt_get_num_threads());
    CHECK_EQ_INT(x, 1);
    CHECK_ABT(glt_finalize());
    CHECK(two_tu_b_team() == NULL);
    printf("glt_two_tu (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
