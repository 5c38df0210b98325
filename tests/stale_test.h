/* tests/stale_test.h - shared by the stale_* tests: a watchdog that turns a hang into a
 * failure with a message (a stale handle must get an error code, never block), and a
 * helper that checks one call returns one of the "invalid handle" codes. */
#ifndef WEFT_STALE_TEST_H
#define WEFT_STALE_TEST_H

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "test.h"

static const char *stale_doing = "start";

static void stale_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: watchdog: the test hangs in: ";
    ssize_t r = write(2, msg, sizeof(msg) - 1);
    r = write(2, stale_doing, strlen(stale_doing));
    r = write(2, "\n", 1);
    (void)r;
    _exit(1);
}

/* Fail (exit 1) if the test is still running after 150 s: under ctest's per-test
 * TIMEOUT, so that a hang says where it hangs, and far above what these tests take on a
 * loaded machine or under valgrind (a stale handle gets its error at once). */
static inline void stale_watchdog(void)
{
    signal(SIGALRM, stale_alarm);
    alarm(150);
}

/* Record what the test does now, for the watchdog's message (a string literal). */
#define STALE_STEP(s) (stale_doing = (s))

#endif
