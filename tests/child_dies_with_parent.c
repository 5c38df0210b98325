/* child_dies_with_parent: a child set up with child_dies_with_parent (tests/child_test.h),
 * as every test that forks sets up its children, ends when the process that forked it is
 * killed - as ctest kills a test at its TIMEOUT, without a chance to clean up.  The test
 * makes itself a subreaper (orphans come back to it) and forks a "test" process that forks
 * a child which would then wait forever, and SIGKILLs the "test":
 *   1. the child set itself up before: the kernel kills it with SIGKILL;
 *   2. the child sets itself up only after (it waits for the test's word first): it sees
 *      its parent gone and exits at once with status 1.
 * The test waits for the orphaned child up to TEST_PATIENCE_S. */
#include "child_test.h"
#include "test.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One round; returns the orphaned child's wait status. */
static int round_trip(bool setup_first)
{
    int up[2], go[2]; /* child -> test: "set up", pid; test -> child: "go on" */
    CHECK(pipe(up) == 0 && pipe(go) == 0);
    pid_t mid = fork();
    CHECK(mid >= 0);
    if (mid == 0) { /* the "test" */
        pid_t me = getpid();
        pid_t child = fork();
        if (child < 0)
            _exit(2);
        if (child == 0) {
            char c;
            if (setup_first)
                child_dies_with_parent(me);
            pid_t self = getpid();
            if (write(up[1], &self, sizeof(self)) != (ssize_t)sizeof(self))
                _exit(3);
            if (!setup_first) {
                if (read(go[0], &c, 1) != 1)
                    _exit(4);
                child_dies_with_parent(me);
            }
            for (;;)
                pause(); /* a hung child */
        }
        for (;;)
            pause(); /* until killed */
    }
    close(up[1]);
    close(go[0]);
    pid_t child = -1;
    CHECK(read(up[0], &child, sizeof(child)) == (ssize_t)sizeof(child));
    close(up[0]);
    CHECK(child > 0);

    CHECK(kill(mid, SIGKILL) == 0); /* what ctest does at a time-out */
    int st = 0;
    CHECK(waitpid(mid, &st, 0) == mid);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    if (!setup_first)
        CHECK(write(go[1], "g", 1) == 1);
    close(go[1]);

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
    return st;
}

int main(void)
{
    CHECK(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
    int st = round_trip(true);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
        TEST_FAIL("set up before: the orphaned child ended with status %#x, not by SIGKILL", st);
    st = round_trip(false);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 1)
        TEST_FAIL("set up after its parent died: the child ended with status %#x, not exit 1", st);
    printf("the child died with its parent (SIGKILL), or at once when it was already gone\n");
    return 0;
}
