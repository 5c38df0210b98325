/* relic_order: every submitted task runs exactly once, tasks run one at a time in
 * submission order (on the assistant, or on the main thread inside relic_wait: the order
 * counter is a plain variable both update), and relic_wait returns only after all of them
 * finished with their writes visible (plain, non-atomic writes checked after the wait). */
#include <stdatomic.h>

#include "relic_test.h"

#define BATCH 100 /* below the ring size: nothing runs inline */

static int seq_next; /* plain: tasks run one after the other */
static int *seq_of;  /* seq_of[i]: the order task i started in */
static int *ran;     /* ran[i]: times task i ran */
static pthread_t main_thread;
static _Atomic int on_main;

static void task(void *arg)
{
    int i = (int)(intptr_t)arg;
    if (pthread_equal(pthread_self(), main_thread))
        atomic_fetch_add(&on_main, 1);
    seq_of[i] = seq_next++;
    ran[i]++;
}

int main(void)
{
    int n = 50000 / test_scale_div();
    seq_of = calloc((size_t)n, sizeof *seq_of);
    ran = calloc((size_t)n, sizeof *ran);
    CHECK(seq_of && ran);
    main_thread = pthread_self();
    CHECK_RELIC(relic_init());
    relic_wake_up_hint();
    for (int b = 0; b < n; b += BATCH) {
        int e = b + BATCH < n ? b + BATCH : n;
        for (int i = b; i < e; i++)
            CHECK_RELIC(relic_submit(task, (void *)(intptr_t)i));
        CHECK_RELIC(relic_wait());
        for (int i = b; i < e; i++) { /* visible right after the wait */
            CHECK_EQ_INT(ran[i], 1);
            CHECK_EQ_INT(seq_of[i], i);
        }
    }
    printf("%d of %d tasks ran on the main thread, inside relic_wait\n", atomic_load(&on_main), n);
    /* A wait with nothing pending returns at once, and twice in a row is fine. */
    CHECK_RELIC(relic_wait());
    CHECK_RELIC(relic_wait());
    /* Finalize waits for what is still pending. */
    for (int i = 0; i < BATCH; i++) {
        ran[i] = 0;
        CHECK_RELIC(relic_submit(task, (void *)(intptr_t)i));
    }
    CHECK_RELIC(relic_finalize());
    for (int i = 0; i < BATCH; i++)
        CHECK_EQ_INT(ran[i], 1);
    free(seq_of);
    free(ran);
    return 0;
}
