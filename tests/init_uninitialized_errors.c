/* init_uninitialized_errors: routines documented (1.x) to return
 * ABT_ERR_UNINITIALIZED when Argobots is not initialized do so both before the
 * first ABT_init and after the last ABT_finalize; ABT_xstream_self also sets
 * its output to ABT_XSTREAM_NULL. */
#include "test.h"

static void check_uninit(void)
{
    ABT_xstream xs = (ABT_xstream)&xs; /* garbage that is not ABT_XSTREAM_NULL */
    int rank = -7, num = -7;
    size_t ss = 0;
    ABT_bool b = ABT_FALSE;

    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_self(&xs), ABT_ERR_UNINITIALIZED);
    CHECK(xs == ABT_XSTREAM_NULL);
    CHECK_ERR(ABT_xstream_self_rank(&rank), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_get_num(&num), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_exit(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_check_events(ABT_SCHED_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, &ss),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_DEBUG, &b), ABT_ERR_UNINITIALIZED);
    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    CHECK_ERR(ABT_info_print_config(fp), ABT_ERR_UNINITIALIZED);
    fclose(fp);
}

int main(int argc, char **argv)
{
    check_uninit();
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_finalize());
    check_uninit();
    return 0;
}
