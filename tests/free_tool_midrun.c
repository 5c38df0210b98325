/* free_tool_midrun: a tool that registers while a unit's free (no join first) or join is
 * running it still hears that unit's end: FINISH, JOIN and FREE, in that order, for a
 * tasklet (ABT_task_free, ABT_task_join) and a ULT (ABT_thread_free, ABT_thread_join).
 * After an explicit join the free reports JOIN a second time, as Argobots 1.2 does (its
 * free joins, and every join of a terminated unit is an event).  A unit freed after the
 * tool unregistered is not reported. */
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
    CHECK_ABT(ABT_tool_register_thread_callback(
        cb, ABT_TOOL_EVENT_THREAD_FINISH | ABT_TOOL_EVENT_THREAD_JOIN | ABT_TOOL_EVENT_THREAD_FREE,
        NULL));
}

static void plain(void *arg) { (void)arg; }

static void check_heard(int joins)
{
    CHECK_EQ_INT(nseq, 2 + joins);
    CHECK_EQ_INT(seq[0], (int)ABT_TOOL_EVENT_THREAD_FINISH);
    for (int i = 1; i <= joins; i++)
        CHECK_EQ_INT(seq[i], (int)ABT_TOOL_EVENT_THREAD_JOIN);
    CHECK_EQ_INT(seq[1 + joins], (int)ABT_TOOL_EVENT_THREAD_FREE);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_bool on;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_TOOL, &on));
    if (!on) {
        ABT_finalize();
        TEST_SKIP("the tool interface is off (WEFT_ENABLE_TOOL unset or 0, or -DWEFT_TOOL=OFF)");
    }
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    for (int round = 0; round < 8; round++) {
        ABT_thread h;
        int join = round % 4 >= 2;
        nseq = 0;
        others = 0;
        if (round % 2 == 0) {
            CHECK_ABT(ABT_task_create(pool, registers, NULL, &h));
            target = h;
            if (join)
                CHECK_ABT(ABT_task_join(h));
            CHECK_ABT(ABT_task_free(&h));
            CHECK(h == ABT_TASK_NULL);
        } else {
            CHECK_ABT(ABT_thread_create(pool, registers, NULL, ABT_THREAD_ATTR_NULL, &h));
            target = h;
            if (join)
                CHECK_ABT(ABT_thread_join(h));
            CHECK_ABT(ABT_thread_free(&h));
            CHECK(h == ABT_THREAD_NULL);
        }
        check_heard(1 + join);
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
