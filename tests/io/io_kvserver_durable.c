/* examples/kvserver: a PUT is visible to other clients only once it is durable.  The
 * server runs with a preload (kv_sync_gate.c) whose fdatasync waits for a gate file, on
 * the threads backend (whose I/O threads call libc's fdatasync).  With the gate closed, a
 * PUT k v2 is written to the log but not yet synced: it gets no reply, and another client's
 * GET k still answers the old value (and a second PUT that came meanwhile is not visible
 * either); once the gate opens, both are acknowledged and visible, and a restart has them. */
#include "kv_client.h"

#include <poll.h>

static int has_reply(int fd)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    return poll(&p, 1, 0) > 0;
}

static void get_is(int fd, const char *key, const char *want)
{
    char req[64], r[128];
    snprintf(req, sizeof req, "GET %s\n", key);
    CHECK_EQ_INT(kv_do(fd, req, r, sizeof r), 0);
    if (strcmp(r, want))
        TEST_FAIL("GET %s: '%s', want '%s'", key, r, want);
}

static void reply_is(int fd, const char *want)
{
    char r[64];
    CHECK_EQ_INT(kv_reply(fd, r, sizeof r), 0);
    if (strcmp(r, want))
        TEST_FAIL("reply '%s', want '%s'", r, want);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        TEST_FAIL("usage: io_kvserver_durable KVSERVER LIBKV_SYNC_GATE");
    char dir[] = "/tmp/weft_kvg.XXXXXX", logp[96], gatep[96];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(logp, sizeof logp, "%s/kv.log", dir);
    snprintf(gatep, sizeof gatep, "%s/gate", dir);
    FILE *g = fopen(gatep, "w");
    CHECK(g != NULL);
    fclose(g);
    setenv("KV_SYNC_GATE", gatep, 1);
    /* the preload is not the first library of a sanitized server: tell ASan it is fine */
    const char *ao = getenv("ASAN_OPTIONS");
    char aopts[512];
    snprintf(aopts, sizeof aopts, "%s%sverify_asan_link_order=0", ao ? ao : "", ao ? ":" : "");
    setenv("ASAN_OPTIONS", aopts, 1);
    kv_opts o = { .preload = argv[2] };
    const char *args[] = { "-L", logp, "-t", "2", NULL };
    kv_server s = kv_start_ex(argv[1], args, &o);
    int w = kv_connect(s.port), w2 = kv_connect(s.port), rd = kv_connect(s.port);
    char r[64];
    CHECK_EQ_INT(kv_do(w, "PUT k v1\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "OK"));
    get_is(rd, "k", "VALUE v1");

    CHECK_EQ_INT(unlink(gatep), 0); /* commits now stop before their fdatasync returns */
    CHECK_EQ_INT(kv_send_req(w, "PUT k v2\n"), 0);
    usleep(100000); /* let it reach the log (a slow machine only makes this test weaker) */
    CHECK_EQ_INT(kv_send_req(w2, "PUT j x\n"), 0);
    for (int i = 0; i < 20; i++) {
        get_is(rd, "k", "VALUE v1"); /* written, not durable: not visible */
        get_is(rd, "j", "NOT_FOUND");
        usleep(10000);
    }
    if (has_reply(w) || has_reply(w2))
        TEST_FAIL("a PUT was acknowledged while fdatasync was held (is the preload active?)");

    g = fopen(gatep, "w"); /* durable now */
    CHECK(g != NULL);
    fclose(g);
    reply_is(w, "OK");
    get_is(rd, "k", "VALUE v2"); /* acknowledged: visible */
    reply_is(w2, "OK");
    get_is(rd, "j", "VALUE x");
    close(w);
    close(w2);
    close(rd);
    int st = kv_stop(&s, SIGKILL);
    CHECK(WIFSIGNALED(st));

    s = kv_start_ex(argv[1], args, &o);
    rd = kv_connect(s.port);
    get_is(rd, "k", "VALUE v2");
    get_is(rd, "j", "VALUE x");
    close(rd);
    st = kv_stop(&s, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    unlink(gatep);
    unlink(logp);
    rmdir(dir);
    return 0;
}
