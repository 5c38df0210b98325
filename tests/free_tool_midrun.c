/* free_tool_midrun: a tool that registers while a unit's free is running it (no join
 * first) still hears that unit's end: FINISH, JOIN and FREE, once each and in that
 * order, for a tasklet freed by ABT_task_free and a ULT freed by ABT_thread_free; a unit
 * freed after the tool unregistered is not reported. */
#define TEST_NO_LIFECYCLE 1 /* registers its own tool callback */
#include "test.h"

static ABT_thread target;
static int seq[8], nseq, others;

static void cb(ABT_thread t, ABT_xstream xs, uint64_t ev, ABT_tool_context ctx, void *arg)
{
    (void)xs, (void)ctx, (void)arg;
    if (t == target && nseq < 8)
        seq[nseq++] = (int)ev;
    else if (t != target)
        others++;
}

static void registers(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_tool_register_thread_callback(cb,
                                                ABT_TOOL_EVENT_THREAD_FINISH |
                                                    ABT_TOOL_EVENT_THREAD_JOIN |
                                                    ABT_TOOL_EVENT_THREAD_FREE,
                                                NULL));
}

static void plain(void *arg) { (void)arg; }

static void check_heard(void)
{
    CHECK_EQ_INT(nseq, 3);
    CHECK_EQ_INT(seq[0], (int)ABT_TOOL_EVENT_THREAD_FINISH);
    CHECK_EQ_INT(seq[1], (int)ABT_TOOL_EVENT_THREAD_JOIN);
    CHECK_EQ_INT(seq[2], (int)ABT_TOOL_EVENT_THREAD_FREE);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_bool on;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_TOOL, &on));
    if (!on) {
        ABT_finalize();
        TEST_SKIP("built without the tool interface");
    }
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    for (int round = 0; round < 4; round++) {
        ABT_thread h;
        nseq = 0;
        others = 0;
        if (round % 2 == 0) {
            CHECK_ABT(ABT_task_create(pool, registers, NULL, &h));
            target = h;
            CHECK_ABT(ABT_task_free(&h));
            CHECK(h == ABT_TASK_NULL);
        } else {
            CHECK_ABT(ABT_thread_create(pool, registers, NULL, ABT_THREAD_ATTR_NULL, &h));
            target = h;
            CHECK_ABT(ABT_thread_free(&h));
            CHECK(h == ABT_THREAD_NULL);
        }
        check_heard();
        CHECK_EQ_INT(others, 0);
        CHECK_ABT(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_NONE, NULL));

        /* unregistered: the next unit's free is silent */
        CHECK_ABT(ABT_task_create(pool, plain, NULL, &h));
        CHECK_ABT(ABT_task_free(&h));
        CHECK_EQ_INT(others, 0);
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
