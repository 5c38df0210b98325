/* tests/child_test.h - a test's child processes end with it.
 *
 * ctest ends a test that runs past its TIMEOUT by killing the test's process only; a
 * child it forked would live on (a hung death test, a program under failure injection)
 * and hold the machine.  A child calls child_dies_with_parent(parent) first thing after
 * fork(): the kernel then kills it with SIGKILL when the thread that forked it ends, and
 * if that happened before the call, the child exits at once.  The thread that forks must
 * outlive the child, as in every test here (it waits for the child). */
#ifndef WEFT_CHILD_TEST_H
#define WEFT_CHILD_TEST_H

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

/* `parent`: getpid() of the test, read before fork(). */
static inline void child_dies_with_parent(pid_t parent)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(1);
}

#endif
