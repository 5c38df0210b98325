/* pthread_exit from a thread runs its cleanup handlers innermost first (skipping popped
 * ones, running pop(1) ones at the pop) and then its key destructors; pthread_exit from
 * the main thread lets the other threads finish, then the process exits with status 0
 * (an atexit check fails the test if a thread had not finished). */
#include "pth_test.h"

#include <stdatomic.h>
#include <stdint.h>

#define N 16

static char order[N][8];
static int pos[N];
static atomic_int finished;
static pthread_key_t key;
static pthread_barrier_t bar;

static void note(void *arg)
{
    intptr_t v = (intptr_t)arg;
    int i = (int)(v / 10);
    order[i][pos[i]++] = (char)('0' + v % 10);
}

static void dtor(void *arg)
{
    intptr_t i = (intptr_t)arg - 1;
    CHECK_EQ_INT(pos[i], 4); /* after every cleanup handler */
    order[i][pos[i]++] = 'd';
    atomic_fetch_add(&finished, 1);
}

static void inner(intptr_t i)
{
    pthread_cleanup_push(note, (void *)(i * 10 + 3));
    pthread_cleanup_push(note, (void *)(i * 10 + 9));
    pthread_cleanup_pop(0); /* not run */
    if (i >= 0)
        pthread_exit((void *)(i + 100));
    pthread_cleanup_pop(0);
}

static void *body(void *arg)
{
    intptr_t i = (intptr_t)arg;
    CHECK_RC(pthread_setspecific(key, (void *)(i + 1)), 0);
    pthread_cleanup_push(note, (void *)(i * 10 + 1));
    pthread_cleanup_push(note, (void *)(i * 10 + 2));
    pthread_cleanup_push(note, (void *)(i * 10 + 5));
    pthread_cleanup_pop(1); /* runs now: '5' */
    inner(i);
    pthread_cleanup_pop(0);
    pthread_cleanup_pop(0);
    return NULL; /* not reached */
}

static void *late(void *arg)
{
    pthread_barrier_wait(&bar); /* released after main called pthread_exit */
    for (int i = 0; i < 50; i++)
        sched_yield();
    atomic_fetch_add(&finished, 1);
    return NULL;
}

static void *releaser(void *arg)
{
    for (int i = 0; i < 20; i++)
        sched_yield();
    pthread_barrier_wait(&bar);
    atomic_fetch_add(&finished, 1);
    return NULL;
}

static void at_exit_check(void)
{
    if (atomic_load(&finished) != N + 2) {
        fprintf(stderr, "FAIL: the process ended with %d of %d threads finished\n",
                atomic_load(&finished), N + 2);
        _exit(1);
    }
    printf("cleanup handlers ran in order; the process ended after its last thread\n");
    fflush(stdout);
}

int main(void)
{
    pth_test_start();
    CHECK_RC(pthread_key_create(&key, dtor), 0);
    pthread_t t[N];
    for (intptr_t i = 0; i < N; i++)
        CHECK_RC(pthread_create(&t[i], NULL, body, (void *)i), 0);
    for (intptr_t i = 0; i < N; i++) {
        void *ret;
        CHECK_RC(pthread_join(t[i], &ret), 0);
        CHECK_EQ_INT((intptr_t)ret, i + 100);
        if (strcmp(order[i], "5321d") != 0)
            TEST_FAIL("thread %d: handlers ran as \"%s\", expected \"5321d\"", (int)i, order[i]);
    }
    CHECK_EQ_INT(atomic_load(&finished), N);
    CHECK_RC(pthread_barrier_init(&bar, NULL, 2), 0);
    atexit(at_exit_check);
    pthread_t a, b;
    CHECK_RC(pthread_create(&a, NULL, late, NULL), 0);
    CHECK_RC(pthread_create(&b, NULL, releaser, NULL), 0);
    pthread_exit(NULL); /* the others go on */
}
