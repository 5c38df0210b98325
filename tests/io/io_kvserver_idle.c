/* examples/kvserver -i SECS (--idle-timeout): a connection that sends nothing for SECS
 * seconds is closed (never before SECS after its last request was sent: a lower bound,
 * which a loaded machine cannot break), one that never sent anything too, while a client
 * that keeps sending stays connected (checked only when the test's own gaps stayed far
 * below SECS).  A bad value gets the usage message and exit 2. */
#include "kv_client.h"

#include <sys/time.h>

/* Wait for the server to close fd: the seconds since t0 (fails after 60 s). */
static double closed_after(int fd, double t0)
{
    struct timeval tv = { 60, 0 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char b[16];
    ssize_t r = recv(fd, b, sizeof b, 0);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        TEST_FAIL("an idle connection is still open after 60 s");
    CHECK(r <= 0);
    return io_now() - t0;
}

/* fd was closed by the server (EOF readable) */
static int closed_now(int fd)
{
    char b;
    return recv(fd, &b, 1, MSG_DONTWAIT | MSG_PEEK) == 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_idle KVSERVER");
    const double secs = 2.0;
    const char *args[] = { "--idle-timeout", "2", NULL };
    kv_server s = kv_start(argv[1], args);
    char r[64];

    int quiet_c = kv_connect(s.port); /* never sends */
    double tq = io_now();
    int c = kv_connect(s.port);
    int act = kv_connect(s.port);
    double t0 = io_now();
    CHECK_EQ_INT(kv_do(c, "PUT a 1\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "OK"));

    /* the active client: a request every 100 ms for 1.5 timeouts */
    double last = io_now(), max_gap = 0, dc = -1, dq = -1;
    int open_ok = 1;
    while (io_now() - t0 < secs * 1.5) {
        usleep(100000);
        double now = io_now();
        if (dc < 0 && closed_now(c))
            dc = now - t0;
        if (dq < 0 && closed_now(quiet_c))
            dq = now - tq;
        if (now - last > max_gap)
            max_gap = now - last;
        last = now;
        if (kv_do(act, "GET a\n", r, sizeof r) < 0 || strcmp(r, "VALUE 1")) {
            open_ok = 0;
            break;
        }
    }
    if (dc < 0)
        dc = closed_after(c, t0);
    if (dq < 0)
        dq = closed_after(quiet_c, tq);
    fprintf(stderr,
            "idle closed after %.2f s and %.2f s (limit %.1f s); active client's largest "
            "gap %.2f s\n",
            dc, dq, secs, max_gap);
    CHECK(dc >= secs - 0.01);
    CHECK(dq >= secs - 0.01);
    if (max_gap < secs / 4)
        CHECK(open_ok);
    else
        fprintf(stderr, "the machine stalled this test for %.2f s: active check skipped\n",
                max_gap);
    if (open_ok) { /* and it is dropped once it stops */
        /* counted from the last request's send: the server read it later, so its idle
         * time-out for this client ends no earlier than that plus secs */
        CHECK(closed_after(act, last) >= secs - 0.01);
    }
    close(c);
    close(quiet_c);
    close(act);
    int st = kv_stop(&s, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);

    const char *bad[][3] = { { "-i", "0", NULL },
                             { "-i", "abc", NULL },
                             { "--idle-timeout", "-3", NULL } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char out[4096];
        st = kv_run_to_exit(argv[1], bad[i], out, sizeof out);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2);
        CHECK(strstr(out, "usage:") && strstr(out, "--idle-timeout"));
    }
    return 0;
}
