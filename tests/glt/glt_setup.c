/* glt_setup: glt_init/glt_finalize in the GLT layout (GLT_NUM_THREADS=3 from ctest): the
 * team and its fields, thread ranks of ULTs placed with glt_ult_create_to, the load hooks,
 * glt_get_team/main_team, and a second init/finalize cycle; errors before init and of a
 * second glt_init. */
#include "glt_test.h"

static void where(void *arg) { *(int *)arg = glt_get_thread_num(); }

int main(int argc, char **argv)
{
    glt_start(); /* the library's hooks are callable (they do nothing) */
    glt_end();
    CHECK(glt_get_team() == NULL);
    CHECK(main_team == NULL);
    CHECK_EQ_INT(glt_get_num_threads(), -ABT_ERR_UNINITIALIZED);
    CHECK_ERR(glt_finalize(), ABT_ERR_UNINITIALIZED);
    GLT_ult u = ABT_THREAD_NULL;
    int x = 0;
    CHECK_ERR(glt_ult_create(where, &x, &u), ABT_ERR_UNINITIALIZED);
    CHECK(u == ABT_THREAD_NULL);
    CHECK_ERR(glt_ult_create_to(where, &x, &u, 0), ABT_ERR_UNINITIALIZED);

    for (int cycle = 0; cycle < 2; cycle++) {
        CHECK_ABT(glt_init(argc, argv));
        CHECK_ERR(glt_init(argc, argv), ABT_ERR_OTHER);
        int n = glt_get_num_threads();
        CHECK_EQ_INT(n, 3);
        glt_team_t *t = glt_get_team();
        CHECK(t != NULL && t == main_team);
        CHECK_EQ_INT(t->num_xstreams, 3);
        CHECK_EQ_INT(t->num_pools, 3);
        CHECK_EQ_INT(t->glto, 0);
        CHECK(t->spools == NULL);
        ABT_xstream self;
        CHECK_ABT(ABT_xstream_self(&self));
        CHECK(t->master == self && t->team[0] == self);
        for (int i = 0; i < n; i++) {
            int rank = -1;
            CHECK_ABT(ABT_xstream_get_rank(t->team[i], &rank));
            CHECK_EQ_INT(rank, i);
            ABT_pool p;
            CHECK_ABT(ABT_xstream_get_main_pools(t->team[i], 1, &p));
            CHECK(p == t->pools[i]);
        }
        CHECK_EQ_INT(glt_get_thread_num(), 0);
        int ranks[3] = { -1, -1, -1 };
        GLT_ult h[3];
        for (int i = 0; i < n; i++)
            CHECK_ABT(glt_ult_create_to(where, &ranks[i], &h[i], i));
        for (int i = 0; i < n; i++) {
            CHECK_ABT(glt_ult_join(&h[i]));
            CHECK_ABT(glt_ult_free(&h[i]));
            CHECK(h[i] == ABT_THREAD_NULL);
            CHECK_EQ_INT(ranks[i], i); /* one pool per thread: the ULT ran on thread i */
        }
        CHECK_ABT(glt_finalize());
        CHECK(glt_get_team() == NULL && main_team == NULL);
        CHECK_EQ_INT(glt_get_num_threads(), -ABT_ERR_UNINITIALIZED);
    }
    printf("glt_setup (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
