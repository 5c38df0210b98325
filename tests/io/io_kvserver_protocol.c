/* examples/kvserver without a log: bad requests get an error line and the connection
 * goes on; an over-long line gets an error and a close; clients that vanish mid-request
 * (half a line, then close or reset) cost nothing (the server keeps serving, and every
 * connection ULT ends: SIGTERM then exits 0 at once); pipelined requests are answered in
 * order; an idle server with open connections sleeps: fewer than 50 wake-ups and 10% of a
 * core per second (a spinning or napping server exceeds both; checked outside sanitizer
 * runs). */
#include "kv_client.h"

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_protocol KVSERVER");
    const char *args[] = { "-s", "2", NULL };
    kv_server s = kv_start(argv[1], args);
    int fd = kv_connect(s.port);
    char r[256];
    static const char *bad[][2] = {
        { "HELLO\n", "ERROR unknown command" },  { "PUT\n", "ERROR unknown command" },
        { "PUT k\n", "ERROR missing value" },    { "GET\n", "ERROR unknown command" },
        { "GET  \n", "ERROR missing key" },      { "GET a b\n", "ERROR extra argument" },
        { "DEL a b\n", "ERROR extra argument" }, { "\n", "ERROR unknown command" },
        { "get a\n", "ERROR unknown command" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ_INT(kv_call(fd, bad[i][0], r, sizeof r), 0);
        if (strcmp(r, bad[i][1]))
            TEST_FAIL("'%s' -> '%s', want '%s'", bad[i][0], r, bad[i][1]);
    }
    char longkey[300];
    memset(longkey, 'k', sizeof longkey);
    memcpy(longkey, "GET ", 4);
    longkey[298] = '\n';
    longkey[299] = 0;
    CHECK_EQ_INT(kv_call(fd, longkey, r, sizeof r), 0);
    CHECK(!strcmp(r, "ERROR key too long"));
    CHECK_EQ_INT(kv_call(fd, "PUT k v w\r\n", r, sizeof r), 0); /* CRLF accepted */
    CHECK(!strcmp(r, "OK"));
    CHECK_EQ_INT(kv_call(fd, "GET k\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "VALUE v w"));
    CHECK_EQ_INT(kv_call(fd, "PUT e \n", r, sizeof r), 0); /* empty value */
    CHECK_EQ_INT(kv_call(fd, "GET e\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "VALUE "));

    /* pipelined: three requests in one segment, three replies in order */
    const char *pipe3 = "PUT p 1\nGET p\nDEL p\n";
    CHECK_EQ_INT(send(fd, pipe3, strlen(pipe3), 0), (ssize_t)strlen(pipe3));
    char got[64] = { 0 };
    size_t n = 0;
    while (n < 17) {
        ssize_t k = recv(fd, got + n, sizeof got - 1 - n, 0);
        CHECK(k > 0);
        n += (size_t)k;
    }
    CHECK(!strcmp(got, "OK\nVALUE 1\nDELETED\n"));

    /* clients that go away mid-request */
    for (int i = 0; i < 50; i++) {
        int c = kv_connect(s.port);
        CHECK_EQ_INT(send(c, "PUT half", 8, 0), 8);
        if (i % 2) {
            struct linger lg = { 1, 0 };
            setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg); /* reset */
        }
        close(c);
    }
    /* an over-long line: error, then the server closes */
    int c = kv_connect(s.port);
    char *huge = malloc(70000);
    memset(huge, 'x', 70000);
    memcpy(huge, "PUT ", 4);
    send(c, huge, 70000, MSG_NOSIGNAL);
    free(huge);
    CHECK_EQ_INT(kv_call(c, "", r, sizeof r), 0);
    CHECK(!strcmp(r, "ERROR line too long"));
    CHECK(recv(c, r, 1, 0) <= 0);
    close(c);
    /* still serving */
    CHECK_EQ_INT(kv_call(fd, "GET k\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "VALUE v w"));

    /* idle, with 20 open connections: the server's own threads must sleep.  Counted as
     * their wake-ups (voluntary context switches: a sleeping thread makes none, however
     * loaded the machine is) and their own CPU time against a generous bound, both over
     * at least 1 s of wall time (longer on a slow machine only lowers the rates) */
    int idle[20];
    for (int i = 0; i < 20; i++)
        idle[i] = kv_connect(s.port);
    CHECK_EQ_INT(kv_call(idle[19], "GET k\n", r, sizeof r), 0); /* all 20 are being served */
    usleep(300000);
    double c0, c1;
    long k0, k1;
    kv_usage(s.pid, &c0, &k0);
    double w0 = io_now();
    usleep(1000000);
    kv_usage(s.pid, &c1, &k1);
    double secs = io_now() - w0;
    double cpu_share = (c1 - c0) / secs, wakes = (double)(k1 - k0) / secs;
    fprintf(stderr, "idle kvserver: %.2f ms CPU and %.1f wake-ups per second\n", cpu_share * 1000,
            wakes);
    if (!getenv("WEFT_TEST_SLOW")) { /* sanitizer runtimes have threads of their own */
        CHECK(wakes < 50);
        CHECK(cpu_share < 0.10);
    }

    int st = kv_stop(&s, SIGTERM); /* clean stop with open connections */
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    for (int i = 0; i < 20; i++) {
        CHECK(recv(idle[i], r, 1, 0) <= 0); /* closed by the server */
        close(idle[i]);
    }
    close(fd);
    return 0;
}
