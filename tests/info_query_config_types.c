/* info_query_config_types: ABT_info_query_config answers every query kind
 * 0..27 with ABT_SUCCESS and writes exactly a value of the documented type:
 * ABT_bool (0/1) for the ENABLED_* kinds, FCONTEXT and DYNAMIC_PROMOTION;
 * unsigned int for MAX_NUM_XSTREAMS; size_t for the default stack sizes;
 * uint64_t for the event frequency and sleep time; int for
 * STACK_OVERFLOW_CHECK (0..3) and WAIT_POLICY (0/1).  Bytes past the value are
 * left untouched.  Values are consistent with the runtime: a default ULT's
 * stack size equals DEFAULT_THREAD_STACKSIZE and, with ABT_MAX_NUM_XSTREAMS
 * unset, MAX_NUM_XSTREAMS is the number of online CPUs. */
#include "test.h"
#include <stdint.h>
#include <unistd.h>

enum { T_BOOL, T_UINT, T_SIZE, T_U64, T_INT };

static unsigned char buf[32];

static void query(int kind, size_t size)
{
    memset(buf, 0xAA, sizeof(buf));
    CHECK_ABT(ABT_info_query_config((ABT_info_query_kind)kind, buf));
    for (size_t i = size; i < sizeof(buf); i++)
        if (buf[i] != 0xAA)
            TEST_FAIL("kind %d wrote byte %zu (value is %zu bytes)", kind, i, size);
}

static void noop(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    unsetenv("ABT_MAX_NUM_XSTREAMS");
    unsetenv("ABT_ENV_MAX_NUM_XSTREAMS");
    CHECK_ABT(ABT_init(argc, argv));

    static const struct {
        int kind;
        int type;
    } kinds[] = {
        { ABT_INFO_QUERY_KIND_ENABLED_DEBUG, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_PRINT_ERRNO, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_LOG, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_VALGRIND, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_CHECK_ERROR, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_CHECK_POOL_PRODUCER, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_CHECK_POOL_CONSUMER, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_PRESERVE_FPU, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_THREAD_CANCEL, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_TASK_CANCEL, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_MIGRATION, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_STACKABLE_SCHED, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_EXTERNAL_THREAD, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_SCHED_SLEEP, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_PRINT_CONFIG, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_AFFINITY, T_BOOL },
        { ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS, T_UINT },
        { ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, T_SIZE },
        { ABT_INFO_QUERY_KIND_DEFAULT_SCHED_STACKSIZE, T_SIZE },
        { ABT_INFO_QUERY_KIND_DEFAULT_SCHED_EVENT_FREQ, T_U64 },
        { ABT_INFO_QUERY_KIND_DEFAULT_SCHED_SLEEP_NSEC, T_U64 },
        { ABT_INFO_QUERY_KIND_ENABLED_TOOL, T_BOOL },
        { ABT_INFO_QUERY_KIND_FCONTEXT, T_BOOL },
        { ABT_INFO_QUERY_KIND_DYNAMIC_PROMOTION, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_STACK_UNWIND, T_BOOL },
        { ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK, T_INT },
        { ABT_INFO_QUERY_KIND_WAIT_POLICY, T_INT },
        { ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC, T_BOOL },
    };
    int n = (int)(sizeof(kinds) / sizeof(kinds[0]));
    CHECK_EQ_INT(n, 28);
    size_t thread_stack = 0;
    for (int i = 0; i < n; i++) {
        CHECK_EQ_INT(kinds[i].kind, i); /* enum values 0..27 in this order */
        switch (kinds[i].type) {
        case T_BOOL: {
            query(i, sizeof(ABT_bool));
            ABT_bool v;
            memcpy(&v, buf, sizeof(v));
            if (v != ABT_TRUE && v != ABT_FALSE)
                TEST_FAIL("kind %d: bool value %d", i, v);
            break;
        }
        case T_UINT: {
            query(i, sizeof(unsigned int));
            unsigned int v;
            memcpy(&v, buf, sizeof(v));
            long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
            CHECK(v >= 1);
            CHECK_EQ_INT(v, ncpu);
            break;
        }
        case T_SIZE: {
            query(i, sizeof(size_t));
            size_t v;
            memcpy(&v, buf, sizeof(v));
            CHECK(v >= 512);
            if (i == ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE)
                thread_stack = v;
            break;
        }
        case T_U64: {
            query(i, sizeof(uint64_t));
            uint64_t v;
            memcpy(&v, buf, sizeof(v));
            if (i == ABT_INFO_QUERY_KIND_DEFAULT_SCHED_EVENT_FREQ)
                CHECK(v >= 1);
            break;
        }
        case T_INT: {
            query(i, sizeof(int));
            int v;
            memcpy(&v, buf, sizeof(v));
            if (i == ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK)
                CHECK(v >= 0 && v <= 3);
            else
                CHECK(v == 0 || v == 1);
            break;
        }
        }
    }

    /* Error checking is on in a default build (tests rely on it). */
    ABT_bool check_error = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_CHECK_ERROR, &check_error));
    CHECK_EQ_INT(check_error, ABT_TRUE);

    /* A default ULT gets the default stack size. */
    ABT_xstream primary;
    ABT_pool pool;
    ABT_thread t;
    size_t ss = 0;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_get_main_pools(primary, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, noop, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_get_stacksize(t, &ss));
    CHECK_EQ_INT(ss, thread_stack);
    CHECK_ABT(ABT_thread_free(&t));

    CHECK_ABT(ABT_finalize());
    return 0;
}
