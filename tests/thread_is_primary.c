/* thread_is_primary: main ULT identity.  In main after ABT_init, ABT_self_is_primary
 * and ABT_thread_is_primary(self) are ABT_TRUE and ABT_self_on_primary_xstream is
 * ABT_TRUE; a ULT sees ABT_FALSE for itself but ABT_TRUE when asking about the main
 * ULT's handle; a tasklet gets ABT_ERR_INV_THREAD from ABT_self_is_primary (with
 * the output set to ABT_FALSE).  Before ABT_init: ABT_ERR_UNINITIALIZED, ABT_FALSE. */
#include "test.h"

static ABT_thread primary;
static ABT_bool ult_self = 9, ult_of_primary = 9, ult_thread_self = 9;
static ABT_bool task_out = 9;
static int task_rc = -1;

static void func(void *arg)
{
    (void)arg;
    ABT_thread me;
    CHECK_ABT(ABT_self_is_primary(&ult_self));
    CHECK_ABT(ABT_thread_is_primary(primary, &ult_of_primary));
    CHECK_ABT(ABT_thread_self(&me));
    CHECK_ABT(ABT_thread_is_primary(me, &ult_thread_self));
}

static void task_func(void *arg)
{
    (void)arg;
    task_rc = ABT_self_is_primary(&task_out);
}

int main(int argc, char **argv)
{
    ABT_bool b = 9;
    CHECK_ERR(ABT_self_is_primary(&b), ABT_ERR_UNINITIALIZED);
    CHECK_EQ_INT(b, ABT_FALSE);

    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    CHECK_ABT(ABT_self_is_primary(&b));
    CHECK_EQ_INT(b, ABT_TRUE);
    CHECK_ABT(ABT_self_on_primary_xstream(&b));
    CHECK_EQ_INT(b, ABT_TRUE);
    CHECK_ABT(ABT_thread_self(&primary));
    b = 9;
    CHECK_ABT(ABT_thread_is_primary(primary, &b));
    CHECK_EQ_INT(b, ABT_TRUE);

    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    b = 9;
    CHECK_ABT(ABT_thread_is_primary(t, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(ult_self, ABT_FALSE);
    CHECK_EQ_INT(ult_of_primary, ABT_TRUE);
    CHECK_EQ_INT(ult_thread_self, ABT_FALSE);

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, task_func, NULL, &k));
    b = 9;
    CHECK_ABT(ABT_thread_is_primary(k, &b));
    CHECK_EQ_INT(b, ABT_FALSE);
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(task_rc, ABT_ERR_INV_THREAD);
    CHECK_EQ_INT(task_out, ABT_FALSE);

    CHECK_ERR(ABT_thread_is_primary(ABT_THREAD_NULL, &b), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_finalize());
    return 0;
}
