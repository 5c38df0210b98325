/* Normal, recursive and errorcheck mutexes, static initialisers and pthread_mutex_init:
 * mutual exclusion under contention, recursion depth, the errorcheck error codes,
 * trylock EBUSY, timedlock ETIMEDOUT while another thread holds the mutex. */
#include "pth_test.h"

static pthread_mutex_t normal = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t rec_static = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_mutex_t err_static = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
static pthread_mutex_t rec, err;
static long counter;
static int iters;
static int expect_ult;

static void *contend(void *arg)
{
    pthread_mutex_t *m = arg;
    if (expect_ult)
        CHECK(pth_test_is_ult());
    for (int i = 0; i < iters; i++) {
        CHECK_RC(pthread_mutex_lock(m), 0);
        if (m == &rec || m == &rec_static)
            CHECK_RC(pthread_mutex_lock(m), 0); /* depth 2 */
        long c = counter;
        if (i % 16 == 0)
            sched_yield(); /* switch while holding it */
        counter = c + 1;
        if (m == &rec || m == &rec_static)
            CHECK_RC(pthread_mutex_unlock(m), 0);
        CHECK_RC(pthread_mutex_unlock(m), 0);
    }
    return NULL;
}

static void *holder(void *arg)
{
    pthread_mutex_t *m = arg;
    CHECK_RC(pthread_mutex_unlock(m), EPERM); /* errorcheck: not the owner */
    CHECK_RC(pthread_mutex_trylock(m), EBUSY);
    struct timespec d = pth_test_deadline(0.02);
    double t0 = pth_test_now();
    CHECK_RC(pthread_mutex_timedlock(m, &d), ETIMEDOUT);
    CHECK(pth_test_now() - t0 >= 0.015);
    return NULL;
}

static void run(pthread_mutex_t *m, int nthreads)
{
    pthread_t t[8];
    counter = 0;
    for (int i = 0; i < nthreads; i++)
        CHECK_RC(pthread_create(&t[i], NULL, contend, m), 0);
    for (int i = 0; i < nthreads; i++)
        CHECK_RC(pthread_join(t[i], NULL), 0);
    CHECK_EQ_INT(counter, (long)nthreads * iters);
}

int main(void)
{
    expect_ult = pth_test_start();
    iters = (expect_ult ? 2000 : 200) / pth_test_scale(); /* OS threads: yields are slow */
    pthread_mutexattr_t a;
    CHECK_RC(pthread_mutexattr_init(&a), 0);
    CHECK_RC(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE), 0);
    CHECK_RC(pthread_mutex_init(&rec, &a), 0);
    CHECK_RC(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK), 0);
    CHECK_RC(pthread_mutex_init(&err, &a), 0);
    CHECK_RC(pthread_mutexattr_destroy(&a), 0);

    run(&normal, 8);
    run(&rec_static, 4);
    run(&rec, 4);
    run(&err_static, 4);
    run(&err, 4);

    /* recursion: three levels, released by three unlocks */
    for (int i = 0; i < 3; i++)
        CHECK_RC(pthread_mutex_lock(&rec), 0);
    CHECK_RC(pthread_mutex_trylock(&rec), 0);
    for (int i = 0; i < 4; i++)
        CHECK_RC(pthread_mutex_unlock(&rec), 0);
    CHECK_RC(pthread_mutex_unlock(&rec), EPERM); /* not held any more */

    /* errorcheck codes, for both initialisations */
    pthread_mutex_t *errs[] = { &err, &err_static };
    for (int k = 0; k < 2; k++) {
        pthread_mutex_t *m = errs[k];
        CHECK_RC(pthread_mutex_unlock(m), EPERM);
        CHECK_RC(pthread_mutex_lock(m), 0);
        CHECK_RC(pthread_mutex_lock(m), EDEADLK);
        CHECK_RC(pthread_mutex_trylock(m), EBUSY);
        pthread_t t;
        CHECK_RC(pthread_create(&t, NULL, holder, m), 0);
        CHECK_RC(pthread_join(t, NULL), 0);
        CHECK_RC(pthread_mutex_unlock(m), 0);
    }
    /* a normal mutex: trylock of a held one, destroy of a held one */
    CHECK_RC(pthread_mutex_lock(&normal), 0);
    CHECK_RC(pthread_mutex_trylock(&normal), EBUSY);
    CHECK_RC(pthread_mutex_destroy(&normal), EBUSY);
    CHECK_RC(pthread_mutex_unlock(&normal), 0);

    CHECK_RC(pthread_mutex_destroy(&rec), 0);
    CHECK_RC(pthread_mutex_destroy(&err), 0);
    CHECK_RC(pthread_mutex_destroy(&normal), 0);
    CHECK_RC(pthread_mutex_destroy(&rec_static), 0);
    CHECK_RC(pthread_mutex_destroy(&err_static), 0);
    printf("mutexes: all kinds exclusive, error codes as glibc's\n");
    return 0;
}
