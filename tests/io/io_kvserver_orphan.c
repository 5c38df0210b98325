/* A kvserver started by a test (kv_client.h) dies with the test, however the test ends:
 * here the process that started it is killed with SIGKILL, and the server must be gone
 * soon after (PR_SET_PDEATHSIG), not left running as an orphan. */
#include "kv_client.h"

static int gone(pid_t pid)
{
    char p[64], b[512];
    snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(p, "r");
    if (!f)
        return 1;
    size_t n = fread(b, 1, sizeof b - 1, f);
    fclose(f);
    b[n] = 0;
    char *c = strrchr(b, ')');
    return c && (c[2] == 'Z' || c[2] == 'X'); /* dead, not yet reaped by its new parent */
}

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_orphan KVSERVER");
    int p[2];
    CHECK_EQ_INT(pipe(p), 0);
    pid_t test = fork(); /* plays the test that starts a server, then is killed */
    CHECK(test >= 0);
    if (test == 0) {
        close(p[0]);
        kv_server s = kv_start(argv[1], NULL);
        CHECK_EQ_INT(write(p[1], &s.pid, sizeof s.pid), (ssize_t)sizeof s.pid);
        for (;;)
            pause();
    }
    close(p[1]);
    pid_t server;
    ssize_t r = read(p[0], &server, sizeof server);
    if (r != (ssize_t)sizeof server) {
        int st;
        waitpid(test, &st, 0);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
            return 77; /* the server runs another backend than asked (it said why) */
        TEST_FAIL("the inner test did not start a server");
    }
    CHECK(!gone(server));
    CHECK_EQ_INT(kill(test, SIGKILL), 0);
    CHECK_EQ_INT(waitpid(test, NULL, 0), test);
    double t0 = io_now();
    while (!gone(server)) {
        if (io_now() - t0 > TEST_PATIENCE_S) {
            kill(server, SIGKILL);
            TEST_FAIL("the server outlived its test by %.0f s", TEST_PATIENCE_S);
        }
        usleep(10000);
    }
    fprintf(stderr, "server gone %.3f s after its test was killed\n", io_now() - t0);
    return 0;
}
