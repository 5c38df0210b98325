/* Ids of threads that are gone: a second pthread_join of a joined thread and a
 * pthread_detach of it return ESRCH (as glibc does; POSIX leaves it undefined), also after
 * new threads may have taken over its record; joining a detached thread is EINVAL,
 * joining oneself EDEADLK, detaching twice EINVAL.  On glibc (the _glibc run) only the
 * defined cases are checked: a stale id is undefined behaviour there. */
#include "pth_test.h"

#include <signal.h>

static void *body(void *arg) { return arg; }

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int go;

static void *waiter(void *arg)
{
    pthread_mutex_lock(&lock);
    while (!go)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    return arg;
}

static void *join_self(void *arg) { return (void *)(long)pthread_join(pthread_self(), NULL); }

int main(void)
{
    int ours = pth_test_start();
    /* joined: every later use of its id is ESRCH */
    pthread_t t;
    void *ret;
    CHECK_RC(pthread_create(&t, NULL, body, (void *)7), 0);
    CHECK_RC(pthread_join(t, &ret), 0);
    CHECK(ret == (void *)7);
    if (ours) {
        CHECK_RC(pthread_join(t, &ret), ESRCH);
        CHECK_RC(pthread_detach(t), ESRCH);
        CHECK_RC(pthread_kill(t, 0), ESRCH);
        CHECK_RC(pthread_tryjoin_np(t, &ret), ESRCH);
        /* new threads (which may reuse its record) do not make the old id live again */
        pthread_t n[64];
        for (int round = 0; round < 4; round++) {
            for (long i = 0; i < 64; i++)
                CHECK_RC(pthread_create(&n[i], NULL, body, (void *)i), 0);
            for (long i = 0; i < 64; i++) {
                CHECK(!pthread_equal(n[i], t));
                CHECK_RC(pthread_join(t, &ret), ESRCH);
                CHECK_RC(pthread_detach(t), ESRCH);
                CHECK_RC(pthread_join(n[i], &ret), 0);
                CHECK(ret == (void *)i);
                CHECK_RC(pthread_join(n[i], &ret), ESRCH);
            }
        }
    }
    /* detached: joining it is EINVAL while it lives, detaching it again EINVAL */
    pthread_t d;
    go = 0;
    CHECK_RC(pthread_create(&d, NULL, waiter, NULL), 0);
    CHECK_RC(pthread_detach(d), 0);
    CHECK_RC(pthread_join(d, &ret), EINVAL);
    CHECK_RC(pthread_detach(d), EINVAL);
    CHECK_RC(pthread_kill(d, 0), 0);
    pthread_mutex_lock(&lock);
    go = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    /* a detached thread created so: EINVAL too */
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    go = 0;
    CHECK_RC(pthread_create(&d, &a, waiter, NULL), 0);
    pthread_attr_destroy(&a);
    CHECK_RC(pthread_join(d, &ret), EINVAL);
    pthread_mutex_lock(&lock);
    go = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    if (ours) {
        /* once it has finished and been reaped, its id is stale: ESRCH */
        for (int i = 0; i < 1000 && pthread_kill(d, 0) == 0; i++) {
            pthread_t x;
            CHECK_RC(pthread_create(&x, NULL, body, NULL), 0); /* reaps */
            CHECK_RC(pthread_join(x, NULL), 0);
            sched_yield();
        }
        CHECK_RC(pthread_kill(d, 0), ESRCH);
        CHECK_RC(pthread_join(d, &ret), ESRCH);
        CHECK_RC(pthread_detach(d), ESRCH);
    }
    /* joining oneself */
    CHECK_RC(pthread_join(pthread_self(), &ret), EDEADLK);
    CHECK_RC(pthread_create(&t, NULL, join_self, NULL), 0);
    CHECK_RC(pthread_join(t, &ret), 0);
    CHECK_EQ_INT((long)ret, EDEADLK);
    printf("stale ids: ESRCH; detached: EINVAL; self: EDEADLK\n");
    return 0;
}
