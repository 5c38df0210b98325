/* glt_workunits: the work-unit module: handle arrays, ULT and tasklet creation (here and
 * on a given thread), yield, yield_to, join, free, ids, the calling thread's rank,
 * migration, self, cancel and exit; and its failure paths (bad thread rank, NULL
 * pointers, an external thread, a tasklet asking for its ULT). */
#include <pthread.h>
#include "glt_test.h"

static int hits;
static void inc(void *arg) { __atomic_fetch_add((int *)arg, 1, __ATOMIC_RELAXED); }

static void exiter(void *arg)
{
    glt_ult_exit();
    *(int *)arg = 1; /* not reached */
}

static void selfish(void *arg)
{
    GLT_ult me;
    CHECK_ABT(glt_ult_self(&me));
    GLT_ult_id id;
    CHECK_ABT(glt_ult_get_id(&id, me));
    *(GLT_ult_id *)arg = id;
    GLT_tasklet tk;
    CHECK(glt_tasklet_self(&tk) != ABT_SUCCESS); /* a ULT is not a tasklet */
}

static void tasklet_self(void *arg)
{
    GLT_tasklet tk;
    CHECK_ABT(glt_tasklet_self(&tk));
    *(GLT_tasklet *)arg = tk;
}

static void mover(void *arg)
{
    int *ranks = (int *)arg;
    CHECK_ABT(glt_workunit_get_thread_id(&ranks[0]));
    int dest = glt_get_num_threads() - 1;
    CHECK_ABT(glt_ult_migrate_self_to(dest));
    glt_yield(); /* the migration happens at the next scheduling */
    while (glt_get_thread_num() != dest)
        glt_yield();
    ranks[1] = glt_get_thread_num();
    CHECK_ERR(glt_ult_migrate_self_to(-1), ABT_ERR_INV_ARG);
    CHECK_ERR(glt_ult_migrate_self_to(glt_get_num_threads()), ABT_ERR_INV_ARG);
}

static int pingpong[8], pp_n;
static GLT_ult other_ult;
static void pp(void *arg)
{
    int me = (int)(intptr_t)arg;
    pingpong[__atomic_fetch_add(&pp_n, 1, __ATOMIC_RELAXED)] = me;
    if (me == 1)
        CHECK_ABT(glt_yield_to(other_ult));
    pingpong[__atomic_fetch_add(&pp_n, 1, __ATOMIC_RELAXED)] = me;
}

