/* glt_env_errors: glt_init reports malformed environment values with ABT_ERR_INV_ARG and
 * leaves nothing initialised (the next glt_init succeeds); glt_finalize from another
 * thread than 0 fails with ABT_ERR_INV_XSTREAM; GLT_NUM_POOLS larger than the thread
 * count is clamped. */
#include "glt_test.h"

static int fin_rc;
static void try_finalize(void *arg) { fin_rc = glt_finalize(); }

static void bad(const char *var, const char *val, int argc, char **argv)
{
    setenv(var, val, 1);
    CHECK_ERR(glt_init(argc, argv), ABT_ERR_INV_ARG);
    CHECK(glt_get_team() == NULL);
    CHECK_EQ_INT(glt_get_num_threads(), -ABT_ERR_UNINITIALIZED);
    unsetenv(var);
}

int main(int argc, char **argv)
{
    unsetenv("GLTO_NUM_THREADS");
    setenv("GLT_NUM_THREADS", "2", 1);
    bad("GLT_NUM_THREADS", "abc", argc, argv);
    setenv("GLT_NUM_THREADS", "2", 1);
    bad("GLT_NUM_THREADS", "0", argc, argv);
    setenv("GLT_NUM_THREADS", "2", 1);
    bad("GLT_NUM_POOLS", "-3", argc, argv);
    bad("GLT_NUM_POOLS", "2x", argc, argv);
    bad("GLTO_NUM_THREADS", "", argc, argv);
    bad("GLTO_NUM_THREADS", "99999999999", argc, argv);

    setenv("GLT_NUM_THREADS", "2", 1);
    setenv("GLT_NUM_POOLS", "5", 1);
    CHECK_ABT(glt_init(argc, argv));
    CHECK_EQ_INT(glt_get_num_threads(), 2);
    CHECK_EQ_INT(glt_get_team()->num_pools, 2);
    GLT_ult u;
    CHECK_ABT(glt_ult_create_to(try_finalize, NULL, &u, 1));
    CHECK_ABT(glt_ult_join(&u));
    CHECK_ABT(glt_ult_free(&u));
    CHECK_EQ_INT(fin_rc, ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(glt_get_num_threads(), 2); /* still running */
    CHECK_ABT(glt_finalize());
    printf("glt_env_errors (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
