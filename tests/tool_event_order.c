/* tool_event_order: with a tool callback registered for every event, each work unit
 * (ULTs and tasklets, joined on 1 and 2 streams) is seen in the order
 * create -> run -> finish -> join -> free, exactly once each; a ULT that yields also
 * reports yield; ABT_tool_query_thread answers inside the callback and rejects a NULL
 * context; unregistering stops the events. */
#define TEST_NO_LIFECYCLE 1 /* registers its own tool callback */
#include "test.h"
#include <pthread.h>

#define N 64
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ABT_thread units[2 * N];
static int seq[2 * N][8], nseq[2 * N]; /* protected by lock */
static int yields, bad_query;

/* units carry their slot + 1 as argument */
static int slot(ABT_thread t)
{
    void *a = NULL;
    if (ABT_thread_get_arg(t, &a) != ABT_SUCCESS)
        return -1;
    intptr_t i = (intptr_t)a - 1;
    return i >= 0 && i < 2 * N ? (int)i : -1;
}

static void cb(ABT_thread t, ABT_xstream xs, uint64_t ev, ABT_tool_context ctx, void *arg)
{
    ABT_exec_entity_type type;
    if (ABT_tool_query_thread(ctx, ev, ABT_TOOL_QUERY_KIND_CALLER_TYPE, &type) != ABT_SUCCESS)
        bad_query = 1;
    ABT_pool pool;
    if (ABT_tool_query_thread(ctx, ev, ABT_TOOL_QUERY_KIND_POOL, &pool) != ABT_SUCCESS)
        bad_query = 1;
    pthread_mutex_lock(&lock);
    if (ev == ABT_TOOL_EVENT_THREAD_YIELD) {
        yields++;
    } else {
        int i = slot(t);
        if (i >= 0 && nseq[i] < 8)
            seq[i][nseq[i]++] = (int)ev;
    }
    pthread_mutex_unlock(&lock);
}

static void ult(void *arg) { ABT_thread_yield(); }
static void task(void *arg) {}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_bool on;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_TOOL, &on));
    if (!on) {
        ABT_finalize();
        TEST_SKIP("the tool interface is off (WEFT_ENABLE_TOOL unset or 0, or -DWEFT_TOOL=OFF)");
    }
    ABT_xstream xs[2];
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_self(&xs[0]));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs[1]));
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));
    CHECK_ERR(ABT_tool_query_thread(ABT_TOOL_CONTEXT_NULL, ABT_TOOL_EVENT_THREAD_RUN,
                                    ABT_TOOL_QUERY_KIND_POOL, &pools[0]),
              ABT_ERR_INV_TOOL_CONTEXT);
    CHECK_ABT(ABT_tool_register_thread_callback(cb, ABT_TOOL_EVENT_THREAD_ALL, NULL));

    for (int i = 0; i < 2 * N; i++) {
        void *arg = (void *)(intptr_t)(i + 1);
        if (i % 2)
            CHECK_ABT(ABT_task_create(pools[i % 4 < 2 ? 0 : 1], task, arg, &units[i]));
        else
            CHECK_ABT(ABT_thread_create(pools[i % 4 < 2 ? 0 : 1], ult, arg, ABT_THREAD_ATTR_NULL,
                                        &units[i]));
    }
    for (int i = 0; i < 2 * N; i++)
        CHECK_ABT(ABT_thread_free(&units[i]));
    CHECK_ABT(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_NONE, NULL));
    ABT_thread extra;
    CHECK_ABT(ABT_thread_create(pools[0], ult, NULL, ABT_THREAD_ATTR_NULL, &extra));
    CHECK_ABT(ABT_thread_free(&extra));

    static const int want[] = { ABT_TOOL_EVENT_THREAD_CREATE, ABT_TOOL_EVENT_THREAD_RUN,
                                ABT_TOOL_EVENT_THREAD_FINISH, ABT_TOOL_EVENT_THREAD_JOIN,
                                ABT_TOOL_EVENT_THREAD_FREE };
    for (int i = 0; i < 2 * N; i++) {
        int k = 0;
        for (int j = 0; j < nseq[i]; j++) {
            if (seq[i][j] == ABT_TOOL_EVENT_THREAD_RUN && k == 2)
                continue; /* resumed after its yield */
            if (seq[i][j] == ABT_TOOL_EVENT_THREAD_SUSPEND ||
                seq[i][j] == ABT_TOOL_EVENT_THREAD_RESUME)
                continue;
            if (k >= 5 || seq[i][j] != want[k])
                TEST_FAIL("unit %d: event %d is %#x, expected %#x", i, j, seq[i][j],
                          k < 5 ? want[k] : 0);
            k++;
        }
        if (k != 5)
            TEST_FAIL("unit %d: saw %d of the 5 events", i, k);
    }
    CHECK(yields >= N);
    CHECK(!bad_query);
    CHECK_ABT(ABT_xstream_free(&xs[1]));
    CHECK_ABT(ABT_finalize());
    return 0;
}
