/* env_thread_stacksize_precedence: when both ABT_THREAD_STACKSIZE and the
 * legacy ABT_ENV_THREAD_STACKSIZE are set, the ABT_ prefix wins. */
#include "test.h"

int main(int argc, char **argv)
{
    setenv("ABT_THREAD_STACKSIZE", "32768", 1);
    setenv("ABT_ENV_THREAD_STACKSIZE", "131072", 1);
    CHECK_ABT(ABT_init(argc, argv));
    size_t ss = 0;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, &ss));
    CHECK_EQ_INT(ss, 32768);
    CHECK_ABT(ABT_finalize());
    return 0;
}
