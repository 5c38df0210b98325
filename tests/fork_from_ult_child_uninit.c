/* fork_from_ult_child_uninit: fork() called by a ULT of a secondary stream (weft's fork
 * policy, include/weft.h): the child has no runtime.  ABT_initialized() and the routines
 * that need a runtime or a calling stream fail with ABT_ERR_UNINITIALIZED (or
 * ABT_ERR_INV_XSTREAM; ABT_thread_yield is the no-op it is for any external thread); the
 * child can then ABT_init a new runtime, run a ULT in it and ABT_finalize.  The parent's
 * runtime is untouched. */
#include "child_test.h"
#include "test.h"

#include <sys/wait.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<weft.h>)
#define TEST_WEFT 1
#endif
#endif

static int child_status = -1;
static volatile int ran;

static void nop(void *arg) { ran++; }

static int failed(int r) { return r == ABT_ERR_UNINITIALIZED || r == ABT_ERR_INV_XSTREAM; }

static void child(void)
{
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    ABT_xstream x;
    ABT_thread t;
    int rank;
    CHECK(failed(ABT_xstream_self(&x)));
    CHECK(failed(ABT_xstream_self_rank(&rank)));
    CHECK(failed(ABT_thread_self(&t)));
    CHECK(failed(ABT_self_yield()));
    CHECK_ABT(ABT_thread_yield()); /* the no-op it is for any external thread */
    CHECK_ERR(ABT_finalize(), ABT_ERR_UNINITIALIZED);

    /* a new runtime */
    CHECK_ABT(ABT_init(0, NULL));
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&x));
    CHECK_ABT(ABT_xstream_get_main_pools(x, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, nop, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(ran, 1);
    CHECK_ABT(ABT_finalize());
}

static void forker(void *arg)
{
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        child_dies_with_parent(parent);
        child();
        fflush(NULL);
        _exit(0);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    child_status = status;
}

int main(int argc, char **argv)
{
#ifndef TEST_WEFT
    TEST_SKIP("Argobots has no fork() policy");
#endif
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs2;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    ABT_thread t;
    CHECK_ABT(ABT_thread_create_on_xstream(xs2, forker, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    if (!WIFEXITED(child_status) || WEXITSTATUS(child_status) != 0)
        TEST_FAIL("the child failed (status %#x)", child_status);
    CHECK_EQ_INT(ran, 0);
    CHECK_ABT(ABT_initialized());
    CHECK_ABT(ABT_thread_create_on_xstream(xs2, nop, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(ran, 1);
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
