/* fork_primary_keeps_runtime: fork() called by the primary ULT while a second stream runs
 * a ULT and four more wait in its pool (weft's fork policy, include/weft.h).  The child has
 * a working single-stream runtime: the other stream reports TERMINATED and
 * ABT_xstream_free on it returns at once, ULTs run on the primary stream, the ULTs that
 * were waiting in the pool are still there and run on a stream the child creates over it
 * (under ThreadSanitizer, which forbids threads after such a fork: on the primary
 * stream), and ABT_finalize succeeds.  The parent goes on as if nothing happened. */
#include "child_test.h"
#include "test.h"

#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<weft.h>)
#define TEST_WEFT 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define NO_THREADS_IN_CHILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NO_THREADS_IN_CHILD 1
#endif
#endif

#define NQ 4

static atomic_int spinning, go, ran;

static void spinner(void *arg)
{
    atomic_store(&spinning, 1);
    while (!atomic_load(&go))
        ;
}

static void queued(void *arg) { atomic_fetch_add(&ran, 1); }

static void child(ABT_xstream xs2, ABT_pool pool, ABT_thread *q)
{
    CHECK_ABT(ABT_initialized());
    ABT_xstream_state st;
    CHECK_ABT(ABT_xstream_get_state(xs2, &st));
    CHECK_EQ_INT(st, ABT_XSTREAM_STATE_TERMINATED);
    CHECK_ABT(ABT_xstream_free(&xs2));
    int num = 0;
    CHECK_ABT(ABT_xstream_get_num(&num));
    CHECK_EQ_INT(num, 1);

    /* the primary stream works */
    ABT_xstream self;
    ABT_pool main_pool;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &main_pool));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(main_pool, queued, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&ran), 1);

    /* the queued ULTs are still in their pool */
    size_t size = 0;
    CHECK_ABT(ABT_pool_get_size(pool, &size));
    CHECK_EQ_INT(size, NQ);
#ifdef NO_THREADS_IN_CHILD
    for (int i = 0; i < NQ; i++) {
        ABT_thread u;
        CHECK_ABT(ABT_pool_pop_thread(pool, &u));
        CHECK_ABT(ABT_pool_push_thread(main_pool, u));
    }
    for (int i = 0; i < NQ; i++)
        CHECK_ABT(ABT_thread_free(&q[i]));
#else
    ABT_xstream xs3;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &xs3));
    for (int i = 0; i < NQ; i++)
        CHECK_ABT(ABT_thread_free(&q[i]));
    CHECK_ABT(ABT_xstream_free(&xs3));
#endif
    CHECK_EQ_INT(atomic_load(&ran), 1 + NQ);
    CHECK_ABT(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
}

int main(int argc, char **argv)
{
#ifndef TEST_WEFT
    TEST_SKIP("Argobots has no fork() policy");
#endif
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool pool;
    ABT_xstream xs2;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &xs2));
    ABT_thread s, q[NQ];
    CHECK_ABT(ABT_thread_create(pool, spinner, NULL, ABT_THREAD_ATTR_NULL, &s));
    while (!atomic_load(&spinning))
        CHECK_ABT(ABT_thread_yield());
    for (int i = 0; i < NQ; i++)
        CHECK_ABT(ABT_thread_create(pool, queued, NULL, ABT_THREAD_ATTR_NULL, &q[i]));

    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        child_dies_with_parent(parent);
        child(xs2, pool, q);
        fflush(NULL);
        _exit(0);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        TEST_FAIL("the child failed (status %#x)", status);

    /* the parent is untouched */
    CHECK_EQ_INT(atomic_load(&ran), 0);
    atomic_store(&go, 1);
    CHECK_ABT(ABT_thread_free(&s));
    for (int i = 0; i < NQ; i++)
        CHECK_ABT(ABT_thread_free(&q[i]));
    CHECK_EQ_INT(atomic_load(&ran), NQ);
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_pool_free(&pool));
    CHECK_ABT(ABT_finalize());
    return 0;
}
