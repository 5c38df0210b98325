/* A thread that is not a ULT (glibc's SIGEV_THREAD timer thread) shares a mutex and a
 * condition variable with ULTs: it waits on a futex where a ULT would park, and wakes a
 * waiting ULT.  Its own pthread_self, keys and pthread_create are the real ones (a thread
 * it creates is an OS thread, which it joins). */
#include "pth_test.h"

#include <signal.h>
#include <stdint.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int stage; /* 1: the external thread holds `lock`; 2: it signalled; 3: ULT replied */
static int ext_is_ult = -1, child_is_ult = -1, ext_ok;
static pthread_key_t key;
static int expect_ult;

static void *child(void *arg)
{
    child_is_ult = pth_test_is_ult();
    return (void *)(intptr_t)7;
}

static void notify(union sigval v)
{
    ext_is_ult = pth_test_is_ult();
    CHECK_RC(pthread_setspecific(key, &stage), 0);
    CHECK(pthread_getspecific(key) == &stage);
    pthread_t c;
    void *ret = NULL;
    CHECK_RC(pthread_create(&c, NULL, child, NULL), 0);
    CHECK_RC(pthread_join(c, &ret), 0);
    CHECK((intptr_t)ret == 7);
    pthread_mutex_lock(&lock); /* held by a ULT for a while: the external thread sleeps */
    stage = 2;
    pthread_cond_broadcast(&cv);
    while (stage != 3) {
        struct timespec d = pth_test_deadline(TEST_PATIENCE_S);
        CHECK_RC(pthread_cond_timedwait(&cv, &lock, &d), 0); /* woken by a ULT */
    }
    ext_ok = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&lock);
}

static void *ult_body(void *arg)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < 20; i++)
        sched_yield(); /* hold the lock while the timer fires */
    while (stage != 2) {
        struct timespec d = pth_test_deadline(TEST_PATIENCE_S);
        CHECK_RC(pthread_cond_timedwait(&cv, &lock, &d), 0);
    }
    stage = 3;
    pthread_cond_broadcast(&cv);
    while (!ext_ok) {
        struct timespec d = pth_test_deadline(TEST_PATIENCE_S);
        CHECK_RC(pthread_cond_timedwait(&cv, &lock, &d), 0);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void)
{
    expect_ult = pth_test_start();
    CHECK_RC(pthread_key_create(&key, NULL), 0);
    pthread_t t;
    CHECK_RC(pthread_create(&t, NULL, ult_body, NULL), 0);
    struct sigevent sev = { 0 };
    sev.sigev_notify = SIGEV_THREAD;
    sev.sigev_notify_function = notify;
    timer_t timer;
    CHECK_RC(timer_create(CLOCK_MONOTONIC, &sev, &timer), 0);
    struct itimerspec its = { .it_value = { 0, 1000000 } };
    CHECK_RC(timer_settime(timer, 0, &its, NULL), 0);
    CHECK_RC(pthread_join(t, NULL), 0);
    CHECK_EQ_INT(ext_ok, 1);
    CHECK_EQ_INT(ext_is_ult, 0);
    CHECK_EQ_INT(child_is_ult, 0);
    CHECK(pthread_getspecific(key) == NULL); /* the external thread's value was its own */
    timer_delete(timer);
    printf("external thread and ULT synchronized through one mutex and cond\n");
    return 0;
}
