/* examples/kvserver: -m bounds the items' memory, and the least recently used go first.
 * With -m 2, 100 values of 100 KB are stored while one key is read after each: the total
 * stays under 2 MiB (STAT bytes), evictions are counted, the early keys are gone, the
 * latest and the one read all along are there. */
#include "kv_mc.h"

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_evict KVSERVER");
    const char *args[] = { "-t", "2", "-m", "2", NULL };
    kv_server s = kv_start(argv[1], args);
    int fd = kv_connect(s.port);
    size_t n = 100000;
    char *val = malloc(n), *back = malloc(n + 2), r[128];
    CHECK(val && back);
    memset(val, 'v', n);
    mc_set(fd, "hot", 0, "h");
    for (int i = 0; i < 100; i++) {
        char k[32];
        snprintf(k, sizeof k, "big%d", i);
        val[0] = (char)('0' + i % 10);
        mc_store(fd, "set", k, (unsigned)i, 0, val, n, r, sizeof r);
        if (strcmp(r, "STORED"))
            TEST_FAIL("set %s: %s", k, r);
        char hv[8];
        CHECK(mc_get(fd, "hot", hv, sizeof hv, NULL) && !strcmp(hv, "h"));
        CHECK(mc_stat(fd, "bytes") <= 2 << 20);
    }
    CHECK(mc_stat(fd, "evictions") >= 70);
    CHECK(mc_stat(fd, "curr_items") <= 21);
    unsigned f;
    CHECK(mc_get(fd, "big99", back, n + 2, &f) && f == 99 && back[0] == '9' &&
          !memcmp(back + 1, val + 1, n - 1));
    CHECK(!mc_has(fd, "big0"));
    CHECK(!mc_has(fd, "big50"));
    free(val);
    free(back);
    close(fd);
    int st = kv_stop(&s, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return 0;
}
