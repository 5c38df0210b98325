/* Many concurrent connections on two streams: a server (one ULT per connection, 2
 * streams) holds C connections open at once - 10,000 in a Release build, 200 under
 * WEFT_TEST_SLOW - each served a request before and after all C are connected (so all C
 * are alive together), without an error.  The clients are ULTs of a child process (its own
 * weft, 2 streams), so each process needs C descriptors (the soft RLIMIT_NOFILE is raised). */
#include "io_test.h"

#include <sys/prctl.h>

#include <sys/syscall.h>
#include <sys/wait.h>

static int C;
static int lfd, port;
static _Atomic int live, served, errors;
static ABT_eventual all_in;

static int send_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = weft_io_send(fd, s, n, MSG_NOSIGNAL);
        if (w <= 0)
            return -1;
        s += w, n -= (size_t)w;
    }
    return 0;
}

/* read up to and including '\n' (requests and replies are short lines) */
static int recv_line(int fd, char *b, size_t cap)
{
    size_t n = 0;
    while (n < cap - 1) {
        ssize_t r = weft_io_recv(fd, b + n, 1, 0);
        if (r <= 0)
            return -1;
        if (b[n++] == '\n')
            break;
    }
    b[n] = 0;
    return (int)n;
}

static void conn(void *arg)
{
    int fd = (int)(intptr_t)arg;
    char b[64];
    if (recv_line(fd, b, sizeof b) < 0 || strncmp(b, "hello ", 6) || send_all(fd, b, strlen(b)))
        goto fail;
    if (++live == C)
        ABT_eventual_set(all_in, NULL, 0);
    ABT_eventual_wait(all_in, NULL);
    if (send_all(fd, "go\n", 3) || recv_line(fd, b, sizeof b) < 0 || strncmp(b, "bye ", 4) ||
        send_all(fd, b, strlen(b)))
        goto fail;
    served++;
    weft_io_close(fd);
    return;
fail:
    errors++;
    weft_io_close(fd);
}

static void acceptor(void *arg)
{
    for (int i = 0; i < C; i++) {
        int fd = weft_io_accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) {
            errors++;
            continue;
        }
        ABT_thread_create(io_pool, conn, (void *)(intptr_t)fd, ABT_THREAD_ATTR_NULL, NULL);
    }
}

static void client(void *arg)
{
    int i = (int)(intptr_t)arg;
    char b[64], e[64];
    int fd = weft_io_socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = io_loopback(port);
    if (fd < 0 || weft_io_connect(fd, (struct sockaddr *)&a, sizeof a) < 0)
        goto fail;
    snprintf(e, sizeof e, "hello %d\n", i);
    if (send_all(fd, e, strlen(e)) || recv_line(fd, b, sizeof b) < 0 || strcmp(b, e))
        goto fail;
    if (recv_line(fd, b, sizeof b) < 0 || strcmp(b, "go\n"))
        goto fail;
    snprintf(e, sizeof e, "bye %d\n", i);
    if (send_all(fd, e, strlen(e)) || recv_line(fd, b, sizeof b) < 0 || strcmp(b, e))
        goto fail;
    if (weft_io_recv(fd, b, 1, 0) != 0) /* the server closes first */
        goto fail;
    weft_io_close(fd);
    served++;
    return;
fail:
    if (fd >= 0)
        weft_io_close(fd);
    errors++;
}

static int run_clients(void)
{
    io_rt_init(2);
    ABT_thread *t = calloc((size_t)C, sizeof *t);
    for (int i = 0; i < C; i++)
        t[i] = io_spawn(client, (void *)(intptr_t)i);
    for (int i = 0; i < C; i++)
        io_join(&t[i]);
    free(t);
    io_rt_fini();
    if (errors || served != C) {
        fprintf(stderr, "clients: %d served, %d errors\n", served, errors);
        return 1;
    }
    return 0;
}

int main(void)
{
    C = getenv("WEFT_TEST_SLOW") ? 200 : 10000;
    if (getenv("IO_TEST_CONNS")) /* for experiments */
        C = atoi(getenv("IO_TEST_CONNS"));
    long lim = io_raise_nofile(C + 64);
    if (lim < C + 64)
        TEST_SKIP("RLIMIT_NOFILE %ld < %d", lim, C + 64);
    lfd = io_listen_any(&port, 4096);
    pid_t parent = getpid();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* the clients die with the test */
        if (getppid() != parent)
            _exit(1);
        close(lfd);
        _exit(run_clients());
    }
    double t0 = io_now();
    io_rt_init(2);
    io_test_check_backend();
    CHECK_ABT(ABT_eventual_create(0, &all_in));
    ABT_thread acc = io_spawn(acceptor, NULL);
    io_join(&acc);
    /* wait for the child without holding this stream (its ring reaps our connections) */
    int st;
    int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pfd >= 0) {
        CHECK(CHECK_IO(weft_io_poll(pfd, POLLIN, -1)) & POLLIN);
        close(pfd);
        CHECK_EQ_INT(waitpid(pid, &st, 0), pid);
    } else { /* no pidfd (valgrind): look every 5 ms, parked in between */
        int p[2];
        CHECK_EQ_INT(pipe(p), 0);
        while (waitpid(pid, &st, WNOHANG) == 0)
            weft_io_poll(p[0], POLLIN, 5);
        close(p[0]);
        close(p[1]);
    }
    while (served + errors < C) /* the last connections finish */
        ABT_thread_yield();
    CHECK_ABT(ABT_eventual_free(&all_in));
    io_rt_fini();
    fprintf(stderr, "%d connections on 2 streams (%s): %d served, %d errors, %.2f s\n", C,
            weft_io_backend(), served, errors, io_now() - t0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK_EQ_INT(errors, 0);
    CHECK_EQ_INT(served, C);
    CHECK_EQ_INT(live, C);
    close(lfd);
    return 0;
}
