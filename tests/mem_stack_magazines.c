/* mem_stack_magazines: stacks that travel through the stack depot in magazines (whole
 * arrays of 64, mem/stack.c) are handed out once each and are usable over their size.
 *
 * The primary stream runs rounds of N = 3,000 ULTs (three times its 1,024-stack cache)
 * that all hold their stacks at once: each writes a pattern of its own over 8 KiB of its
 * stack, yields until every one has started, then checks the pattern.  Each round's
 * frees overflow the cache into the depot as magazines, and the next round's creations
 * take them back.  Then an external thread (no stream cache: it can only take loose
 * stacks, so the depot unpacks its magazines for it) creates ULTs whose technique takes
 * the stack at creation (WEFT_FORK_FULL), with the same check.  ABT_finalize frees the
 * magazines (the leak checkers of the sanitizer and valgrind runs would see one left). */
#include "test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <weft.h>

#define N      3000
#define ROUNDS 3
#define DEPTH  (8 * 1024)

static atomic_int started, ran[N];
static int total;

static void ult(void *arg)
{
    int id = (int)(intptr_t)arg;
    volatile unsigned char buf[DEPTH];
    for (int i = 0; i < DEPTH; i++)
        buf[i] = (unsigned char)(id * 7 + i);
    atomic_fetch_add(&started, 1);
    while (atomic_load(&started) < total)
        CHECK_ABT(ABT_thread_yield());
    for (int i = 0; i < DEPTH; i++)
        if (buf[i] != (unsigned char)(id * 7 + i))
            TEST_FAIL("ULT %d: its stack changed at byte %d (a stack handed out twice?)", id, i);
    atomic_fetch_add(&ran[id], 1);
}

static ABT_pool pool;
static ABT_thread t[N];

static void round_of(int n, ABT_thread_attr attr)
{
    atomic_store(&started, 0);
    total = n;
    for (int i = 0; i < n; i++)
        atomic_store(&ran[i], 0);
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_create(pool, ult, (void *)(intptr_t)i, attr, &t[i]));
}

static void finish(int n)
{
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));
    for (int i = 0; i < n; i++)
        CHECK_EQ_INT(atomic_load(&ran[i]), 1);
}

/* the external thread creates; the primary ULT frees (it runs them) */
static void *external(void *arg)
{
    int n = *(int *)arg;
    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(weft_thread_attr_set_fork(attr, WEFT_FORK_FULL));
    round_of(n, attr);
    CHECK_ABT(ABT_thread_attr_free(&attr));
    return NULL;
}

int main(void)
{
    int n = N / test_scale_div();
    if (n < 1200)
        n = 1200; /* still more than the cache holds, under the slow runs too */
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream self;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pool));
    for (int r = 0; r < ROUNDS; r++) {
        round_of(n, ABT_THREAD_ATTR_NULL);
        finish(n);
    }
    pthread_t th;
    CHECK(pthread_create(&th, NULL, external, &n) == 0);
    CHECK(pthread_join(th, NULL) == 0);
    finish(n);
    CHECK_ABT(ABT_finalize());
    printf("%d rounds of %d ULTs and one from an external thread: every stack its own\n", ROUNDS,
           n);
    return 0;
}
