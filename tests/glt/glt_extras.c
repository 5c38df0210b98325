/* glt_extras: the extended modules: capability queries, the scheduler functions (config
 * macros, user and predefined schedulers over the threads' pools, data, sizes, stop
 * requests; the misspelled name and its alias), the error string and futures; and their
 * failure paths (bad thread ranks, NULL output). */
#include <errno.h> /* the original's glt_get_error_str(int errno, ...) broke this */
#include "glt_test.h"

static int sched_init(ABT_sched sched, ABT_sched_config config) { return ABT_SUCCESS; }
static void sched_run(ABT_sched sched) {}
static int sched_free(ABT_sched sched) { return ABT_SUCCESS; }

static GLT_future fut;
static void setter(void *arg) { CHECK_ABT(glt_future_set(fut, arg, (int)sizeof(int))); }

int main(int argc, char **argv)
{
    CHECK_EQ_INT(glt_can_event_functions(), 1);
    CHECK_EQ_INT(glt_can_future_functions(), 1);
    CHECK_EQ_INT(glt_can_manage_scheduler(), 1);
    CHECK_EQ_INT(glt_can_malleability(), 1);
    CHECK_EQ_INT(glt_can_scheduler(), 1);
    CHECK_ABT(glt_init(argc, argv));
    int n = glt_get_num_threads();

    /* scheduler config, through the macros */
    GLT_sched_config cfg;
    GLT_sched_config_var var = { .idx = 0, .type = GLT_SCHED_CONFIG_INT };
    CHECK_ABT(glt_scheduler_config_create(&cfg, var, 42, GLT_sched_config_var_end));
    int val = 0;
    CHECK_ABT(glt_scheduler_config_read(cfg, 1, &val));
    CHECK_EQ_INT(val, 42);

    /* predefined schedulers over threads' pools, both spellings */
    int ids[2] = { 0, n - 1 };
    GLT_sched s1, s2, s3;
    CHECK_ABT(glt_schededuler_create_basic(GLT_SCHED_BASIC, 2, ids, cfg, &s1));
    CHECK_ABT(glt_scheduler_create_basic(GLT_SCHED_PRIO, 1, ids, ABT_SCHED_CONFIG_NULL, &s2));
    int np = 0;
    ABT_pool pools[2];
    CHECK_ABT(ABT_sched_get_num_pools(s1, &np));
    CHECK_EQ_INT(np, 2);
    CHECK_ABT(ABT_sched_get_pools(s1, 2, 0, pools));
    CHECK(pools[0] == glt_get_team()->pools[0]);
    CHECK(pools[1] == glt_get_team()->pools[n - 1]);
    size_t sz = 99, tsz = 99;
    CHECK_ABT(glt_scheduler_get_size(s1, &sz));
    CHECK_ABT(glt_scheduler_get_total_size(s1, &tsz));
    CHECK(sz == 0 && tsz == 0);

    /* a user scheduler: data round trip, stop requests on an unused scheduler */
    GLT_sched_def def = { .type = GLT_SCHED_TYPE_ULT,
                          .init = sched_init,
                          .run = sched_run,
                          .free = sched_free,
                          .get_migr_pool = NULL };
    CHECK_ABT(glt_scheduler_create(&def, 1, &ids[1], ABT_SCHED_CONFIG_NULL, &s3));
    void *data = NULL;
    CHECK_ABT(glt_scheduler_set_data(s3, &val));
    CHECK_ABT(glt_scheduler_get_data(s3, &data));
    CHECK(data == &val);
    GLT_bool stop = GLT_TRUE;
    int r = glt_scheduler_has_to_stop(s3, &stop); /* on a scheduler nobody runs */
    CHECK(r == ABT_SUCCESS || r == ABT_ERR_INV_XSTREAM || r == ABT_ERR_SCHED);
    r = glt_scheduler_finish(s3);
    CHECK(r == ABT_SUCCESS || r == ABT_ERR_SCHED);
    r = glt_scheduler_exit(s3);
    CHECK(r == ABT_SUCCESS || r == ABT_ERR_SCHED);
    CHECK_ABT(glt_scheduler_free(&s3));
    CHECK_ABT(glt_scheduler_free(&s2));
    CHECK_ABT(glt_scheduler_free(&s1));
    CHECK(s1 == ABT_SCHED_NULL);
    CHECK_ABT(glt_scheduler_config_free(&cfg));

    int bad[1] = { n };
    CHECK_ERR(glt_scheduler_create_basic(GLT_SCHED_BASIC, 1, bad, ABT_SCHED_CONFIG_NULL, &s1),
              ABT_ERR_INV_ARG);
    CHECK(s1 == ABT_SCHED_NULL);
    CHECK_ERR(glt_scheduler_create(&def, 0, ids, ABT_SCHED_CONFIG_NULL, &s1), ABT_ERR_INV_ARG);
    CHECK_ERR(glt_scheduler_create(&def, 1, NULL, ABT_SCHED_CONFIG_NULL, &s1), ABT_ERR_INV_ARG);
    CHECK_ERR(glt_schededuler_create_basic(GLT_SCHED_BASIC, 1, ids, ABT_SCHED_CONFIG_NULL, NULL),
              ABT_ERR_INV_ARG);

    /* error string */
    size_t len = 0;
    CHECK_ABT(glt_get_error_str(ABT_ERR_INV_ARG, NULL, &len));
    char buf[128];
    CHECK(len > 0 && len < sizeof buf);
    CHECK_ABT(glt_get_error_str(ABT_ERR_INV_ARG, buf, NULL));
    CHECK(strcmp(buf, "ABT_ERR_INV_ARG") == 0);
    CHECK(glt_get_error_str(-5, buf, &len) != ABT_SUCCESS);

    /* future */
    CHECK_ABT(glt_future_create((int)sizeof(int), &fut));
    int payload = 7;
    GLT_ult u;
    CHECK_ABT(glt_ult_create_to(setter, &payload, &u, n - 1));
    void *got = NULL;
    CHECK_ABT(glt_future_wait(fut, &got));
    CHECK(got != NULL && *(int *)got == 7);
    CHECK_ABT(glt_ult_free(&u));
    CHECK_ABT(glt_future_free(&fut));
    CHECK_ERR(glt_future_wait(fut, &got), ABT_ERR_INV_EVENTUAL);
    CHECK(glt_future_create(-1, &fut) != ABT_SUCCESS);
    CHECK_ABT(glt_finalize());
    printf("glt_extras (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
