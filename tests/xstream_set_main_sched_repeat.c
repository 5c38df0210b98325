/* xstream_set_main_sched_repeat: a ULT that changes the main scheduler of the stream it
 * runs on again and again succeeds every time, as in Argobots: ABT_xstream_set_main_sched
 * alternates user-defined ULT-type schedulers (ABT_sched_create with an ABT_sched_def whose
 * loop pops its pools and runs what it finds through ABT_xstream_run_unit or
 * ABT_self_schedule) and predefined ones (ABT_sched_create_basic with BASIC, BASIC_WAIT,
 * PRIO, RANDWS; ABT_xstream_set_main_sched_basic), each over 1 to 3 of three shared pools,
 * with or without a yield between two changes.  Several such ULTs run at once, on the
 * primary stream and on a secondary one (their pools are shared by both streams, so each
 * ULT runs on either); the secondary stream keeps a main scheduler over all three pools
 * throughout, so every pool stays served.  Each call must return ABT_SUCCESS (before the
 * fix: ABT_ERR_XSTREAM_STATE when the previous change had not taken effect yet). */
#include "test.h"

#define NPOOLS 3
#define NULTS  6

static ABT_pool pools[NPOOLS];
static int keeper_rank; /* the stream that keeps all three pools: never changed */
static int iters;

struct loop {
    int n;
    ABT_pool p[NPOOLS];
};

static int loop_init(ABT_sched sched, ABT_sched_config config)
{
    (void)config;
    struct loop *l = calloc(1, sizeof(*l));
    CHECK(l != NULL);
    CHECK_ABT(ABT_sched_get_num_pools(sched, &l->n));
    CHECK(l->n >= 1 && l->n <= NPOOLS);
    CHECK_ABT(ABT_sched_get_pools(sched, l->n, 0, l->p));
    CHECK_ABT(ABT_sched_set_data(sched, l));
    return ABT_SUCCESS;
}

static void loop_run(ABT_sched sched)
{
    struct loop *l;
    CHECK_ABT(ABT_sched_get_data(sched, (void **)&l));
    for (unsigned round = 0;; round++) {
        for (int i = 0; i < l->n; i++) {
            ABT_unit unit;
            CHECK_ABT(ABT_pool_pop(l->p[i], &unit));
            if (unit == ABT_UNIT_NULL)
                continue;
            if (round % 2 == 0) {
                CHECK_ABT(ABT_xstream_run_unit(unit, l->p[i]));
            } else {
                ABT_thread t;
                CHECK_ABT(ABT_unit_get_thread(unit, &t));
                CHECK_ABT(ABT_self_schedule(t, round % 4 == 1 ? ABT_POOL_NULL : l->p[i]));
            }
        }
        if (round % 8 == 7) {
            ABT_bool stop;
            CHECK_ABT(ABT_xstream_check_events(sched));
            CHECK_ABT(ABT_sched_has_to_stop(sched, &stop));
            if (stop == ABT_TRUE)
                return;
        }
    }
}

static int loop_free(ABT_sched sched)
{
    struct loop *l;
    CHECK_ABT(ABT_sched_get_data(sched, (void **)&l));
    free(l);
    return ABT_SUCCESS;
}

static const ABT_sched_predef predefs[] = { ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT, ABT_SCHED_PRIO,
                                            ABT_SCHED_RANDWS };

