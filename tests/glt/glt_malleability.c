/* glt_malleability: glt_thread_disable_id stops a thread after it ran its queued work
 * (its OS thread ends), work created for it waits in its pool until glt_thread_enable_id;
 * GLT_EVENT_STOP_XSTREAM ask callbacks can veto, act callbacks are told (rank as abt_arg),
 * GLT_EVENT_ADD_XSTREAM on enable; glt_thread_disable/enable for all; failure paths
 * (thread 0, own thread, bad ranks, bad callback ids).  GLT_NUM_THREADS=3 from ctest. */
#include "glt_test.h"

static int flag;
static void set_flag(void *arg) { __atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE); }

static int veto, asked, stopped_rank = -1, added_rank = -1, acts;
static GLT_bool ask_stop(void *user, void *abt_arg)
{
    CHECK(user == &asked);
    asked++;
    return veto ? GLT_FALSE : GLT_TRUE;
}
static GLT_bool act_stop(void *user, void *abt_arg)
{
    stopped_rank = (int)(intptr_t)abt_arg;
    acts++;
    return GLT_TRUE;
}
static GLT_bool act_add(void *user, void *abt_arg)
{
    added_rank = (int)(intptr_t)abt_arg;
    return GLT_TRUE;
}

static int own_rc;
static void disable_own(void *arg) { own_rc = glt_thread_disable_id(glt_get_thread_num()); }

int main(int argc, char **argv)
{
    CHECK_ERR(glt_thread_disable_id(1), ABT_ERR_UNINITIALIZED);
    CHECK_ABT(glt_init(argc, argv));
    CHECK_EQ_INT(glt_get_num_threads(), 3);
    int id_ask, id_add;
    CHECK_ABT(
        glt_event_add_callbac(GLT_EVENT_STOP_XSTREAM, ask_stop, &asked, act_stop, NULL, &id_ask));
    CHECK_ABT(glt_event_add_callback(GLT_EVENT_ADD_XSTREAM, NULL, NULL, act_add, NULL, &id_add));

    veto = 1;
    CHECK_ERR(glt_thread_disable_id(2), ABT_ERR_XSTREAM);
    CHECK_EQ_INT(asked, 1);
    CHECK_EQ_INT(acts, 0);
    veto = 0;
    CHECK_ABT(glt_thread_disable_id(2));
    CHECK_EQ_INT(asked, 2);
    CHECK_EQ_INT(stopped_rank, 2);
    ABT_xstream_state st;
    CHECK_ABT(ABT_xstream_get_state(glt_get_team()->team[2], &st));
    CHECK(st == ABT_XSTREAM_STATE_TERMINATED);
    CHECK_ABT(glt_thread_disable_id(2)); /* already disabled: nothing to do */
    CHECK_EQ_INT(asked, 2);

    /* work for thread 2 waits (its pool is its own) */
    GLT_ult u;
    CHECK_ABT(glt_ult_create_to(set_flag, &flag, &u, 2));
    for (int i = 0; i < 100; i++)
        glt_yield();
    CHECK_EQ_INT(__atomic_load_n(&flag, __ATOMIC_ACQUIRE), 0);
    CHECK_ABT(glt_thread_enable_id(2));
    CHECK_EQ_INT(added_rank, 2);
    CHECK_ABT(glt_ult_join(&u));
    CHECK_ABT(glt_ult_free(&u));
    CHECK_EQ_INT(flag, 1);
    CHECK_ABT(glt_thread_enable_id(2)); /* already enabled */

    /* all at once */
    acts = 0;
    CHECK_ABT(glt_thread_disable());
    CHECK_EQ_INT(acts, 2);
    CHECK_ABT(glt_thread_enable());
    flag = 0;
    CHECK_ABT(glt_ult_create_to(set_flag, &flag, &u, 1));
    CHECK_ABT(glt_ult_free(&u));
    CHECK_EQ_INT(flag, 1);

    /* failure paths */
    CHECK_ERR(glt_thread_disable_id(0), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(glt_thread_disable_id(3), ABT_ERR_INV_ARG);
    CHECK_ERR(glt_thread_enable_id(-1), ABT_ERR_INV_ARG);
    CHECK_ABT(glt_ult_create_to(disable_own, NULL, &u, 1));
    CHECK_ABT(glt_ult_free(&u));
    CHECK_EQ_INT(own_rc, ABT_ERR_INV_XSTREAM);
    CHECK_ERR(glt_event_del_callback(GLT_EVENT_ADD_XSTREAM, id_ask), ABT_ERR_INV_ARG);
    CHECK_ABT(glt_event_del_callback(GLT_EVENT_STOP_XSTREAM, id_ask));
    CHECK_ERR(glt_event_del_callback(GLT_EVENT_STOP_XSTREAM, id_ask), ABT_ERR_INV_ARG);
    CHECK_ABT(glt_event_del_callback(GLT_EVENT_ADD_XSTREAM, id_add));
    CHECK_ERR(glt_event_del_callback(GLT_EVENT_ADD_XSTREAM, 999), ABT_ERR_INV_ARG);

    /* disabled at finalize: finalize still frees it */
    CHECK_ABT(glt_thread_disable_id(1));
    CHECK_ABT(glt_finalize());
    printf("glt_malleability (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
