/* thread_unnamed_2xstreams: unnamed ULTs and tasklets pushed to a second execution
 * stream (ABT_thread_create_on_xstream / ABT_task_create_on_xstream with a NULL
 * output handle) all run and are freed automatically; ABT_xstream_join waits for
 * them; and handles of running unnamed ULTs obtained with ABT_self_get_thread report
 * ABT_thread_is_unnamed == ABT_TRUE. */
#include "test.h"
#include <stdatomic.h>

#define N 500
static atomic_int ult_runs, task_runs, unnamed_seen;

static void ult(void *arg)
{
    (void)arg;
    ABT_thread self;
    ABT_bool b;
    CHECK_ABT(ABT_self_get_thread(&self));
    CHECK_ABT(ABT_thread_is_unnamed(self, &b));
    if (b == ABT_TRUE)
        atomic_fetch_add(&unnamed_seen, 1);
    CHECK_ABT(ABT_thread_yield());
    atomic_fetch_add(&ult_runs, 1);
}
static void task(void *arg)
{
    (void)arg;
    atomic_fetch_add(&task_runs, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs2;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_thread_create_on_xstream(xs2, ult, NULL, ABT_THREAD_ATTR_NULL, NULL));
        CHECK_ABT(ABT_task_create_on_xstream(xs2, task, NULL, NULL));
    }
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_EQ_INT(atomic_load(&ult_runs), N);
    CHECK_EQ_INT(atomic_load(&task_runs), N);
    CHECK_EQ_INT(atomic_load(&unnamed_seen), N);
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
