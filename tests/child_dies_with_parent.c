/* child_dies_with_parent: a child set up with child_dies_with_parent (tests/child_test.h),
 * as every test that forks sets up its children, is killed with SIGKILL when the process
 * that forked it is killed - as ctest kills a test at its TIMEOUT, without a chance to
 * clean up.  The test makes itself a subreaper, forks a "test" process that forks such a
 * child (which would wait forever) and is then SIGKILLed; the orphaned child comes back
 * to the test, which waits for it (TEST_PATIENCE_S) and checks that SIGKILL ended it. */
#include "child_test.h"
#include "test.h"

#include <errno.h>
#include <sys/wait.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
    CHECK(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0); /* orphans come back to us */
    int fd[2];
    CHECK(pipe(fd) == 0);
    pid_t mid = fork();
    CHECK(mid >= 0);
    if (mid == 0) { /* the "test" */
        close(fd[0]);
        pid_t me = getpid();
        pid_t child = fork();
        if (child < 0)
            _exit(2);
        if (child == 0) {
            child_dies_with_parent(me);
            close(fd[1]);
            for (;;)
                pause(); /* a hung child */
        }
        if (write(fd[1], &child, sizeof(child)) != (ssize_t)sizeof(child))
            _exit(3);
        for (;;)
            pause(); /* until killed */
    }
    close(fd[1]);
    pid_t child = -1;
    CHECK(read(fd[0], &child, sizeof(child)) == (ssize_t)sizeof(child));
    close(fd[0]);
    CHECK(child > 0);

    CHECK(kill(mid, SIGKILL) == 0); /* what ctest does at a time-out */
    int st = 0;
    CHECK(waitpid(mid, &st, 0) == mid);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);

    double t0 = now_s();
    pid_t r;
    while ((r = waitpid(child, &st, WNOHANG)) == 0) {
        if (now_s() - t0 > TEST_PATIENCE_S) {
            kill(child, SIGKILL);
            TEST_FAIL("the child outlived its parent by %.0f s", TEST_PATIENCE_S);
        }
        usleep(1000);
    }
    if (r != child)
        TEST_FAIL("waitpid of the orphaned child: %d (%s)", (int)r, strerror(errno));
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
        TEST_FAIL("the orphaned child ended with status %#x, not by SIGKILL", st);
    printf("the child died with its parent (SIGKILL)\n");
    return 0;
}
