/* examples/kvserver with its log: 8 clients PUT (and DEL) as fast as they can; the server
 * is killed with SIGKILL during the load; restarted on the same log, it has every write
 * it had acknowledged (a PUT's value, a DEL's absence).  Then a clean stop (SIGTERM: exit
 * 0) and a third start sees the same data. */
#include "kv_client.h"

#define CLIENTS 8
#define MAXOPS  200000

static int port;
static _Atomic int stop;
static _Atomic long acked_total;
static struct {
    long n;         /* acknowledged writes */
    long deleted_i; /* key index deleted last (every 10th key is deleted after its PUT) */
} res[CLIENTS];

static void *client(void *arg)
{
    int c = (int)(intptr_t)arg;
    int fd = kv_connect(port);
    char req[128], r[128];
    for (long i = 0; i < MAXOPS && !stop; i++) {
        snprintf(req, sizeof req, "PUT c%d_%ld value-%d-%ld\n", c, i, c, i);
        if (kv_do(fd, req, r, sizeof r) < 0)
            break;
        if (strcmp(r, "OK"))
            TEST_FAIL("PUT: %s", r);
        res[c].n = i + 1;
        if (i % 10 == 9) {
            snprintf(req, sizeof req, "DEL c%d_%ld\n", c, i);
            if (kv_do(fd, req, r, sizeof r) < 0)
                break;
            if (strcmp(r, "DELETED"))
                TEST_FAIL("DEL: %s", r);
            res[c].deleted_i = i;
        }
        acked_total++;
    }
    close(fd);
    return NULL;
}

static void verify(int fd)
{
    char req[128], r[160], want[160];
    for (int c = 0; c < CLIENTS; c++) {
        for (long i = 0; i < res[c].n; i++) {
            snprintf(req, sizeof req, "GET c%d_%ld\n", c, i);
            CHECK_EQ_INT(kv_do(fd, req, r, sizeof r), 0);
            if (i % 10 == 9 && i == res[c].n - 1 && i > res[c].deleted_i && !strcmp(r, "NOT_FOUND"))
                continue; /* its DEL was sent but not acknowledged: either outcome */
            if (i % 10 == 9 && i <= res[c].deleted_i)
                snprintf(want, sizeof want, "NOT_FOUND");
            else
                snprintf(want, sizeof want, "VALUE value-%d-%ld", c, i);
            if (strcmp(r, want))
                TEST_FAIL("client %d key %ld: got '%s', want '%s'", c, i, r, want);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_replay KVSERVER");
    char dir[] = "/tmp/weft_kv.XXXXXX", logp[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(logp, sizeof logp, "%s/kv.log", dir);
    const char *args[] = { "-L", logp, "-t", "2", NULL };
    kv_server s = kv_start(argv[1], args);
    port = s.port;
    pthread_t t[CLIENTS];
    for (int c = 0; c < CLIENTS; c++)
        CHECK_EQ_INT(pthread_create(&t[c], NULL, client, (void *)(intptr_t)c), 0);
    long want = getenv("WEFT_TEST_SLOW") ? 200 : 3000;
    double t0 = io_now();
    while (acked_total < want && io_now() - t0 < TEST_PATIENCE_S)
        usleep(1000);
    int st = kv_stop(&s, SIGKILL); /* during the load */
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    stop = 1;
    for (int c = 0; c < CLIENTS; c++)
        pthread_join(t[c], NULL);
    CHECK(acked_total >= want);

    s = kv_start(argv[1], args);
    int fd = kv_connect(s.port);
    verify(fd);
    char r[64];
    CHECK_EQ_INT(kv_do(fd, "PUT after restart\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "OK"));
    close(fd);
    st = kv_stop(&s, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);

    s = kv_start(argv[1], args);
    fd = kv_connect(s.port);
    verify(fd);
    CHECK_EQ_INT(kv_do(fd, "GET after\n", r, sizeof r), 0);
    CHECK(!strcmp(r, "VALUE restart"));
    close(fd);
    st = kv_stop(&s, SIGINT);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    unlink(logp);
    rmdir(dir);
    fprintf(stderr, "%ld acknowledged writes before SIGKILL, all found after restart\n",
            acked_total);
    return 0;
}
