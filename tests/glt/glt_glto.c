/* glt_glto: the GLTO layout (GLTO_NUM_THREADS=3 from ctest, which also sets
 * GLT_NUM_THREADS=1 to show that GLTO wins): per thread a private pool first and the
 * shared pools after it, RANDWS schedulers; glt_ult_create_to(dest) runs on dest (private
 * pool), glt_ult_create goes to the caller's shared pool and may be stolen, every unit
 * runs; tasklets too. */
#include "glt_test.h"

static void where(void *arg) { *(int *)arg = glt_get_thread_num(); }

static int done_count;
static void count(void *arg) { __atomic_fetch_add(&done_count, 1, __ATOMIC_RELAXED); }

int main(int argc, char **argv)
{
    CHECK_ABT(glt_init(argc, argv));
    glt_team_t *t = glt_get_team();
    int n = glt_get_num_threads();
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(t->glto, 1);
    CHECK(t->spools != NULL);
    for (int i = 0; i < n; i++) {
        ABT_pool p[4];
        CHECK_ABT(ABT_xstream_get_main_pools(t->team[i], 4, p));
        CHECK(p[0] == t->pools[i]);
        for (int k = 0; k < n; k++)
            CHECK(p[1 + k] == t->spools[(i + k) % n]);
    }
    enum { N = 30 };
    int rank[N];
    GLT_ult h[N];
    for (int i = 0; i < N; i++)
        CHECK_ABT(glt_ult_create_to(where, &rank[i], &h[i], i % n));
    for (int i = 0; i < N; i++) {
        CHECK_ABT(glt_ult_join(&h[i]));
        CHECK_ABT(glt_ult_free(&h[i]));
        CHECK_EQ_INT(rank[i], i % n); /* private pool: only thread dest runs it */
    }
    GLT_tasklet tk[N];
    for (int i = 0; i < N; i++)
        CHECK_ABT(i % 2 ? glt_ult_create(count, NULL, &h[i])
                        : glt_tasklet_create(count, NULL, &tk[i]));
    for (int i = 0; i < N; i++) {
        if (i % 2) {
            CHECK_ABT(glt_ult_join(&h[i]));
            CHECK_ABT(glt_ult_free(&h[i]));
        } else {
            CHECK_ABT(glt_tasklet_join(&tk[i]));
            CHECK_ABT(glt_tasklet_free(&tk[i]));
        }
    }
    CHECK_EQ_INT(done_count, N);
    CHECK_ABT(glt_finalize());
    printf("glt_glto (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
