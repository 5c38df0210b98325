/* env_reread_on_reinit: environment variables are read at every top-level
 * ABT_init: changing ABT_THREAD_STACKSIZE and ABT_MAX_NUM_XSTREAMS between a
 * finalize and the next init changes the queried configuration; unsetting
 * ABT_THREAD_STACKSIZE restores the built-in default.  A nested ABT_init does
 * not re-read them. */
#include "test.h"

static size_t stacksize(void)
{
    size_t ss = 0;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, &ss));
    return ss;
}

static unsigned max_xstreams(void)
{
    unsigned v = 0;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS, &v));
    return v;
}

int main(int argc, char **argv)
{
    unsetenv("ABT_ENV_THREAD_STACKSIZE");
    unsetenv("ABT_ENV_MAX_NUM_XSTREAMS");
    unsetenv("ABT_THREAD_STACKSIZE");
    CHECK_ABT(ABT_init(argc, argv));
    size_t def = stacksize();
    CHECK(def >= 512);
    CHECK_ABT(ABT_finalize());

    size_t other = def == 65536 ? 131072 : 65536;
    char val[32];
    snprintf(val, sizeof(val), "%zu", other);
    setenv("ABT_THREAD_STACKSIZE", val, 1);
    setenv("ABT_MAX_NUM_XSTREAMS", "3", 1);
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_EQ_INT(stacksize(), other);
    CHECK_EQ_INT(max_xstreams(), 3);

    /* Nested init: no re-read. */
    setenv("ABT_THREAD_STACKSIZE", "40960", 1);
    setenv("ABT_MAX_NUM_XSTREAMS", "5", 1);
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_EQ_INT(stacksize(), other);
    CHECK_EQ_INT(max_xstreams(), 3);
    CHECK_ABT(ABT_finalize());
    CHECK_ABT(ABT_finalize());

    CHECK_ABT(ABT_init(argc, argv));
    CHECK_EQ_INT(stacksize(), 40960);
    CHECK_EQ_INT(max_xstreams(), 5);
    CHECK_ABT(ABT_finalize());

    unsetenv("ABT_THREAD_STACKSIZE");
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_EQ_INT(stacksize(), def);
    CHECK_ABT(ABT_finalize());
    return 0;
}
