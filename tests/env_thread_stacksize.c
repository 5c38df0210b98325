/* env_thread_stacksize: ABT_THREAD_STACKSIZE set before ABT_init becomes the
 * default ULT stack size: ABT_info_query_config(DEFAULT_THREAD_STACKSIZE)
 * reports it and a ULT created with default attributes (on the primary or a
 * secondary stream) has exactly that stack size. */
#include "test.h"

static void noop(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    unsetenv("ABT_ENV_THREAD_STACKSIZE");
    setenv("ABT_THREAD_STACKSIZE", "65536", 1);
    CHECK_ABT(ABT_init(argc, argv));

    size_t ss = 0;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, &ss));
    CHECK_EQ_INT(ss, 65536);

    ABT_xstream primary, xs;
    ABT_pool ppool, xpool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &ppool));
    CHECK_ABT(ABT_thread_create(ppool, noop, NULL, ABT_THREAD_ATTR_NULL, &t));
    ss = 0;
    CHECK_ABT(ABT_thread_get_stacksize(t, &ss));
    CHECK_EQ_INT(ss, 65536);
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &xpool));
    CHECK_ABT(ABT_thread_create(xpool, noop, NULL, ABT_THREAD_ATTR_NULL, &t));
    ss = 0;
    CHECK_ABT(ABT_thread_get_stacksize(t, &ss));
    CHECK_EQ_INT(ss, 65536);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_xstream_free(&xs));

    CHECK_ABT(ABT_finalize());
    return 0;
}
