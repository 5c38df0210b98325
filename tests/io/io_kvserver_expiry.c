/* examples/kvserver: expiry times.  A relative expiry (seconds) and an absolute one (a
 * Unix time, as memcached takes any value over 30 days) end the item, never before its
 * time; touch and gat set a new expiry; a delayed flush_all invalidates what was stored
 * before its time, and nothing stored after (a flush_all at once cancels a delayed one);
 * items nobody reads again are removed by the sweeper (curr_items falls, reclaimed counts
 * them).  No upper bound on time: waits have 60 s deadlines. */
#include "kv_mc.h"

#include <time.h>

/* Wait until key is gone (60 s at most): the seconds it took from t0. */
static double gone_after(int fd, const char *key, double t0)
{
    for (;;) {
        if (!mc_has(fd, key))
            return io_now() - t0;
        if (io_now() - t0 > 60)
            TEST_FAIL("%s still there after 60 s", key);
        usleep(50000);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_expiry KVSERVER");
    const char *args[] = { "-t", "2", NULL };
    kv_server s = kv_start(argv[1], args);
    int fd = kv_connect(s.port);
    char r[256], v[256];

    double t0 = io_now();
    mc_set(fd, "rel", 2, "r");
    mc_set(fd, "abs", (long long)time(NULL) + 2, "a");
    mc_set(fd, "stay", 1000, "s");
    mc_set(fd, "forever", 0, "f");
    mc_set(fd, "t", 1000, "t");
    CHECK_EQ_INT(kv_call(fd, "touch t 2\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "TOUCHED"));
    mc_set(fd, "g", 2, "g");
    CHECK_EQ_INT(kv_call(fd, "gat 1000 g\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "VALUE g 0 1"));
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    CHECK_EQ_INT(kv_line(fd, r, sizeof r), 0);
    CHECK(!strcmp(r, "END"));
    /* expiry within 2 s: whole seconds, so at least 1 s after the set */
    double d = gone_after(fd, "rel", t0);
    fprintf(stderr, "relative expiry of 2 s: gone after %.2f s\n", d);
    CHECK(d >= 1.0);
    d = gone_after(fd, "abs", t0);
    CHECK(d >= 1.0);
    d = gone_after(fd, "t", t0);
    CHECK(d >= 1.0);
    while (io_now() - t0 < 3.1) /* g's old expiry has passed */
        usleep(50000);
    CHECK(mc_has(fd, "g"));
    CHECK(mc_has(fd, "stay") && mc_has(fd, "forever"));

    /* a delayed flush_all: what is there now goes at its time, a later set stays */
    CHECK_EQ_INT(kv_call(fd, "flush_all 2\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "OK"));
    double f0 = io_now();
    CHECK(mc_has(fd, "forever")); /* not yet */
    d = gone_after(fd, "forever", f0);
    CHECK(d >= 1.0);
    CHECK(!mc_has(fd, "stay"));
    mc_set(fd, "after", 0, "x");
    usleep(1100000);
    CHECK(mc_get(fd, "after", v, sizeof v, NULL) && !strcmp(v, "x"));
    /* a flush_all at once cancels a delayed one not yet due (as with memcached) */
    CHECK_EQ_INT(kv_call(fd, "flush_all 2\r\n", r, sizeof r), 0);
    CHECK_EQ_INT(kv_call(fd, "flush_all\r\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "OK"));
    mc_set(fd, "kept", 0, "k");
    usleep(3100000);
    CHECK(mc_has(fd, "kept"));

    /* the sweeper: 300 items expire unread, and go */
    long long items0 = mc_stat(fd, "curr_items");
    for (int i = 0; i < 300; i++) {
        char k[32];
        snprintf(k, sizeof k, "sw%d", i);
        mc_set(fd, k, 1, "v");
    }
    CHECK(mc_stat(fd, "curr_items") >= items0 + 300);
    double w0 = io_now();
    while (mc_stat(fd, "curr_items") > items0) {
        if (io_now() - w0 > 60)
            TEST_FAIL("the sweeper left %lld items after 60 s", mc_stat(fd, "curr_items"));
        usleep(100000);
    }
    CHECK(mc_stat(fd, "reclaimed") >= 300);
    close(fd);
    int st = kv_stop(&s, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return 0;
}
