/* thread_join_running: the main ULT joins a ULT that is running at that moment on a
 * second execution stream (the target is known to have started and keeps running
 * until the main ULT has announced the join); join returns only after the target
 * finished its work. */
#include "test.h"
#include <stdatomic.h>

static atomic_int started, go, finished;

static void func(void *arg)
{
    (void)arg;
    atomic_store(&started, 1);
    while (!atomic_load(&go))
        ; /* running, not yielding */
    /* A little more work after the main ULT entered (or is entering) the join. */
    for (int i = 0; i < 100; i++)
        CHECK_ABT(ABT_thread_yield());
    atomic_store(&finished, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs2;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create_on_xstream(xs2, func, NULL, ABT_THREAD_ATTR_NULL, &t));
    while (!atomic_load(&started))
        ;
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(t, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_RUNNING);
    atomic_store(&go, 1);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(atomic_load(&finished), 1);
    CHECK_ABT(ABT_thread_get_state(t, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
