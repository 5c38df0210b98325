/* error_get_str: ABT_error_get_str maps every error code 0..57 to its macro
 * name ("ABT_SUCCESS", "ABT_ERR_MEM", ...), reports the length without the
 * terminator, writes exactly length+1 bytes, and works without ABT_init. */
#include "test.h"

static const struct {
    int code;
    const char *name;
} codes[] = {
#define E(x)  \
    {         \
        x, #x \
    }
    E(ABT_SUCCESS),
    E(ABT_ERR_UNINITIALIZED),
    E(ABT_ERR_MEM),
    E(ABT_ERR_OTHER),
    E(ABT_ERR_INV_XSTREAM),
    E(ABT_ERR_INV_XSTREAM_RANK),
    E(ABT_ERR_INV_XSTREAM_BARRIER),
    E(ABT_ERR_INV_SCHED),
    E(ABT_ERR_INV_SCHED_KIND),
    E(ABT_ERR_INV_SCHED_PREDEF),
    E(ABT_ERR_INV_SCHED_TYPE),
    E(ABT_ERR_INV_SCHED_CONFIG),
    E(ABT_ERR_INV_POOL),
    E(ABT_ERR_INV_POOL_KIND),
    E(ABT_ERR_INV_POOL_ACCESS),
    E(ABT_ERR_INV_UNIT),
    E(ABT_ERR_INV_THREAD),
    E(ABT_ERR_INV_THREAD_ATTR),
    E(ABT_ERR_INV_TASK),
    E(ABT_ERR_INV_KEY),
    E(ABT_ERR_INV_MUTEX),
    E(ABT_ERR_INV_MUTEX_ATTR),
    E(ABT_ERR_INV_COND),
    E(ABT_ERR_INV_RWLOCK),
    E(ABT_ERR_INV_EVENTUAL),
    E(ABT_ERR_INV_FUTURE),
    E(ABT_ERR_INV_BARRIER),
    E(ABT_ERR_INV_TIMER),
    E(ABT_ERR_INV_QUERY_KIND),
    E(ABT_ERR_XSTREAM),
    E(ABT_ERR_XSTREAM_STATE),
    E(ABT_ERR_XSTREAM_BARRIER),
    E(ABT_ERR_SCHED),
    E(ABT_ERR_SCHED_CONFIG),
    E(ABT_ERR_POOL),
    E(ABT_ERR_UNIT),
    E(ABT_ERR_THREAD),
    E(ABT_ERR_TASK),
    E(ABT_ERR_KEY),
    E(ABT_ERR_MUTEX),
    E(ABT_ERR_MUTEX_LOCKED),
    E(ABT_ERR_COND),
    E(ABT_ERR_COND_TIMEDOUT),
    E(ABT_ERR_RWLOCK),
    E(ABT_ERR_EVENTUAL),
    E(ABT_ERR_FUTURE),
    E(ABT_ERR_BARRIER),
    E(ABT_ERR_TIMER),
    E(ABT_ERR_MIGRATION_TARGET),
    E(ABT_ERR_MIGRATION_NA),
    E(ABT_ERR_MISSING_JOIN),
    E(ABT_ERR_FEATURE_NA),
    E(ABT_ERR_INV_TOOL_CONTEXT),
    E(ABT_ERR_INV_ARG),
    E(ABT_ERR_SYS),
    E(ABT_ERR_CPUID),
    E(ABT_ERR_INV_POOL_CONFIG),
    E(ABT_ERR_INV_POOL_USER_DEF),
#undef E
};

static void check_all(void)
{
    int n = (int)(sizeof(codes) / sizeof(codes[0]));
    CHECK_EQ_INT(n, 58);
    for (int i = 0; i < n; i++) {
        CHECK_EQ_INT(codes[i].code, i); /* values are 0..57 */
        size_t len = 12345;
        char buf[128];
        memset(buf, 'X', sizeof(buf));
        CHECK_ABT(ABT_error_get_str(codes[i].code, buf, &len));
        if (len != strlen(codes[i].name))
            TEST_FAIL("code %d: len %zu, expected %zu", i, len, strlen(codes[i].name));
        if (strcmp(buf, codes[i].name) != 0)
            TEST_FAIL("code %d: got \"%s\", expected \"%s\"", i, buf, codes[i].name);
        /* Exactly len + 1 bytes written. */
        CHECK(buf[len + 1] == 'X');
    }
}

int main(int argc, char **argv)
{
    check_all(); /* before ABT_init */
    CHECK_ABT(ABT_init(argc, argv));
    check_all();
    CHECK_ABT(ABT_finalize());
    return 0;
}
