/* examples/kvserver without a log: bad requests get an error line and the connection
 * goes on; an over-long line gets an error and a close; clients that vanish mid-request
 * (half a line, then close or reset) cost nothing (the server keeps serving, and every
 * connection ULT ends: SIGTERM then exits 0 at once); pipelined requests are answered in
 * order; an idle server with open connections uses < 5 ms of CPU per second (checked in
 * Release only). */
#include "kv_client.h"

static long cpu_ticks(pid_t pid)
{
    char p[64], b[1024];
    snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(p, "r");
    CHECK(f != NULL);
    size_t n = fread(b, 1, sizeof b - 1, f);
    fclose(f);
    b[n] = 0;
    char *c = strrchr(b, ')');
    long ut = 0, st = 0;
    /* fields after ")": state(3) ... utime(14) stime(15) */
    CHECK(sscanf(c + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &ut, &st) == 2);
    return ut + st;
}

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

    /* idle, with 20 open connections */
    int idle[20];
    for (int i = 0; i < 20; i++)
        idle[i] = kv_connect(s.port);
    usleep(200000);
    long t0 = cpu_ticks(s.pid);
    double w0 = io_now();
    usleep(getenv("WEFT_TEST_SLOW") ? 200000 : 1000000);
    long t1 = cpu_ticks(s.pid);
    double ms_per_s = (double)(t1 - t0) * 1000.0 / (double)sysconf(_SC_CLK_TCK) / (io_now() - w0);
    fprintf(stderr, "idle kvserver: %.2f ms CPU per second\n", ms_per_s);
    if (!getenv("WEFT_TEST_SLOW"))
        CHECK(ms_per_s < 5.0);

    int st = kv_stop(&s, SIGTERM); /* clean stop with open connections */
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    for (int i = 0; i < 20; i++) {
        CHECK(recv(idle[i], r, 1, 0) <= 0); /* closed by the server */
        close(idle[i]);
    }
    close(fd);
    return 0;
}
