/* glt_events: the ULT event kinds map to weft's tool interface: an act callback counts
 * CREATE and FINISH of ULTs, an ask callback filters, deleting stops the calls; the table
 * limit (GLT_EVENT_MAX_CALLBACKS) and bad arguments are reported.  With weft's tool
 * interface off (WEFT_ENABLE_TOOL) the ULT kinds answer GLT_ERR_NOT_SUPPORTED (checked
 * instead). */
#include "glt_test.h"

static int creates, finishes, filtered;
static GLT_ult only;
static GLT_bool on_create(void *user, void *abt_arg)
{
    __atomic_fetch_add(&creates, 1, __ATOMIC_RELAXED);
    return GLT_TRUE;
}
static GLT_bool on_finish(void *user, void *abt_arg)
{
    __atomic_fetch_add(&finishes, 1, __ATOMIC_RELAXED);
    return GLT_TRUE;
}
static GLT_bool is_only(void *user, void *abt_arg)
{
    return (GLT_ult)abt_arg == __atomic_load_n(&only, __ATOMIC_ACQUIRE);
}
static GLT_bool count_filtered(void *user, void *abt_arg)
{
    __atomic_fetch_add(&filtered, 1, __ATOMIC_RELAXED);
    return GLT_TRUE;
}
static void nop(void *arg) {}

static void run_ults(int k, int n)
{
    GLT_ult u[16];
    /* u[0] goes to thread 0 (this one: it runs when we join), and is published before
     * the others exist */
    CHECK_ABT(glt_ult_create_to(nop, NULL, &u[0], 0));
    __atomic_store_n(&only, u[0], __ATOMIC_RELEASE);
    for (int i = 1; i < k; i++)
        CHECK_ABT(glt_ult_create_to(nop, NULL, &u[i], i % n));
    for (int i = 0; i < k; i++)
        CHECK_ABT(glt_ult_free(&u[i]));
}

int main(int argc, char **argv)
{
    int id = 0;
    CHECK_ERR(glt_event_add_callbac(GLT_EVENT_ULT_CREATE, NULL, NULL, on_create, NULL, &id),
              ABT_ERR_UNINITIALIZED);
    CHECK_ABT(glt_init(argc, argv));
    int n = glt_get_num_threads();
    int tool = ABT_FALSE;
    CHECK_ABT(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_TOOL, &tool));
    if (!tool) {
        CHECK_ERR(glt_event_add_callbac(GLT_EVENT_ULT_CREATE, NULL, NULL, on_create, NULL, &id),
                  GLT_ERR_NOT_SUPPORTED);
        CHECK_ABT(glt_finalize());
        printf("glt_events (%s): tool interface off: not supported, ok\n", GLT_TEST_BUILD);
        return 0;
    }
    int idc, idf, idq;
    CHECK_ABT(glt_event_add_callbac(GLT_EVENT_ULT_CREATE, NULL, NULL, on_create, NULL, &idc));
    CHECK_ABT(glt_event_add_callback(GLT_EVENT_ULT_FINISH, NULL, NULL, on_finish, NULL, &idf));
    CHECK(idc != idf);
    run_ults(10, n);
    CHECK_EQ_INT(creates, 10);
    CHECK_EQ_INT(finishes, 10);
    CHECK_ABT(glt_event_del_callback(GLT_EVENT_ULT_CREATE, idc));
    run_ults(4, n);
    CHECK_EQ_INT(creates, 10);
    CHECK_EQ_INT(finishes, 14);
    CHECK_ABT(glt_event_del_callback(GLT_EVENT_ULT_FINISH, idf));

    /* ask filters: act runs only for the ULT the filter accepts (FINISH of u[0]) */
    CHECK_ABT(
        glt_event_add_callbac(GLT_EVENT_ULT_FINISH, is_only, NULL, count_filtered, NULL, &idq));
    run_ults(6, n);
    CHECK_EQ_INT(filtered, 1);
    CHECK_ABT(glt_event_del_callback(GLT_EVENT_ULT_FINISH, idq));

    /* table limit and bad arguments */
    int ids[GLT_EVENT_MAX_CALLBACKS];
    for (int i = 0; i < GLT_EVENT_MAX_CALLBACKS; i++)
        CHECK_ABT(glt_event_add_callbac(GLT_EVENT_ULT_RUN, NULL, NULL, on_create, NULL, &ids[i]));
    CHECK_ERR(glt_event_add_callbac(GLT_EVENT_ULT_RUN, NULL, NULL, on_create, NULL, &id),
              ABT_ERR_MEM);
    CHECK_EQ_INT(id, -1);
    for (int i = 0; i < GLT_EVENT_MAX_CALLBACKS; i++)
        CHECK_ABT(glt_event_del_callback(GLT_EVENT_ULT_RUN, ids[i]));
    CHECK_ERR(glt_event_add_callbac((GLT_event_kind)99, NULL, NULL, on_create, NULL, &id),
              ABT_ERR_INV_ARG);
    CHECK_ERR(glt_event_add_callbac(GLT_EVENT_ULT_RUN, NULL, NULL, NULL, NULL, &id),
              ABT_ERR_INV_ARG);
    CHECK_ERR(glt_event_add_callbac(GLT_EVENT_ULT_RUN, NULL, NULL, on_create, NULL, NULL),
              ABT_ERR_INV_ARG);
    CHECK_ERR(glt_event_del_callback(GLT_EVENT_ULT_RUN, -1), ABT_ERR_INV_ARG);
    /* a registration left at glt_finalize is removed there */
    CHECK_ABT(glt_event_add_callbac(GLT_EVENT_ULT_CREATE, NULL, NULL, on_create, NULL, &id));
    CHECK_ABT(glt_finalize());
    printf("glt_events (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
