/* glt_pools: GLT_NUM_POOLS=2 with GLT_NUM_THREADS=4 (ctest): thread i runs pool i % 2, so
 * threads 0 and 2 share pool 0 and threads 1 and 3 pool 1; work created for thread 2 runs
 * on thread 0 or 2, never on 1 or 3; glt_ult_create from a thread pushes into its pool. */
#include "glt_test.h"

typedef struct {
    int rank;
    int child_rank;
} rec_t;

static void where(void *arg) { ((rec_t *)arg)->rank = glt_get_thread_num(); }

static void child(void *arg) { ((rec_t *)arg)->child_rank = glt_get_thread_num(); }

/* runs on some thread, creates a ULT in its own pool */
static void parent(void *arg)
{
    rec_t *r = (rec_t *)arg;
    r->rank = glt_get_thread_num();
    GLT_ult c;
    CHECK_ABT(glt_ult_create(child, r, &c));
    CHECK_ABT(glt_ult_join(&c));
    CHECK_ABT(glt_ult_free(&c));
}

int main(int argc, char **argv)
{
    CHECK_ABT(glt_init(argc, argv));
    glt_team_t *t = glt_get_team();
    CHECK_EQ_INT(glt_get_num_threads(), 4);
    CHECK_EQ_INT(t->num_pools, 2);
    for (int i = 0; i < 4; i++) {
        ABT_pool p;
        CHECK_ABT(ABT_xstream_get_main_pools(t->team[i], 1, &p));
        CHECK(p == t->pools[i % 2]);
    }
    enum { N = 40 };
    rec_t rec[N];
    GLT_ult h[N];
    for (int i = 0; i < N; i++) {
        rec[i].rank = rec[i].child_rank = -1;
        CHECK_ABT(glt_ult_create_to(i % 2 ? where : parent, &rec[i], &h[i], i % 4));
    }
    for (int i = 0; i < N; i++) {
        CHECK_ABT(glt_ult_join(&h[i]));
        CHECK_ABT(glt_ult_free(&h[i]));
        CHECK_EQ_INT(rec[i].rank % 2, (i % 4) % 2);
        if (i % 2 == 0) /* the child went into the parent's pool */
            CHECK_EQ_INT(rec[i].child_rank % 2, rec[i].rank % 2);
    }
    CHECK_ABT(glt_finalize());
    printf("glt_pools (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
