/* relic_full_ring: with the assistant held inside a task, the ring takes exactly
 * RELIC_RING_SIZE tasks (the running one keeps its slot until it finishes); every further
 * submit runs its task inline, in the caller, before returning; once released the queued
 * ones run in order (on the assistant, or on the main thread inside relic_wait), and
 * nothing is lost or run twice. */
#include <stdatomic.h>

#include "relic_test.h"

#define EXTRA 10

static _Atomic int gate; /* 1: the first task may finish */
static _Atomic int started;
static pthread_t main_thread;
static _Atomic int submitting; /* 1: the main thread is in its submit loops */
static int ran[RELIC_RING_SIZE + EXTRA];
static int inline_ran[RELIC_RING_SIZE + EXTRA];
static int seq_next, seq_of[RELIC_RING_SIZE + EXTRA];

static void blocker(void *arg)
{
    atomic_store(&started, 1);
    while (!atomic_load(&gate))
        ;
    ran[0]++;
    seq_of[0] = seq_next++;
}

static void task(void *arg)
{
    int i = (int)(intptr_t)arg;
    if (pthread_equal(pthread_self(), main_thread) && atomic_load(&submitting)) {
        inline_ran[i]++;
        return;
    }
    ran[i]++;
    seq_of[i] = seq_next++;
}

int main(void)
{
    main_thread = pthread_self();
    for (int round = 0; round < 3; round++) {
        memset(ran, 0, sizeof ran);
        memset(inline_ran, 0, sizeof inline_ran);
        seq_next = 0;
        atomic_store(&gate, 0);
        atomic_store(&started, 0);
        if (round == 0)
            CHECK_RELIC(relic_init());
        if (round == 2)
            relic_sleep_hint(); /* same behaviour with a sleeping assistant */
        atomic_store(&submitting, 1);
        CHECK_RELIC(relic_submit(blocker, NULL));
        while (!atomic_load(&started))
            ;
        for (int i = 1; i < RELIC_RING_SIZE; i++)
            CHECK_RELIC(relic_submit(task, (void *)(intptr_t)i));
        for (int i = 1; i < RELIC_RING_SIZE; i++)
            CHECK_EQ_INT(inline_ran[i], 0);
        /* The ring is full: each of these runs here, now. */
        for (int i = RELIC_RING_SIZE; i < RELIC_RING_SIZE + EXTRA; i++) {
            CHECK_RELIC(relic_submit(task, (void *)(intptr_t)i));
            CHECK_EQ_INT(inline_ran[i], 1);
        }
        atomic_store(&submitting, 0);
        atomic_store(&gate, 1);
        CHECK_RELIC(relic_wait());
        for (int i = 0; i < RELIC_RING_SIZE; i++) {
            CHECK_EQ_INT(ran[i], 1);
            CHECK_EQ_INT(seq_of[i], i);
        }
        for (int i = RELIC_RING_SIZE; i < RELIC_RING_SIZE + EXTRA; i++)
            CHECK_EQ_INT(ran[i], 0);
    }
    CHECK_RELIC(relic_finalize());
    return 0;
}
