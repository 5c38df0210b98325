/* Threads return values through pthread_join and pthread_exit; pthread_self and
 * pthread_equal tell them apart; under weft every one ran as a ULT, on no more OS
 * threads than the layer has streams. */
#include "pth_test.h"

#include <stdint.h>

#define N 200

static pthread_t ids[N];
static pid_t tids[N];
static int ult[N];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static int started;

static void *body(void *arg)
{
    intptr_t i = (intptr_t)arg;
    tids[i] = gettid();
    ult[i] = pth_test_is_ult();
    ids[i] = pthread_self();
    /* all N are alive at once: each waits for the last one */
    pthread_mutex_lock(&lock);
    if (++started == N)
        pthread_cond_broadcast(&go);
    while (started < N)
        pthread_cond_wait(&go, &lock);
    pthread_mutex_unlock(&lock);
    if (i % 2)
        pthread_exit((void *)(i * 3)); /* ends this thread only */
    return (void *)(i * 3);
}

int main(void)
{
    int expect_ult = pth_test_start();
    /* the OS threads counted below are the streams': no spare thread (a time slice could
     * hand a stream to one while the main thread creates) */
    setenv("WEFT_PTHREAD_PREEMPT_US", "0", 1);
    pthread_t t[N];
    pthread_t self = pthread_self();
    CHECK(pthread_equal(self, pthread_self()));
    for (intptr_t i = 0; i < N; i++)
        CHECK_RC(pthread_create(&t[i], NULL, body, (void *)i), 0);
    for (intptr_t i = 0; i < N; i++) {
        void *ret = NULL;
        CHECK_RC(pthread_join(t[i], &ret), 0);
        CHECK_EQ_INT((intptr_t)ret, i * 3);
        CHECK(pthread_equal(t[i], ids[i]));
        CHECK(!pthread_equal(t[i], self));
    }
    CHECK(pthread_equal(self, pthread_self())); /* the main thread keeps its id */
    int distinct = 0;
    for (int i = 0; i < N; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= tids[j] == tids[i];
        distinct += !seen;
    }
    if (expect_ult) {
        CHECK(pth_test_is_ult()); /* the main thread is the primary ULT */
        for (int i = 0; i < N; i++)
            CHECK(ult[i]);
        const char *s = getenv("WEFT_PTHREAD_STREAMS");
        int streams = s ? atoi(s) : (int)sysconf(_SC_NPROCESSORS_ONLN);
        if (distinct > streams)
            TEST_FAIL("%d threads alive at once ran on %d OS threads (streams: %d)", N, distinct,
                      streams);
    }
    printf("joined %d threads on %d OS threads\n", N, distinct);
    return 0;
}
