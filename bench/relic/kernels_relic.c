/* bench/relic/kernels_relic.c - the paper's kernels (kernels.h) on Relic: the main thread
 * submits one instance to its assistant, runs the other, waits.  The main thread is pinned
 * to the CPU it starts on (the paper binds both threads; Relic pins the assistant to its
 * SMT sibling, or to a nearby core on a machine without SMT), and the assistant is told to
 * spin for the whole measurement (relic_wake_up_hint). */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <relic.h>
#include <sched.h>

#include "kernels.h"

static void fw_run(void (*body)(void *), void *ctx)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    int err = relic_init();
    if (err != RELIC_SUCCESS) {
        fprintf(stderr, "relic_init: %s\n", relic_strerror(err));
        exit(1);
    }
    relic_wake_up_hint();
    body(ctx);
    relic_sleep_hint();
    relic_finalize();
}

static void fw_pair(kern_fn fn, void *a, void *b)
{
    relic_submit(fn, a);
    fn(b);
    relic_wait();
}
