/* internal_poll_hook: a face's completion poller (src/core/sched/poll_hook.h) is called by an
 * idle scheduler, its idle bound wakes a sleeping stream that nobody notifies, and its
 * sleep function sleeps for the stream.  The "completion" is a flag that an external
 * thread sets without waking anyone: only the poll can notice it and wake the waiter. */
#define _GNU_SOURCE
#include "core/sched/poll_hook.h"

#include <abt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "arch/cpu.h"
#include "core/sched/idle.h"

#define CHECK(c)                                                          \
    do {                                                                  \
        if (!(c)) {                                                       \
            fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #c); \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

static _Atomic int completed; /* set by the "kernel" (an external thread) */
static _Atomic int polls, sleeps;
static ABT_eventual ev; /* the ULT's wait; set by the poll */
static _Atomic int delivered;
static _Atomic int use_sleep;

static bool poll_fn(void)
{
    atomic_fetch_add(&polls, 1);
    if (atomic_load(&completed) && !atomic_exchange(&delivered, 1)) {
        CHECK(ABT_eventual_set(ev, NULL, 0) == ABT_SUCCESS);
        return true;
    }
    return false;
}

static uint64_t idle_fn(void)
{
    /* something in flight until delivered: poll at least every millisecond */
    return atomic_load(&delivered) ? UINT64_MAX : 1000000u;
}

static bool sleep_fn(_Atomic uint32_t *word, uint64_t timeout_ns)
{
    if (!atomic_load(&use_sleep))
        return false;
    atomic_fetch_add(&sleeps, 1);
    weft_futex_wait(word, WEFT_IDLE_SLEEPING, timeout_ns);
    return true;
}

static const struct weft_poll_hook hook = {
    .name = "test", .poll = poll_fn, .idle_ns = idle_fn, .sleep = sleep_fn
};

static void *kernel(void *arg)
{
    (void)arg;
    usleep(20000);
    atomic_store(&completed, 1);
    return NULL;
}

static void waiter(void *arg)
{
    (void)arg;
    CHECK(ABT_eventual_wait(ev, NULL) == ABT_SUCCESS);
}

static void round_trip(ABT_pool pool)
{
    atomic_store(&completed, 0);
    atomic_store(&delivered, 0);
    CHECK(ABT_eventual_reset(ev) == ABT_SUCCESS);
    ABT_thread t;
    CHECK(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &t) == ABT_SUCCESS);
    pthread_t k;
    CHECK(pthread_create(&k, NULL, kernel, NULL) == 0);
    CHECK(ABT_thread_free(&t) == ABT_SUCCESS); /* joins: returns once the poll woke it */
    pthread_join(k, NULL);
    CHECK(atomic_load(&delivered) == 1);
}

int main(int argc, char **argv)
{
    CHECK(ABT_init(argc, argv) == ABT_SUCCESS);
    CHECK(weft_poll_hook_add(&hook) == 0);
    CHECK(weft_poll_hook_add(&hook) == 0); /* idempotent */
    CHECK(ABT_eventual_create(0, &ev) == ABT_SUCCESS);

    /* the waiter on a secondary stream, which goes to sleep; main joins from outside it */
    ABT_xstream xs;
    ABT_pool pool;
    CHECK(ABT_xstream_create(ABT_SCHED_NULL, &xs) == ABT_SUCCESS);
    CHECK(ABT_xstream_get_main_pools(xs, 1, &pool) == ABT_SUCCESS);
    round_trip(pool);
    CHECK(atomic_load(&polls) > 0);

    /* the same with the hook sleeping for the stream */
    atomic_store(&use_sleep, 1);
    round_trip(pool);
    CHECK(atomic_load(&sleeps) > 0);
    atomic_store(&use_sleep, 0);

    CHECK(ABT_xstream_join(xs) == ABT_SUCCESS);
    CHECK(ABT_xstream_free(&xs) == ABT_SUCCESS);
    CHECK(ABT_eventual_free(&ev) == ABT_SUCCESS);
    CHECK(ABT_finalize() == ABT_SUCCESS);
    printf("polls %d, sleeps in the hook %d\n", atomic_load(&polls), atomic_load(&sleeps));
    return 0;
}
