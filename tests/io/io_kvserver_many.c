/* examples/kvserver: 10,000 connections at once on 2 streams.  Every connection stores
 * its own key, then every one reads it back, all open at the same time; SIGTERM then
 * closes them all and exits 0.  Needs 10,000 descriptors on each side: the soft
 * RLIMIT_NOFILE is raised up to the hard limit, and the test skips if that is too low.
 * Under ThreadSanitizer 4,000: it counts every ULT's fiber as a thread and dies past
 * 8,128 of them (the server is built with it too). */
#include "kv_mc.h"

#include <poll.h>

#if defined(__SANITIZE_THREAD__)
#define CONNS 4000
#else
#define CONNS 10000
#endif

static int fds[CONNS];

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_many KVSERVER");
    long want = CONNS + 200;
    long have = io_raise_nofile(want);
    if (have < want)
        TEST_SKIP("RLIMIT_NOFILE hard limit %ld, %ld needed for %d connections", have, want, CONNS);
    kv_opts o = { .nofile = want };
    const char *args[] = { "-t", "2", "-c", "20000", NULL };
    kv_server s = kv_start_ex(argv[1], args, &o);
    for (int i = 0; i < CONNS; i++)
        fds[i] = kv_connect(s.port);
    char req[128], r[128];
    for (int i = 0; i < CONNS; i++) {
        int vl = snprintf(r, sizeof r, "%d", i);
        int n = snprintf(req, sizeof req, "set key%d %d 0 %d\r\n%d\r\n", i, i, vl, i);
        CHECK_EQ_INT(kv_send(fds[i], req, (size_t)n), 0);
    }
    for (int i = 0; i < CONNS; i++) {
        CHECK_EQ_INT(kv_line(fds[i], r, sizeof r), 0);
        if (strcmp(r, "STORED"))
            TEST_FAIL("connection %d: %s", i, r);
    }
    for (int i = 0; i < CONNS; i++) { /* each reads another's key */
        int k = (i + CONNS / 2) % CONNS;
        int n = snprintf(req, sizeof req, "get key%d\r\n", k);
        CHECK_EQ_INT(kv_send(fds[i], req, (size_t)n), 0);
    }
    for (int i = 0; i < CONNS; i++) {
        int k = (i + CONNS / 2) % CONNS;
        char want_l[64], v[32];
        CHECK_EQ_INT(kv_line(fds[i], r, sizeof r), 0);
        int vl = snprintf(v, sizeof v, "%d", k);
        snprintf(want_l, sizeof want_l, "VALUE key%d %d %d", k, k, vl);
        if (strcmp(r, want_l))
            TEST_FAIL("connection %d: '%s', want '%s'", i, r, want_l);
        CHECK_EQ_INT(kv_line(fds[i], r, sizeof r), 0);
        CHECK(!strcmp(r, v));
        CHECK_EQ_INT(kv_line(fds[i], r, sizeof r), 0);
        CHECK(!strcmp(r, "END"));
    }
    CHECK(mc_stat(fds[0], "curr_connections") == CONNS);
    int st = kv_stop(&s, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    for (int i = 0; i < CONNS; i++) {
        CHECK(recv(fds[i], r, 1, 0) <= 0);
        close(fds[i]);
    }
    return 0;
}
