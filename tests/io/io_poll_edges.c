/* weft_io_poll follows poll(2) at its edges, from ULTs on two streams, from an external
 * thread and before ABT_init:
 *   - events 0: waits its time-out and returns 0 (no error: poll(2) with nothing asked
 *     for just sleeps), and still reports a hang-up (POLLHUP) at once or when it comes;
 *   - a negative fd: ignored, so the call waits its time-out and returns 0 (0: at once);
 *   - any negative time-out waits without limit (-1, -5);
 *   - weft_io_set_timeout bounds a wait of no limit (returns 0, as a time-out);
 *   - an fd that is bad or ready when looked at is reported even with a 1 ms time-out
 *     that passed before the backend looked (poll(2) never times out such an fd);
 *   - a ULT parked in weft_io_poll(-1, POLLIN, -1) ends on ABT_thread_cancel.
 * Only lower bounds of time are checked (a loaded machine only makes waits longer). */
#include "io_test.h"

#include <sys/un.h>

/* weft_io_poll's answer must equal poll(2)'s for one fd and no wait */
static void same_as_poll(int fd, short ev)
{
    struct pollfd p = { .fd = fd, .events = ev };
    int r = poll(&p, 1, 0);
    int want = r > 0 ? p.revents : r;
    CHECK_EQ_INT(weft_io_poll(fd, ev, 0), want);
}

static void *closer(void *arg)
{
    int fd = (int)(intptr_t)arg;
    weft_io_poll(-1, 0, 50); /* OS thread: sleeps */
    close(fd);
    return NULL;
}

static void *writer(void *arg)
{
    int fd = (int)(intptr_t)arg;
    weft_io_poll(-1, 0, 50);
    CHECK_EQ_INT(write(fd, "x", 1), 1);
    return NULL;
}

static void edges(void)
{
    int sv[2];
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    CHECK_EQ_INT(write(sv[1], "d", 1), 1); /* readable: must not end an events-0 wait */

    double t0 = io_now();
    CHECK_EQ_INT(CHECK_IO(weft_io_poll(sv[0], 0, 100)), 0);
    CHECK(io_now() - t0 >= 0.095);
    same_as_poll(sv[0], 0);
    same_as_poll(sv[0], POLLIN);

    /* ready (or bad) when looked at: reported, however short the time-out and however
     * late the backend gets to it (a worker of a loaded machine may start after 1 ms) */
    static _Atomic int nbad;
    int bad = 900200 + nbad++; /* one per caller (ThreadSanitizer tracks fd numbers) */
    for (int i = 0; i < 200; i++) {
        CHECK_EQ_INT(weft_io_poll(bad, POLLIN, 1), POLLNVAL);
        CHECK(CHECK_IO(weft_io_poll(sv[0], POLLIN, 1)) & POLLIN);
    }

    t0 = io_now();
    CHECK_EQ_INT(CHECK_IO(weft_io_poll(-1, POLLIN, 100)), 0);
    CHECK(io_now() - t0 >= 0.095);
    CHECK_EQ_INT(CHECK_IO(weft_io_poll(-1, POLLIN, 0)), 0);
    CHECK_EQ_INT(CHECK_IO(weft_io_poll(-7, POLLOUT, 0)), 0);

    /* a negative time-out below -1 is "no limit" too: data comes 50 ms later */
    int wv[2];
    CHECK_EQ_INT(pipe2(wv, O_CLOEXEC), 0);
    pthread_t th;
    CHECK_EQ_INT(pthread_create(&th, NULL, writer, (void *)(intptr_t)wv[1]), 0);
    CHECK(CHECK_IO(weft_io_poll(wv[0], POLLIN, -5)) & POLLIN);
    pthread_join(th, NULL);
    close(wv[0]);
    close(wv[1]);

    /* the caller's time limit bounds a wait of no limit, as a time-out (0) */
    CHECK_EQ_INT(weft_io_set_timeout(60), -1);
    t0 = io_now();
    CHECK_EQ_INT(CHECK_IO(weft_io_poll(-1, POLLIN, -1)), 0);
    CHECK(io_now() - t0 >= 0.055);
    CHECK_EQ_INT(CHECK_IO(weft_io_poll(sv[0], 0, -1)), 0);
    CHECK_EQ_INT(weft_io_set_timeout(-1), 60);

    /* events 0 still reports a hang-up: when it comes, and at once once it is there */
    CHECK_EQ_INT(pthread_create(&th, NULL, closer, (void *)(intptr_t)sv[1]), 0);
    int r = (int)CHECK_IO(weft_io_poll(sv[0], 0, -1));
    pthread_join(th, NULL);
    CHECK(r & POLLHUP);
    CHECK(!(r & POLLIN)); /* not asked for */
    CHECK(CHECK_IO(weft_io_poll(sv[0], 0, (int)(TEST_PATIENCE_S * 1000))) & POLLHUP);
    same_as_poll(sv[0], 0);
    close(sv[0]);
}

static void ult(void *arg) { edges(); }

static void *ext(void *arg)
{
    edges();
    return NULL;
}

static _Atomic int sleeper_started;

static void sleeper(void *arg)
{
    sleeper_started = 1;
    weft_io_poll(-1, POLLIN, -1); /* forever: only the cancel ends it */
    TEST_FAIL("weft_io_poll(-1, POLLIN, -1) returned");
}

int main(void)
{
    edges(); /* before ABT_init: the calls block the thread, as poll(2) */
    io_rt_init(2);
    io_test_check_backend();
    ABT_thread t[4];
    for (int i = 0; i < 4; i++)
        t[i] = io_spawn(ult, NULL);
    pthread_t e;
    CHECK_EQ_INT(pthread_create(&e, NULL, ext, NULL), 0);
    for (int i = 0; i < 4; i++)
        io_join(&t[i]);
    pthread_join(e, NULL);

    ABT_thread s = io_spawn(sleeper, NULL);
    while (!sleeper_started)
        ABT_thread_yield();
    weft_io_poll(-1, 0, 50); /* let it park */
    CHECK_ABT(ABT_thread_cancel(s));
    io_join(&s);
    io_rt_fini();
    return 0;
}
