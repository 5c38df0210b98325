/* pthread_once runs its routine once among many threads; keys: per-thread values,
 * destructors at thread exit (also re-set values: further rounds), deleted keys. */
#include "pth_test.h"

#include <stdatomic.h>
#include <stdint.h>

#define N 64

static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_int once_runs, dtor_calls, dtor2_calls;
static pthread_key_t key, key2, key_deleted;
static int expect_ult;

static void init_once(void)
{
    atomic_fetch_add(&once_runs, 1);
    for (int i = 0; i < 10; i++)
        sched_yield(); /* others arrive meanwhile and must wait */
}

static void dtor(void *v)
{
    CHECK(v != NULL);
    atomic_fetch_add(&dtor_calls, 1);
}

static void dtor2(void *v)
{
    intptr_t round = (intptr_t)v;
    atomic_fetch_add(&dtor2_calls, 1);
    if (round < 2) /* set again: glibc runs another round */
        pthread_setspecific(key2, (void *)(round + 1));
}

static void *body(void *arg)
{
    if (expect_ult)
        CHECK(pth_test_is_ult());
    CHECK_RC(pthread_once(&once, init_once), 0);
    CHECK_EQ_INT(atomic_load(&once_runs), 1);
    CHECK(pthread_getspecific(key) == NULL);
    CHECK_RC(pthread_setspecific(key, arg), 0);
    CHECK_RC(pthread_setspecific(key2, (void *)(intptr_t)1), 0);
    for (int i = 0; i < 5; i++) {
        sched_yield(); /* other threads set theirs meanwhile */
        CHECK(pthread_getspecific(key) == arg);
    }
    return NULL;
}

int main(void)
{
    expect_ult = pth_test_start();
    CHECK_RC(pthread_key_create(&key, dtor), 0);
    CHECK_RC(pthread_key_create(&key2, dtor2), 0);
    CHECK_RC(pthread_key_create(&key_deleted, dtor), 0);
    CHECK_RC(pthread_setspecific(key, &once), 0); /* the main thread's own value */
    CHECK_RC(pthread_setspecific(key_deleted, &once), 0);
    CHECK_RC(pthread_key_delete(key_deleted), 0);
    CHECK_RC(pthread_key_delete(key_deleted), EINVAL);
    pthread_t t[N];
    static int vals[N];
    for (int i = 0; i < N; i++)
        CHECK_RC(pthread_create(&t[i], NULL, body, &vals[i]), 0);
    for (int i = 0; i < N; i++)
        CHECK_RC(pthread_join(t[i], NULL), 0);
    CHECK_EQ_INT(atomic_load(&once_runs), 1);
    CHECK_EQ_INT(atomic_load(&dtor_calls), N);      /* key: one per thread */
    CHECK_EQ_INT(atomic_load(&dtor2_calls), 2 * N); /* key2: values 1 and 2 */
    CHECK(pthread_getspecific(key) == &once);       /* main's value untouched */
    pthread_key_t k2;
    CHECK_RC(pthread_key_create(&k2, NULL), 0);
    CHECK(pthread_getspecific(k2) == NULL); /* a reused slot starts empty */
    CHECK_RC(pthread_once(&once, init_once), 0);
    CHECK_EQ_INT(atomic_load(&once_runs), 1);
    printf("once ran once; %d + %d destructor calls\n", atomic_load(&dtor_calls),
           atomic_load(&dtor2_calls));
    return 0;
}
