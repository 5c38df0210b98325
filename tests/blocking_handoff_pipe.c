/* tests/blocking_handoff_pipe.c - weft_blocking_begin/end: a ULT blocked in read() on the
 * only stream does not keep the ULT that would write to the pipe from running.  Without a
 * spare serving the stream's pool the reader blocks its stream forever (alarm: the test
 * fails with a message instead of hanging).  A ULT other than the primary one creates the
 * pair: under a child-first technique the reader runs at its creation, and its creator,
 * queued meanwhile, must be one that a spare may run (the primary ULT runs only on the
 * primary stream's thread). */
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED
#include <signal.h>
#include <unistd.h>

static int fds[2];
static char got[8];
static ssize_t nread = -2;

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: the reader's stream was never served while it blocked\n";
    ssize_t r = write(2, msg, sizeof(msg) - 1);
    (void)r;
    _exit(1);
}

static void reader(void *arg)
{
    (void)arg;
    CHECK_ABT(weft_blocking_begin());
    nread = read(fds[0], got, sizeof(got));
    CHECK_ABT(weft_blocking_end());
}

static void writer(void *arg)
{
    (void)arg;
    CHECK(write(fds[1], "weft", 4) == 4);
}

static void parent(void *arg)
{
    ABT_pool pool = arg;
    for (int round = 0; round < 3; round++) {
        ABT_thread r, w;
        nread = -2;
        memset(got, 0, sizeof(got));
        CHECK_ABT(ABT_thread_create(pool, reader, NULL, ABT_THREAD_ATTR_NULL, &r));
        CHECK_ABT(ABT_thread_create(pool, writer, NULL, ABT_THREAD_ATTR_NULL, &w));
        CHECK_ABT(ABT_thread_free(&r));
        CHECK_ABT(ABT_thread_free(&w));
        CHECK_EQ_INT(nread, 4);
        CHECK(memcmp(got, "weft", 4) == 0);
    }
}

int main(int argc, char **argv)
{
    signal(SIGALRM, on_alarm);
    alarm(120);
    CHECK(pipe(fds) == 0);
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool pool;
    CHECK_ABT(ABT_self_get_last_pool(&pool));
    ABT_thread p;
    CHECK_ABT(ABT_thread_create(pool, parent, pool, ABT_THREAD_ATTR_NULL, &p));
    CHECK_ABT(ABT_thread_free(&p));
    CHECK_ABT(ABT_finalize());
    close(fds[0]);
    close(fds[1]);
    return 0;
}
#endif