static int ext_rc[2];
static void *external(void *arg)
{
    GLT_ult u;
    ext_rc[0] = glt_ult_create(inc, &hits, &u);
    ext_rc[1] = glt_get_thread_num();
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK(glt_ult_malloc(0) == NULL && glt_tasklet_malloc(-1) == NULL);
    CHECK_ABT(glt_init(argc, argv));
    int n = glt_get_num_threads();
    int total = 64;
    GLT_ult *u = glt_ult_malloc(total);
    GLT_tasklet *t = glt_tasklet_malloc(total);
    CHECK(u && t);
    for (int i = 0; i < total; i++) {
        CHECK_ABT(i % 2 ? glt_ult_create(inc, &hits, &u[i])
                        : glt_ult_create_to(inc, &hits, &u[i], i % n));
        CHECK_ABT(i % 2 ? glt_tasklet_create(inc, &hits, &t[i])
                        : glt_tasklet_create_to(inc, &hits, &t[i], i % n));
    }
    CHECK_ABT(glt_yield());
    for (int i = 0; i < total; i++) {
        CHECK_ABT(glt_ult_join(&u[i]));
        CHECK_ABT(glt_ult_free(&u[i]));
        CHECK_ABT(glt_tasklet_join(&t[i]));
        CHECK_ABT(glt_tasklet_free(&t[i]));
    }
    CHECK_EQ_INT(hits, 2 * total);
    free(u);
    free(t);

    /* ids, self */
    GLT_ult_id id1 = 0, id2 = 1;
    GLT_ult a;
    CHECK_ABT(glt_ult_create(selfish, &id1, &a));
    CHECK_ABT(glt_ult_join(&a));
    CHECK_ABT(glt_ult_get_id(&id2, a));
    CHECK_EQ_INT(id1, id2);
    CHECK_ABT(glt_ult_free(&a));
    GLT_tasklet tk = ABT_TASK_NULL, seen = ABT_TASK_NULL;
    CHECK_ABT(glt_tasklet_create(tasklet_self, &seen, &tk));
    CHECK_ABT(glt_tasklet_join(&tk));
    CHECK(seen == tk);
    CHECK_ABT(glt_tasklet_free(&tk));
    GLT_thread_id my = -1;
    CHECK_ABT(glt_workunit_get_thread_id(&my));
    CHECK_EQ_INT(my, 0);

    /* exit */
    int reached = 0;
    CHECK_ABT(glt_ult_create(exiter, &reached, &a));
    CHECK_ABT(glt_ult_join(&a));
    CHECK_ABT(glt_ult_free(&a));
    CHECK_EQ_INT(reached, 0);

    /* cancel before it runs: on thread 0, which does not schedule until we yield */
    int never = 0;
    CHECK_ABT(glt_ult_create_to(inc, &never, &a, 0));
    CHECK_ABT(glt_ult_cancel(a));
    CHECK_ABT(glt_ult_join(&a));
    CHECK_ABT(glt_ult_free(&a));
    CHECK_ABT(glt_tasklet_create_to(inc, &never, &tk, 0));
    CHECK_ABT(glt_tasklet_cancel(tk));
    CHECK_ABT(glt_tasklet_join(&tk));
    CHECK_ABT(glt_tasklet_free(&tk));
    CHECK_EQ_INT(never, 0);

    /* yield_to between two ULTs of thread 0 */
    GLT_ult b;
    CHECK_ABT(glt_ult_create_to(pp, (void *)(intptr_t)1, &a, 0));
    CHECK_ABT(glt_ult_create_to(pp, (void *)(intptr_t)2, &b, 0));
    other_ult = b;
    CHECK_ABT(glt_ult_join(&a));
    CHECK_ABT(glt_ult_join(&b));
    CHECK_ABT(glt_ult_free(&a));
    CHECK_ABT(glt_ult_free(&b));
    CHECK_EQ_INT(pp_n, 4);
    CHECK_EQ_INT(pingpong[0], 1);
    CHECK_EQ_INT(pingpong[1], 2); /* yield_to ran 2 before 1 resumed */

    /* migration (needs two threads) */
    if (n > 1) {
        int ranks[2] = { -1, -1 };
        CHECK_ABT(glt_ult_create_to(mover, ranks, &a, 0));
        CHECK_ABT(glt_ult_join(&a));
        CHECK_ABT(glt_ult_free(&a));
        CHECK_EQ_INT(ranks[0], 0);
        CHECK_EQ_INT(ranks[1], n - 1);
    }
    CHECK(glt_ult_migrate_self_to(0) != ABT_SUCCESS); /* the primary ULT cannot migrate */

    /* failure paths */
    a = (GLT_ult)&a;
    CHECK_ERR(glt_ult_create_to(inc, &hits, &a, n), ABT_ERR_INV_ARG);
    CHECK(a == ABT_THREAD_NULL);
    CHECK_ERR(glt_ult_create_to(inc, &hits, &a, -1), ABT_ERR_INV_ARG);
    CHECK_ERR(glt_tasklet_create_to(inc, &hits, &tk, n), ABT_ERR_INV_ARG);
    CHECK(tk == ABT_TASK_NULL);
    CHECK_ERR(glt_ult_join(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(glt_tasklet_join(NULL), ABT_ERR_INV_ARG);
    CHECK(glt_ult_free(NULL) != ABT_SUCCESS);
    CHECK(glt_ult_create(NULL, NULL, &a) != ABT_SUCCESS);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, external, NULL) == 0);
    pthread_join(th, NULL);
    CHECK(ext_rc[0] != ABT_SUCCESS);
    CHECK(ext_rc[1] < 0);
    CHECK_ABT(glt_finalize());
    printf("glt_workunits (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
