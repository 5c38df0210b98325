/* relic_misuse: each misuse is refused with its documented code and changes nothing:
 * calls from inside a task (the assistant), a handle used from a thread that does not own
 * it, NULL arguments, relic_destroy on the thread-bound Relic. */
#include <stdatomic.h>

#include "relic_test.h"

static int from_task[8];
static relic_t handle;

static void noop(void *arg) { (void)arg; }

static void misuse_in_task(void *arg)
{
    from_task[0] = relic_submit(noop, NULL);
    from_task[1] = relic_wait();
    from_task[2] = relic_init();
    from_task[3] = relic_finalize();
    from_task[4] = relic_submit_on(handle, noop, NULL);
    from_task[5] = relic_wait_on(handle);
    relic_t h = (relic_t)&from_task; /* must stay untouched on error... */
    from_task[6] = relic_create(&h);
    from_task[7] = h == NULL; /* ...except *out, set to NULL */
}

static int from_other[4];

static void *other_thread(void *arg)
{
    from_other[0] = relic_submit_on(handle, noop, NULL);
    from_other[1] = relic_wait_on(handle);
    from_other[2] = relic_destroy(handle);
    from_other[3] = relic_wait(); /* this thread has no Relic of its own */
    relic_sleep_hint_on(handle);  /* ignored */
    return NULL;
}

static void inc(void *arg) { (*(int *)arg)++; }

int main(void)
{
    CHECK_RELIC(relic_init());
    CHECK_RELIC(relic_create(&handle));
    CHECK_RELIC(relic_submit(misuse_in_task, NULL));
    CHECK_RELIC(relic_wait());
    CHECK_RELIC_ERR(from_task[0], RELIC_ERR_ASSISTANT);
    CHECK_RELIC_ERR(from_task[1], RELIC_ERR_ASSISTANT);
    CHECK_RELIC_ERR(from_task[2], RELIC_ERR_ASSISTANT);
    CHECK_RELIC_ERR(from_task[3], RELIC_ERR_ASSISTANT);
    CHECK_RELIC_ERR(from_task[4], RELIC_ERR_ASSISTANT);
    CHECK_RELIC_ERR(from_task[5], RELIC_ERR_ASSISTANT);
    CHECK_RELIC_ERR(from_task[6], RELIC_ERR_ASSISTANT);
    CHECK_EQ_INT(from_task[7], 1);

    /* The same from the handle's assistant. */
    memset(from_task, 0, sizeof from_task);
    CHECK_RELIC(relic_submit_on(handle, misuse_in_task, NULL));
    CHECK_RELIC(relic_wait_on(handle));
    CHECK_RELIC_ERR(from_task[0], RELIC_ERR_ASSISTANT);
    CHECK_RELIC_ERR(from_task[4], RELIC_ERR_ASSISTANT);
    CHECK_RELIC_ERR(from_task[5], RELIC_ERR_ASSISTANT);

    pthread_t th;
    CHECK(pthread_create(&th, NULL, other_thread, NULL) == 0);
    pthread_join(th, NULL);
    CHECK_RELIC_ERR(from_other[0], RELIC_ERR_THREAD);
    CHECK_RELIC_ERR(from_other[1], RELIC_ERR_THREAD);
    CHECK_RELIC_ERR(from_other[2], RELIC_ERR_THREAD);
    CHECK_RELIC_ERR(from_other[3], RELIC_ERR_NOT_INIT);

    CHECK_RELIC_ERR(relic_submit(NULL, NULL), RELIC_ERR_INVALID);
    CHECK_RELIC_ERR(relic_submit_on(handle, NULL, NULL), RELIC_ERR_INVALID);
    CHECK_RELIC_ERR(relic_submit_on(NULL, noop, NULL), RELIC_ERR_INVALID);
    CHECK_RELIC_ERR(relic_wait_on(NULL), RELIC_ERR_INVALID);
    CHECK_RELIC_ERR(relic_destroy(NULL), RELIC_ERR_INVALID);
    CHECK_RELIC_ERR(relic_create(NULL), RELIC_ERR_INVALID);
    CHECK_RELIC_ERR(relic_destroy(relic_self()), RELIC_ERR_INVALID);
    CHECK(relic_assistant_cpu(NULL) == -1);
    CHECK(strcmp(relic_strerror(RELIC_ERR_THREAD), "RELIC_ERR_THREAD") == 0);
    CHECK(strcmp(relic_strerror(12345), "unknown") == 0);

    /* Both still work after all that. */
    int x = 0, y = 0;
    CHECK_RELIC(relic_submit(inc, &x));
    CHECK_RELIC(relic_submit_on(handle, inc, &y));
    CHECK_RELIC(relic_wait());
    CHECK_RELIC(relic_wait_on(handle));
    CHECK_EQ_INT(x, 1);
    CHECK_EQ_INT(y, 1);
    CHECK_RELIC(relic_destroy(handle));
    CHECK_RELIC(relic_finalize());
    return 0;
}
