/* thread_get_id: every work unit has an ID; IDs of distinct live ULTs and tasklets
 * are distinct; repeated queries return the same value; ABT_thread_self_id /
 * ABT_self_get_thread_id / ABT_task_self_id inside a work unit equal ABT_thread_get_id
 * / ABT_task_get_id from outside.  NULL handles: ABT_ERR_INV_THREAD / _INV_TASK. */
#include "test.h"

#define N 64
static ABT_unit_id inside[N];

static void ult(void *arg)
{
    int i = (int)(intptr_t)arg;
    ABT_unit_id a, b;
    CHECK_ABT(ABT_thread_self_id(&a));
    CHECK_ABT(ABT_self_get_thread_id(&b));
    CHECK_EQ_INT(a, b);
    inside[i] = a;
}

static void tasklet(void *arg)
{
    int i = (int)(intptr_t)arg;
    ABT_unit_id a, b;
    CHECK_ABT(ABT_task_self_id(&a));
    CHECK_ABT(ABT_self_get_task_id(&b));
    CHECK_EQ_INT(a, b);
    inside[i] = a;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread t[N];
    for (int i = 0; i < N; i++) {
        if (i % 2)
            CHECK_ABT(ABT_task_create(pool, tasklet, (void *)(intptr_t)i, &t[i]));
        else
            CHECK_ABT(
                ABT_thread_create(pool, ult, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &t[i]));
    }
    ABT_unit_id ids[N + 1];
    for (int i = 0; i < N; i++) {
        if (i % 2)
            CHECK_ABT(ABT_task_get_id(t[i], &ids[i]));
        else
            CHECK_ABT(ABT_thread_get_id(t[i], &ids[i]));
    }
    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_get_id(self, &ids[N]));
    ABT_unit_id main_id;
    CHECK_ABT(ABT_thread_self_id(&main_id));
    CHECK_EQ_INT(main_id, ids[N]);
    for (int i = 0; i <= N; i++)
        for (int j = i + 1; j <= N; j++)
            CHECK(ids[i] != ids[j]);

    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_join(t[i]));
    for (int i = 0; i < N; i++) {
        CHECK_EQ_INT(inside[i], ids[i]);
        ABT_unit_id again;
        CHECK_ABT(ABT_thread_get_id(t[i], &again));
        CHECK_EQ_INT(again, ids[i]);
        CHECK_ABT(ABT_thread_free(&t[i]));
    }

    ABT_unit_id id;
    CHECK_ERR(ABT_thread_get_id(ABT_THREAD_NULL, &id), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_task_get_id(ABT_TASK_NULL, &id), ABT_ERR_INV_TASK);
    CHECK_ABT(ABT_finalize());
    return 0;
}
