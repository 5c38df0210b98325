/* tests/watchdog_test.h - for the watchdog tests (tests/watchdog_*.c): stderr into a file
 * the test reads back, and clocks. */
#ifndef WEFT_WATCHDOG_TEST_H
#define WEFT_WATCHDOG_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline double wd_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int wd_saved_stderr = -1;
static FILE *wd_capture;

static void wd_restore_stderr(void);
static char *wd_captured(void);

/* At exit, what went to the file goes to the real stderr too (a failure's message). */
static void wd_at_exit(void)
{
    if (wd_saved_stderr < 0)
        return;
    char *s = wd_captured();
    wd_restore_stderr();
    if (s && *s)
        fprintf(stderr, "--- stderr of the test ---\n%s", s);
    free(s);
}

/* From now on stderr goes to a temporary file. */
static inline void wd_capture_stderr(void)
{
    fflush(stderr);
    wd_capture = tmpfile();
    if (!wd_capture)
        return;
    wd_saved_stderr = dup(2);
    dup2(fileno(wd_capture), 2);
    atexit(wd_at_exit);
}

/* What went to stderr so far (malloc'd; "" when nothing). */
static char *wd_captured(void)
{
    fflush(stderr);
    if (!wd_capture)
        return strdup("");
    long n = lseek(fileno(wd_capture), 0, SEEK_END);
    char *b = malloc(n > 0 ? (size_t)n + 1 : 1);
    if (!b)
        return NULL;
    if (n > 0 && pread(fileno(wd_capture), b, (size_t)n, 0) != n)
        n = 0;
    b[n > 0 ? n : 0] = 0;
    return b;
}

/* stderr back to what it was. */
static void wd_restore_stderr(void)
{
    fflush(stderr);
    if (wd_saved_stderr >= 0) {
        dup2(wd_saved_stderr, 2);
        close(wd_saved_stderr);
        wd_saved_stderr = -1;
    }
}

static inline int wd_count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

#endif
