/* A bounded producer/consumer queue on a static mutex and two condition variables
 * (signal and broadcast), every item consumed exactly once; pthread_cond_timedwait times
 * out with ETIMEDOUT on CLOCK_REALTIME and on a CLOCK_MONOTONIC condition variable. */
#include "pth_test.h"

#include <stdint.h>

#define CAP       8
#define PRODUCERS 4
#define CONSUMERS 4

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static long queue[CAP];
static int head, count, producers_left = PRODUCERS;
static int per_producer;
static long consumed_sum, consumed_n;
static int expect_ult;

static void *producer(void *arg)
{
    long base = (intptr_t)arg * 1000000;
    if (expect_ult)
        CHECK(pth_test_is_ult());
    for (int i = 1; i <= per_producer; i++) {
        pthread_mutex_lock(&lock);
        while (count == CAP)
            pthread_cond_wait(&not_full, &lock);
        queue[(head + count++) % CAP] = base + i;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    if (--producers_left == 0)
        pthread_cond_broadcast(&not_empty); /* consumers: no more items */
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void *consumer(void *arg)
{
    long sum = 0, n = 0;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (count == 0 && producers_left > 0)
            pthread_cond_wait(&not_empty, &lock);
        if (count == 0) {
            pthread_mutex_unlock(&lock);
            break;
        }
        sum += queue[head];
        head = (head + 1) % CAP;
        count--;
        n++;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    consumed_sum += sum;
    consumed_n += n;
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void *timed_waiter(void *arg)
{
    pthread_cond_t *cv = arg;
    pthread_mutex_lock(&lock);
    double t0 = pth_test_now();
    struct timespec d;
    if (cv == &not_full) {
        d = pth_test_deadline(0.03);
    } else {
        clock_gettime(CLOCK_MONOTONIC, &d);
        d.tv_nsec += 30000000;
        if (d.tv_nsec >= 1000000000)
            d.tv_sec++, d.tv_nsec -= 1000000000;
    }
    int rc = pthread_cond_timedwait(cv, &lock, &d);
    double waited = pth_test_now() - t0;
    pthread_mutex_unlock(&lock);
    CHECK_RC(rc, ETIMEDOUT);
    CHECK(waited >= 0.025);
    return NULL;
}

int main(void)
{
    expect_ult = pth_test_start();
    per_producer = 5000 / pth_test_scale();
    pthread_t p[PRODUCERS], c[CONSUMERS];
    for (intptr_t i = 0; i < CONSUMERS; i++)
        CHECK_RC(pthread_create(&c[i], NULL, consumer, NULL), 0);
    for (intptr_t i = 0; i < PRODUCERS; i++)
        CHECK_RC(pthread_create(&p[i], NULL, producer, (void *)(i + 1)), 0);
    for (int i = 0; i < PRODUCERS; i++)
        CHECK_RC(pthread_join(p[i], NULL), 0);
    for (int i = 0; i < CONSUMERS; i++)
        CHECK_RC(pthread_join(c[i], NULL), 0);
    long expect_sum = 0;
    for (long k = 1; k <= PRODUCERS; k++)
        expect_sum += k * 1000000 * per_producer + (long)per_producer * (per_producer + 1) / 2;
    CHECK_EQ_INT(consumed_n, (long)PRODUCERS * per_producer);
    CHECK_EQ_INT(consumed_sum, expect_sum);

    /* timed waits that nobody signals */
    pthread_condattr_t ca;
    pthread_cond_t mono;
    CHECK_RC(pthread_condattr_init(&ca), 0);
    CHECK_RC(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC), 0);
    CHECK_RC(pthread_cond_init(&mono, &ca), 0);
    pthread_condattr_destroy(&ca);
    pthread_t t1, t2;
    CHECK_RC(pthread_create(&t1, NULL, timed_waiter, &not_full), 0);
    CHECK_RC(pthread_create(&t2, NULL, timed_waiter, &mono), 0);
    CHECK_RC(pthread_join(t1, NULL), 0);
    CHECK_RC(pthread_join(t2, NULL), 0);
    struct timespec bad = { 0, 2000000000 };
    pthread_mutex_lock(&lock);
    CHECK_RC(pthread_cond_timedwait(&mono, &lock, &bad), EINVAL);
    pthread_mutex_unlock(&lock);
    CHECK_RC(pthread_cond_destroy(&mono), 0);
    printf("consumed %ld items; timed waits timed out\n", consumed_n);
    return 0;
}
