/* env_thread_stacksize_legacy: the legacy spelling ABT_ENV_THREAD_STACKSIZE
 * (set before ABT_init, with ABT_THREAD_STACKSIZE unset) also sets the default
 * ULT stack size seen by ABT_info_query_config and by a new ULT. */
#include "test.h"

static void noop(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    unsetenv("ABT_THREAD_STACKSIZE");
    setenv("ABT_ENV_THREAD_STACKSIZE", "49152", 1);
    CHECK_ABT(ABT_init(argc, argv));

    size_t ss = 0;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, &ss));
    CHECK_EQ_INT(ss, 49152);

    ABT_xstream primary;
    ABT_pool ppool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));
    CHECK_ABT(ABT_thread_create(ppool, noop, NULL, ABT_THREAD_ATTR_NULL, &t));
    ss = 0;
    CHECK_ABT(ABT_thread_get_stacksize(t, &ss));
    CHECK_EQ_INT(ss, 49152);
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_finalize());
    return 0;
}
