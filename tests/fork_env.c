/* fork_env: WEFT_FORK sets the runtime's default fork-join technique at ABT_init.  A value
 * that is not a technique (or an empty one) fails ABT_init with ABT_ERR_INV_ARG and a
 * message; the runtime stays uninitialized and a good value then initializes it.  The value is
 * case-insensitive, shown by ABT_info_print_config, and given to ULTs created without an attribute
 * (not to those whose attribute names another).  weft only. */
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED

static int ran;
static void f(void *arg) { ran++; }

int main(int argc, char **argv)
{
    setenv("WEFT_FORK", "fastest", 1);
    CHECK_ERR(ABT_init(argc, argv), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    setenv("WEFT_FORK", "roc-", 1);
    CHECK_ERR(ABT_init(argc, argv), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);

    setenv("WEFT_FORK", "C-RoC-E", 1);
    CHECK_ABT(ABT_init(argc, argv));
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    CHECK_ABT(ABT_info_print_config(fp));
    fclose(fp);
    CHECK(strstr(buf, "fork-join technique (WEFT_FORK): C-RoC-E") != NULL);
    free(buf);

    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread t;
    weft_fork_t k;
    CHECK_ABT(ABT_thread_create(pool, f, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(weft_thread_get_fork(t, &k));
    CHECK_EQ_INT(k, WEFT_FORK_C_ROC_E);
    CHECK_ABT(ABT_thread_free(&t));
    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(weft_thread_attr_set_fork(attr, WEFT_FORK_FULL_L));
    CHECK_ABT(ABT_thread_create(pool, f, NULL, attr, &t));
    CHECK_ABT(weft_thread_get_fork(t, &k));
    CHECK_EQ_INT(k, WEFT_FORK_FULL_L);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_EQ_INT(ran, 2);
    CHECK_ABT(ABT_finalize());

    unsetenv("WEFT_FORK");
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, f, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(weft_thread_get_fork(t, &k));
    CHECK_EQ_INT(k, WEFT_FORK_ROC_L);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_finalize());
    return 0;
}
#endif
