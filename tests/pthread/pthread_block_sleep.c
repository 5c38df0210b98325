/* The sleep family of a thread (a ULT under the layer parks: src/pthread/sleep.c) keeps
 * POSIX's results: nanosleep, usleep, sleep and clock_nanosleep (CLOCK_MONOTONIC,
 * CLOCK_REALTIME, CLOCK_BOOTTIME, CLOCK_TAI; relative and TIMER_ABSTIME) sleep at least
 * what was asked and return 0 (nanosleep leaves `rem` alone), a TIMER_ABSTIME deadline
 * that passed returns 0 at once.  And sleeping threads do not hold back their stream: 8
 * threads that each sleep 300 ms on WEFT_PTHREAD_STREAMS=1 finish in less than 8 x 300 ms
 * (2 s: a generous bound; the time is printed). */
#include "pth_test.h"

static int ours;

static double since(double t0) { return pth_test_now() - t0; }

static void *sleeper(void *arg)
{
    if (ours)
        CHECK(pth_test_is_ult());
    struct timespec d = { 0, 300000000 };
    CHECK_EQ_INT(nanosleep(&d, NULL), 0);
    return NULL;
}

static void *checks(void *arg)
{
    if (ours)
        CHECK(pth_test_is_ult());
    double t0 = pth_test_now();
    struct timespec d = { 0, 30000000 }, rem = { 7, 7 };
    CHECK_EQ_INT(nanosleep(&d, &rem), 0);
    CHECK(since(t0) >= 0.03);
    CHECK(rem.tv_sec == 7 && rem.tv_nsec == 7);

    t0 = pth_test_now();
    CHECK_EQ_INT(usleep(30000), 0);
    CHECK(since(t0) >= 0.03);

    t0 = pth_test_now();
    CHECK_EQ_INT(sleep(1), 0);
    CHECK(since(t0) >= 1.0);

    const clockid_t clocks[] = { CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME, CLOCK_TAI };
    for (int i = 0; i < 4; i++) {
        t0 = pth_test_now();
        CHECK_RC(clock_nanosleep(clocks[i], 0, &d, NULL), 0);
        CHECK(since(t0) >= 0.03);
        struct timespec abs, now;
        clock_gettime(clocks[i], &abs);
        abs.tv_nsec += 30000000;
        if (abs.tv_nsec >= 1000000000) {
            abs.tv_nsec -= 1000000000;
            abs.tv_sec++;
        }
        CHECK_RC(clock_nanosleep(clocks[i], TIMER_ABSTIME, &abs, NULL), 0);
        clock_gettime(clocks[i], &now);
        CHECK(now.tv_sec > abs.tv_sec || (now.tv_sec == abs.tv_sec && now.tv_nsec >= abs.tv_nsec));
        struct timespec past = { abs.tv_sec - 100, 0 };
        t0 = pth_test_now();
        CHECK_RC(clock_nanosleep(clocks[i], TIMER_ABSTIME, &past, NULL), 0);
        CHECK(since(t0) < 1.0);
    }
    return NULL;
}

int main(void)
{
    ours = pth_test_start();
    setenv("WEFT_PTHREAD_STREAMS", "1", 1); /* read when the layer's runtime starts */
    pthread_t t;
    CHECK_RC(pthread_create(&t, NULL, checks, NULL), 0);
    CHECK_RC(pthread_join(t, NULL), 0);
    checks(NULL); /* the main thread */

    enum { N = 8 };
    pthread_t ts[N];
    double t0 = pth_test_now();
    for (int i = 0; i < N; i++)
        CHECK_RC(pthread_create(&ts[i], NULL, sleeper, NULL), 0);
    for (int i = 0; i < N; i++)
        CHECK_RC(pthread_join(ts[i], NULL), 0);
    double took = since(t0);
    printf("%d threads sleeping 300 ms each took %.3f s\n", N, took);
    CHECK(took >= 0.3);
    CHECK(took < 2.0);
    return 0;
}