/* Change the main scheduler of the stream the caller runs on (not the keeper's). */
static void change(int k, int n, ABT_pool *ps, int user)
{
    int rank;
    for (;;) {
        CHECK_ABT(ABT_self_get_xstream_rank(&rank));
        if (rank != keeper_rank)
            break;
        CHECK_ABT(ABT_self_yield());
    }
    ABT_xstream xs;
    CHECK_ABT(ABT_self_get_xstream(&xs));
    int r;
    if (user) {
        ABT_sched_def def = { .type = ABT_SCHED_TYPE_ULT,
                              .init = loop_init,
                              .run = loop_run,
                              .free = loop_free,
                              .get_migr_pool = NULL };
        ABT_sched_config cfg;
        CHECK_ABT(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, ABT_TRUE,
                                          ABT_sched_config_var_end));
        ABT_sched s;
        CHECK_ABT(ABT_sched_create(&def, n, ps, cfg, &s));
        CHECK_ABT(ABT_sched_config_free(&cfg));
        r = ABT_xstream_set_main_sched(xs, s);
    } else if (k % 2) {
        ABT_sched_config cfg;
        CHECK_ABT(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, ABT_TRUE,
                                          ABT_sched_config_var_end));
        ABT_sched s;
        CHECK_ABT(ABT_sched_create_basic(predefs[(k / 2) % 4], n, ps, cfg, &s));
        CHECK_ABT(ABT_sched_config_free(&cfg));
        r = ABT_xstream_set_main_sched(xs, s);
    } else {
        r = ABT_xstream_set_main_sched_basic(xs, predefs[(k / 2) % 4], n, ps);
    }
    if (r != ABT_SUCCESS)
        TEST_FAIL("change %d (%s, %d pools) on stream %d: ABT_xstream_set_main_sched returned "
                  "%d (%s)",
                  k, user ? "user-defined" : "predefined", n, rank, r, test_errname(r));
}

static void changer(void *arg)
{
    int seed = (int)(intptr_t)arg;
    for (int k = 0; k < iters; k++) {
        int j = k + seed;
        ABT_pool ps[NPOOLS];
        int n = 1 + (j / 2) % NPOOLS;
        for (int i = 0; i < n; i++)
            ps[i] = pools[(j + i) % NPOOLS];
        change(j, n, ps, (j / 3) % 2);
        if ((j / 5) % 2 == 0)
            CHECK_ABT(ABT_self_yield());
    }
    /* every pool served by this stream again before the ULT ends */
    change(0, NPOOLS, pools, 0);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    iters = 60 / test_scale_div() + 6;
    ABT_xstream primary, second;
    CHECK_ABT(ABT_self_get_xstream(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &pools[0]));
    for (int i = 1; i < NPOOLS; i++)
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
    /* the keeper: a secondary stream over all three pools, never changed */
    ABT_xstream keeper;
    CHECK_ABT(
        ABT_xstream_create_basic(ABT_SCHED_BASIC, NPOOLS, pools, ABT_SCHED_CONFIG_NULL, &keeper));
    CHECK_ABT(ABT_xstream_get_rank(keeper, &keeper_rank));
    /* a second changeable stream */
    CHECK_ABT(
        ABT_xstream_create_basic(ABT_SCHED_BASIC, NPOOLS, pools, ABT_SCHED_CONFIG_NULL, &second));
    /* the primary stream over all three pools, by the primary ULT itself */
    change(1, NPOOLS, pools, 0);

    ABT_thread t[NULTS];
    for (int i = 0; i < NULTS; i++)
        CHECK_ABT(ABT_thread_create(pools[i % NPOOLS], changer, (void *)(intptr_t)(i * 7),
                                    ABT_THREAD_ATTR_NULL, &t[i]));
    changer((void *)(intptr_t)3); /* the primary ULT changes schedulers too */
    for (int i = 0; i < NULTS; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));

    /* home to the primary stream, every pool served there, then the streams go */
    for (int i = 0;; i = (i + 1) % NPOOLS) {
        ABT_bool on;
        CHECK_ABT(ABT_self_on_primary_xstream(&on));
        if (on)
            break;
        CHECK_ABT(ABT_self_set_associated_pool(pools[i]));
        CHECK_ABT(ABT_self_yield());
    }
    change(2, NPOOLS, pools, 0);
    ABT_xstream xss[2] = { keeper, second };
    for (int i = 0; i < 2; i++) {
        for (;;) {
            ABT_bool on;
            CHECK_ABT(ABT_self_on_primary_xstream(&on));
            if (on)
                break;
            CHECK_ABT(ABT_self_yield());
        }
        CHECK_ABT(ABT_xstream_free(&xss[i]));
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
