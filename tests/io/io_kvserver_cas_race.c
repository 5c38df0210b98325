/* examples/kvserver: cas and incr between connections on 2 streams.  8 client threads,
 * each with its own connection, add 1 to a counter 300 times with gets + cas (retrying
 * on EXISTS), and 300 times with incr: no update is lost (both counters end at 2400),
 * and the server counted every EXISTS the clients saw (cas_badval). */
#include "kv_mc.h"

#include <pthread.h>

#define CLIENTS 8
#define ROUNDS  300

static int port;
static _Atomic long exists_seen;

static void *client(void *arg)
{
    int fd = kv_connect(port);
    char l[256], v[64], req[128];
    for (int i = 0; i < ROUNDS; i++) {
        for (;;) {
            CHECK_EQ_INT(kv_call(fd, "gets c\r\n", l, sizeof l), 0);
            unsigned f, len;
            unsigned long long cas;
            char k[16];
            CHECK_EQ_INT(sscanf(l, "VALUE %15s %u %u %llu", k, &f, &len, &cas), 4);
            CHECK(len < sizeof v - 2);
            CHECK_EQ_INT(kv_read_n(fd, v, len + 2), 0);
            v[len] = 0;
            CHECK_EQ_INT(kv_line(fd, l, sizeof l), 0);
            char nv[32];
            int nl = snprintf(nv, sizeof nv, "%ld", atol(v) + 1);
            int rl = snprintf(req, sizeof req, "cas c 0 0 %d %llu\r\n%s\r\n", nl, cas, nv);
            CHECK_EQ_INT(kv_send(fd, req, (size_t)rl), 0);
            CHECK_EQ_INT(kv_line(fd, l, sizeof l), 0);
            if (!strcmp(l, "STORED"))
                break;
            if (strcmp(l, "EXISTS"))
                TEST_FAIL("cas: %s", l);
            exists_seen++;
        }
        CHECK_EQ_INT(kv_call(fd, "incr n 1\r\n", l, sizeof l), 0);
        CHECK(atol(l) > 0);
    }
    close(fd);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_cas_race KVSERVER");
    const char *args[] = { "-t", "2", NULL };
    kv_server s = kv_start(argv[1], args);
    port = s.port;
    int fd = kv_connect(s.port);
    mc_set(fd, "c", 0, "0");
    mc_set(fd, "n", 0, "0");
    pthread_t t[CLIENTS];
    for (int i = 0; i < CLIENTS; i++)
        CHECK_EQ_INT(pthread_create(&t[i], NULL, client, NULL), 0);
    for (int i = 0; i < CLIENTS; i++)
        pthread_join(t[i], NULL);
    char v[64];
    CHECK(mc_get(fd, "c", v, sizeof v, NULL));
    if (atol(v) != CLIENTS * ROUNDS)
        TEST_FAIL("cas counter %s, want %d", v, CLIENTS * ROUNDS);
    CHECK(mc_get(fd, "n", v, sizeof v, NULL));
    if (atol(v) != CLIENTS * ROUNDS)
        TEST_FAIL("incr counter %s, want %d", v, CLIENTS * ROUNDS);
    fprintf(stderr, "cas retries after EXISTS: %ld\n", (long)exists_seen);
    CHECK(mc_stat(fd, "cas_badval") == exists_seen);
    close(fd);
    int st = kv_stop(&s, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return 0;
}
