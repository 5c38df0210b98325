/* thread_self: ABT_thread_self returns the handle that ABT_thread_create produced (in
 * a ULT on the primary and on a second xstream) and the primary ULT's own handle in
 * main; ABT_thread_self_id equals ABT_thread_get_id of that handle and is stable.
 * In a tasklet both return ABT_ERR_INV_THREAD (and the handle is set to
 * ABT_THREAD_NULL); from an external thread ABT_ERR_INV_XSTREAM; before ABT_init
 * ABT_ERR_UNINITIALIZED. */
#include "test.h"
#include <pthread.h>

static ABT_thread seen[2];
static ABT_unit_id seen_id[2];

static void func(void *arg)
{
    int i = (int)(intptr_t)arg;
    CHECK_ABT(ABT_thread_self(&seen[i]));
    CHECK_ABT(ABT_thread_self_id(&seen_id[i]));
    ABT_unit_id again;
    CHECK_ABT(ABT_thread_yield());
    CHECK_ABT(ABT_thread_self_id(&again));
    CHECK_EQ_INT(again, seen_id[i]);
    ABT_thread t2;
    CHECK_ABT(ABT_thread_self(&t2));
    CHECK(t2 == seen[i]);
}

static int task_rc1 = -1, task_rc2 = -1, task_handle_null;
static void task_func(void *arg)
{
    (void)arg;
    ABT_thread t = (ABT_thread)&t;
    ABT_unit_id id;
    task_rc1 = ABT_thread_self(&t);
    task_handle_null = (t == ABT_THREAD_NULL);
    task_rc2 = ABT_thread_self_id(&id);
}

static void *ext(void *arg)
{
    (void)arg;
    ABT_thread t;
    ABT_unit_id id;
    CHECK_ERR(ABT_thread_self(&t), ABT_ERR_INV_XSTREAM);
    CHECK(t == ABT_THREAD_NULL);
    CHECK_ERR(ABT_thread_self_id(&id), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    ABT_thread t0;
    ABT_unit_id id0;
    CHECK_ERR(ABT_thread_self(&t0), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_self_id(&id0), ABT_ERR_UNINITIALIZED);
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, xs2;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));

    ABT_thread main_t;
    CHECK_ABT(ABT_thread_self(&main_t));
    CHECK(main_t != ABT_THREAD_NULL);
    ABT_thread main_t2;
    CHECK_ABT(ABT_self_get_thread(&main_t2));
    CHECK(main_t == main_t2);
    ABT_unit_id main_id, main_id2;
    CHECK_ABT(ABT_thread_self_id(&main_id));
    CHECK_ABT(ABT_thread_get_id(main_t, &main_id2));
    CHECK_EQ_INT(main_id, main_id2);

    ABT_thread t[2];
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0, ABT_THREAD_ATTR_NULL, &t[0]));
    CHECK_ABT(ABT_thread_create_on_xstream(xs2, func, (void *)1, ABT_THREAD_ATTR_NULL, &t[1]));
    for (int i = 0; i < 2; i++) {
        CHECK_ABT(ABT_thread_join(t[i]));
        CHECK(seen[i] == t[i]);
        ABT_unit_id id;
        CHECK_ABT(ABT_thread_get_id(t[i], &id));
        CHECK_EQ_INT(id, seen_id[i]);
        CHECK(id != main_id);
    }
    CHECK(seen_id[0] != seen_id[1]);
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));

    ABT_task task;
    CHECK_ABT(ABT_task_create(pool, task_func, NULL, &task));
    CHECK_ABT(ABT_task_free(&task));
    CHECK_EQ_INT(task_rc1, ABT_ERR_INV_THREAD);
    CHECK(task_handle_null);
    CHECK_EQ_INT(task_rc2, ABT_ERR_INV_THREAD);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
