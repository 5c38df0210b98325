/* examples/kvserver with -L: every acknowledged change survives kill -9 with what makes
 * it memcached's: flags, expiry times, append/prepend, incr/decr, touch, cas, add,
 * replace, delete, flush_all (what was stored before it stays gone, what came after
 * stays), noreply sets (acknowledged by the reply to the next command on the same
 * connection), and a value that expired before the restart is not brought back. */
#include "kv_mc.h"

#include <time.h>

static void check_state(int fd)
{
    char v[256];
    unsigned f;
    CHECK(mc_get(fd, "a", v, sizeof v, &f) && !strcmp(v, "<a>!") && f == 5);
    CHECK(mc_get(fd, "n", v, sizeof v, NULL) && !strcmp(v, "40  "));
    CHECK(mc_get(fd, "c", v, sizeof v, &f) && !strcmp(v, "new") && f == 9);
    CHECK(mc_get(fd, "r", v, sizeof v, NULL) && !strcmp(v, "replaced"));
    CHECK(!mc_has(fd, "d"));
    CHECK(!mc_has(fd, "old"));
    CHECK(mc_get(fd, "after", v, sizeof v, NULL) && !strcmp(v, "flush"));
    CHECK(mc_get(fd, "quiet", v, sizeof v, NULL) && !strcmp(v, "q"));
    CHECK(mc_get(fd, "bin", v, sizeof v, NULL) && !memcmp(v, "\0\r\n\1", 4));
    CHECK(!mc_has(fd, "short")); /* expired */
    CHECK(mc_has(fd, "long"));
}

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_log_ops KVSERVER");
    char dir[] = "/tmp/weft_kvo.XXXXXX", logp[96];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(logp, sizeof logp, "%s/kv.log", dir);
    const char *args[] = { "-L", logp, "-t", "2", NULL };
    kv_server s = kv_start(argv[1], args);
    int fd = kv_connect(s.port);
    char r[256];
    mc_set(fd, "old", 0, "gone");
    CHECK_EQ_INT(kv_call(fd, "flush_all\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "OK"));
    mc_set(fd, "after", 0, "flush");
    mc_store(fd, "set", "a", 5, 1000, "a", 1, r, sizeof r);
    CHECK(!strcmp(r, "STORED"));
    mc_store(fd, "append", "a", 0, 0, ">!", 2, r, sizeof r);
    CHECK(!strcmp(r, "STORED"));
    mc_store(fd, "prepend", "a", 0, 0, "<", 1, r, sizeof r);
    CHECK(!strcmp(r, "STORED"));
    mc_set(fd, "n", 0, "1000");
    CHECK_EQ_INT(kv_call(fd, "decr n 970\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "30"));
    CHECK_EQ_INT(kv_call(fd, "incr n 10\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "40"));
    mc_store(fd, "add", "c", 9, 0, "first", 5, r, sizeof r);
    CHECK(!strcmp(r, "STORED"));
    CHECK_EQ_INT(kv_call(fd, "gets c\r\n", r, sizeof r), 0);
    unsigned long long cas = strtoull(strrchr(r, ' ') + 1, NULL, 10);
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    char req[128];
    snprintf(req, sizeof req, "cas c 9 0 3 %llu\r\nnew\r\n", cas);
    CHECK_EQ_INT(kv_call(fd, req, r, sizeof r), 0);
    CHECK(!strcmp(r, "STORED"));
    mc_set(fd, "r", 0, "x");
    mc_store(fd, "replace", "r", 0, 0, "replaced", 8, r, sizeof r);
    CHECK(!strcmp(r, "STORED"));
    mc_set(fd, "d", 0, "x");
    CHECK_EQ_INT(kv_call(fd, "delete d\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "DELETED"));
    mc_store(fd, "set", "bin", 0, 0, "\0\r\n\1", 4, r, sizeof r);
    CHECK(!strcmp(r, "STORED"));
    mc_set(fd, "short", 1000, "s");
    CHECK_EQ_INT(kv_call(fd, "touch short 1\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "TOUCHED"));
    mc_set(fd, "long", 1, "l");
    CHECK_EQ_INT(kv_call(fd, "touch long 1000\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "TOUCHED"));
    CHECK_EQ_INT(kv_send(fd, "set quiet 0 0 1 noreply\r\nq\r\n", 28), 0);
    CHECK_EQ_INT(kv_call(fd, "version\r\n", r, sizeof r), 0); /* after the noreply set */
    double t0 = io_now();
    while (mc_has(fd, "short")) { /* expired before the restart */
        CHECK(io_now() - t0 < 60);
        usleep(50000);
    }
    check_state(fd);
    close(fd);
    int st = kv_stop(&s, SIGKILL);
    CHECK(WIFSIGNALED(st));

    s = kv_start(argv[1], args);
    fd = kv_connect(s.port);
    check_state(fd);
    close(fd);
    st = kv_stop(&s, SIGTERM); /* and again, after a clean stop */
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    s = kv_start(argv[1], args);
    fd = kv_connect(s.port);
    check_state(fd);
    close(fd);
    st = kv_stop(&s, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    unlink(logp);
    rmdir(dir);
    return 0;
}
