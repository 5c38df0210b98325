/* More threads than any OS would like, all alive at once (each blocks on a barrier until
 * the last one arrives), run on WEFT_PTHREAD_STREAMS OS threads: under the layer they
 * are ULTs; the result is checked in every mode. */
#include "pth_test.h"

#include <stdatomic.h>
#include <stdint.h>

static pthread_barrier_t bar;
static pid_t *tids;
static atomic_long sum;

static void *body(void *arg)
{
    intptr_t i = (intptr_t)arg;
    tids[i] = gettid();
    pthread_barrier_wait(&bar);
    atomic_fetch_add(&sum, i);
    return NULL;
}

int main(void)
{
    int expect_ult = pth_test_start();
    /* the OS threads counted below are the streams': no spare thread (a time slice could
     * hand a stream to one while the main thread creates) */
    setenv("WEFT_PTHREAD_PREEMPT_US", "0", 1);
    int n = expect_ult ? 3000 / pth_test_scale() : 200;
    tids = calloc(n, sizeof *tids);
    pthread_t *t = calloc(n, sizeof *t);
    CHECK(tids && t);
    pthread_attr_t a;
    CHECK_RC(pthread_attr_init(&a), 0);
    CHECK_RC(pthread_attr_setstacksize(&a, 64 << 10), 0); /* honoured: a ULT stack */
    CHECK_RC(pthread_barrier_init(&bar, NULL, n), 0);
    for (intptr_t i = 0; i < n; i++)
        CHECK_RC(pthread_create(&t[i], &a, body, (void *)i), 0);
    for (int i = 0; i < n; i++)
        CHECK_RC(pthread_join(t[i], NULL), 0);
    CHECK_EQ_INT(atomic_load(&sum), (long)n * (n - 1) / 2);
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = tids[j] == tids[i];
        distinct += !seen;
    }
    if (expect_ult) {
        const char *s = getenv("WEFT_PTHREAD_STREAMS");
        int streams = s ? atoi(s) : (int)sysconf(_SC_NPROCESSORS_ONLN);
        if (distinct > streams)
            TEST_FAIL("%d threads ran on %d OS threads (streams: %d)", n, distinct, streams);
    }
    pthread_barrier_destroy(&bar);
    pthread_attr_destroy(&a);
    free(tids);
    free(t);
    printf("%d threads alive at once on %d OS threads\n", n, distinct);
    return 0;
}
