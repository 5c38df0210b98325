/* The error paths: self-join, tryjoin/timedjoin of a running thread, invalid times and
 * keys, names and attributes of a thread, signal 0; and what the layer refuses for a ULT
 * (cancellation, process-shared objects: ENOTSUP), which glibc accepts. */
#include "pth_test.h"

#include <limits.h>
#include <signal.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int release_it;

static void *waiter(void *arg)
{
    pthread_mutex_lock(&lock);
    while (!release_it)
        pthread_cond_wait(&cv, &lock);
    pthread_mutex_unlock(&lock);
    return arg;
}

static void release(void)
{
    pthread_mutex_lock(&lock);
    release_it = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&lock);
}

int main(void)
{
    int expect_ult = pth_test_start();
    CHECK_RC(pthread_join(pthread_self(), NULL), EDEADLK);

    pthread_attr_t a;
    CHECK_RC(pthread_attr_init(&a), 0);
    CHECK_RC(pthread_attr_setstacksize(&a, 128 << 10), 0);
    pthread_t t;
    CHECK_RC(pthread_create(&t, &a, waiter, &lock), 0);
    pthread_attr_destroy(&a);

    /* a running (blocked) thread */
    CHECK_RC(pthread_tryjoin_np(t, NULL), EBUSY);
    struct timespec d = pth_test_deadline(0.02);
    CHECK_RC(pthread_timedjoin_np(t, NULL, &d), ETIMEDOUT);
    CHECK_RC(pthread_kill(t, 0), 0);
    CHECK_RC(pthread_setname_np(t, "worker-1"), 0);
    char name[16];
    CHECK_RC(pthread_getname_np(t, name, sizeof name), 0);
    CHECK(strcmp(name, "worker-1") == 0);
    CHECK_RC(pthread_setname_np(t, "a name far too long for it"), ERANGE);
    pthread_attr_t got;
    CHECK_RC(pthread_getattr_np(t, &got), 0);
    size_t size = 0;
    CHECK_RC(pthread_attr_getstacksize(&got, &size), 0);
    CHECK(size >= (128 << 10));
    pthread_attr_destroy(&got);
    int policy = -1;
    struct sched_param sp;
    CHECK_RC(pthread_getschedparam(t, &policy, &sp), 0);
    CHECK_EQ_INT(policy, SCHED_OTHER);
    if (expect_ult) /* not supported for a ULT (documented); glibc would cancel it */
        CHECK_RC(pthread_cancel(t), ENOTSUP);
    release();
    void *ret = NULL;
    d = pth_test_deadline(TEST_PATIENCE_S);
    CHECK_RC(pthread_timedjoin_np(t, &ret, &d), 0);
    CHECK(ret == &lock);

    /* invalid times: EINVAL where the call would have to wait */
    struct timespec bad = { 0, 1000000000 };
    pthread_mutex_lock(&lock);
    CHECK_RC(pthread_cond_timedwait(&cv, &lock, &bad), EINVAL);
    pthread_mutex_unlock(&lock);
    if (expect_ult) {   /* (glibc waits forever on an invalid time here) */
        release_it = 0; /* (no thread runs now) */
        CHECK_RC(pthread_create(&t, NULL, waiter, NULL), 0);
        CHECK_RC(pthread_timedjoin_np(t, NULL, &bad), EINVAL);
        release();
        CHECK_RC(pthread_join(t, NULL), 0);
    }

    /* keys */
    CHECK_RC(pthread_key_delete(PTHREAD_KEYS_MAX + 5), EINVAL);
    CHECK_RC(pthread_setspecific(PTHREAD_KEYS_MAX + 5, &lock), EINVAL);
    pthread_key_t k;
    CHECK_RC(pthread_key_create(&k, NULL), 0);
    CHECK_RC(pthread_key_delete(k), 0);
    CHECK_RC(pthread_setspecific(k, &lock), EINVAL); /* deleted */

    /* process-shared objects cannot hold ULTs */
    pthread_mutexattr_t ma;
    pthread_mutex_t m;
    CHECK_RC(pthread_mutexattr_init(&ma), 0);
    CHECK_RC(pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED), 0);
    int rc = pthread_mutex_init(&m, &ma);
    CHECK_EQ_INT(rc, expect_ult ? ENOTSUP : 0);
    if (rc == 0)
        pthread_mutex_destroy(&m);
    pthread_mutexattr_destroy(&ma);
    pthread_condattr_t ca;
    pthread_cond_t c;
    CHECK_RC(pthread_condattr_init(&ca), 0);
    CHECK_RC(pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED), 0);
    rc = pthread_cond_init(&c, &ca);
    CHECK_EQ_INT(rc, expect_ult ? ENOTSUP : 0);
    if (rc == 0)
        pthread_cond_destroy(&c);
    pthread_condattr_destroy(&ca);
    printf("error paths as documented\n");
    return 0;
}
