/* tests/io/kv_client.h - starting examples/kvserver from a test and talking to it with
 * plain blocking sockets (the test side needs no weft). */
#ifndef KV_CLIENT_H
#define KV_CLIENT_H

#include <sys/wait.h>

#include "io_test.h"

typedef struct {
    pid_t pid;
    int port;
    FILE *out; /* the server's stdout */
} kv_server;

/* Start `exe` with the given extra arguments (NULL-terminated); waits for its
 * "listening" line.  Skips the test when the server runs another backend than asked. */
static inline kv_server kv_start(const char *exe, const char *const *extra)
{
    int p[2];
    CHECK_EQ_INT(pipe(p), 0);
    kv_server s = { 0 };
    s.pid = fork();
    CHECK(s.pid >= 0);
    if (s.pid == 0) {
        dup2(p[1], 1);
        close(p[0]);
        close(p[1]);
        const char *argv[16] = { exe, "-p", "0", "-q" };
        int n = 4;
        for (int i = 0; extra && extra[i] && n < 15; i++)
            argv[n++] = extra[i];
        argv[n] = NULL;
        execv(exe, (char *const *)argv);
        _exit(127);
    }
    close(p[1]);
    s.out = fdopen(p[0], "r");
    char line[256];
    if (!fgets(line, sizeof line, s.out))
        TEST_FAIL("kvserver did not start");
    char *c = strstr(line, "127.0.0.1:");
    CHECK(c != NULL);
    s.port = atoi(c + 10);
    const char *want = getenv("WEFT_IO_BACKEND");
    if (want && !strstr(line, want)) {
        kill(s.pid, SIGKILL);
        waitpid(s.pid, NULL, 0);
        TEST_SKIP("kvserver does not run the %s backend: %s", want, line);
    }
    return s;
}

/* Stop with `sig`; returns the wait status. */
static inline int kv_stop(kv_server *s, int sig)
{
    kill(s->pid, sig);
    int st;
    CHECK_EQ_INT(waitpid(s->pid, &st, 0), s->pid);
    fclose(s->out);
    return st;
}

static inline int kv_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    CHECK(fd >= 0);
    struct sockaddr_in a = io_loopback(port);
    CHECK_EQ_INT(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* Send a request line and read one reply line into r (without '\n'): 0, or -1 when the
 * connection failed. */
static inline int kv_call(int fd, const char *req, char *r, size_t cap)
{
    size_t n = strlen(req);
    if (send(fd, req, n, MSG_NOSIGNAL) != (ssize_t)n)
        return -1;
    size_t got = 0;
    while (got < cap - 1) {
        ssize_t k = recv(fd, r + got, 1, 0);
        if (k <= 0)
            return -1;
        if (r[got] == '\n')
            break;
        got++;
    }
    r[got] = 0;
    return 0;
}

#endif
