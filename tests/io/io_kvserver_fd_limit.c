/* examples/kvserver out of descriptors: started with RLIMIT_NOFILE 64, 100 clients connect
 * and each sends a PUT.  While it is saturated (it holds all 64 descriptors and the other
 * clients wait in its listen backlog) the server must not spin: over the same second it
 * uses less than 30% of the CPU time a spinning process gets (measured alongside: on a
 * loaded machine a spinning server would get about as little, a sleeping one uses far
 * less; not checked under sanitizers, whose runtimes cost CPU per wake-up).  The connected
 * clients are still served, every waiting client is served as others close, and SIGTERM
 * while saturated ends the server (exit 0) within a generous deadline. */
#include "kv_client.h"

#include <poll.h>
#include <sys/prctl.h>

#define N1 100 /* first wave */
#define N2 50  /* second wave, to saturate it again before SIGTERM (backlog room: 128) */

static int fds[N1 + N2];
static int replied[N1 + N2], closed_[N1 + N2];

static void put_req(int i)
{
    char req[64];
    snprintf(req, sizeof req, "PUT k%d v%d\n", i, i);
    CHECK_EQ_INT(kv_send_req(fds[i], req), 0);
}

/* Read the replies that have come (each client's "STORED"); returns how many have replied. */
static int collect(int n, int wait_ms)
{
    struct pollfd p[N1 + N2];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!replied[i] && !closed_[i]) {
            p[k].fd = fds[i];
            p[k].events = POLLIN;
            k++;
        }
    if (k)
        poll(p, (nfds_t)k, wait_ms);
    int got = 0;
    for (int i = 0; i < n; i++) {
        if (!replied[i] && !closed_[i]) {
            char r[16];
            ssize_t m = recv(fds[i], r, sizeof r, MSG_DONTWAIT);
            if (m > 0) {
                if (m != 8 || memcmp(r, "STORED\r\n", 8))
                    TEST_FAIL("client %d: reply '%.*s'", i, (int)m, r);
                replied[i] = 1;
            } else if (m == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                TEST_FAIL("client %d: connection lost (%s)", i, m ? strerror(errno) : "EOF");
            }
        }
        got += replied[i];
    }
    return got;
}

static void wait_saturated(pid_t pid, long limit)
{
    double t0 = io_now();
    while (kv_nfds(pid) < limit) {
        if (io_now() - t0 > TEST_PATIENCE_S)
            TEST_FAIL("kvserver holds %d descriptors, never %ld", kv_nfds(pid), limit);
        usleep(10000);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2)
        TEST_FAIL("usage: io_kvserver_fd_limit KVSERVER");
    if (io_raise_nofile(N1 + N2 + 64) < N1 + N2 + 64)
        TEST_SKIP("RLIMIT_NOFILE too low for %d clients", N1 + N2);
    const long limit = 64;
    kv_opts o = { .nofile = limit };
    const char *args[] = { "-t", "2", NULL };
    kv_server s = kv_start_ex(argv[1], args, &o);

    for (int i = 0; i < N1; i++) {
        fds[i] = kv_connect(s.port); /* completes in the backlog when not accepted */
        put_req(i);
    }
    wait_saturated(s.pid, limit);
    int served = collect(N1, 100);
    for (double t = io_now(); !served; served = collect(N1, 100))
        if (io_now() - t > 60) {
            if (getenv("WEFT_TEST_SLOW")) /* a sanitizer runtime's descriptors */
                TEST_SKIP("no client served within 64 descriptors under this runtime");
            TEST_FAIL("no client served in 60 s");
        }
    CHECK(served < N1); /* it really is out of descriptors */

    /* saturated: the server's CPU time over >= 1 s, against what a spinning thread gets
     * in the same window (a child that spins): a server that spins gets about as much,
     * however loaded the machine is; one that sleeps uses a small fraction of it */
    pid_t parent = getpid(), ref = fork();
    CHECK(ref >= 0);
    if (ref == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
        for (volatile unsigned long i = 0;; i++)
            ;
    }
    double c0, w0, c1, w1, r0, r1, rw;
    long k0, k1, rk;
    kv_usage2(s.pid, &c0, &w0, &k0);
    kv_usage2(ref, &r0, &rw, &rk);
    double t0 = io_now();
    usleep(1000000);
    kv_usage2(s.pid, &c1, &w1, &k1);
    kv_usage2(ref, &r1, &rw, &rk);
    double secs = io_now() - t0;
    kill(ref, SIGKILL);
    waitpid(ref, NULL, 0);
    double cpu = (c1 - c0) / secs, spin = (r1 - r0) / secs;
    fprintf(stderr,
            "saturated kvserver (%d of %d served): %.1f ms CPU per second (a spinning thread "
            "got %.1f ms), %.1f ms waiting for a CPU, %.1f wake-ups per second\n",
            served, N1, cpu * 1000, spin * 1000, (w1 - w0) / secs * 1000, (double)(k1 - k0) / secs);
    if (!getenv("WEFT_TEST_SLOW")) /* sanitizer runtimes cost CPU per wake-up of their own */
        CHECK(cpu < 0.3 * spin);

    /* the connected clients are still served */
    int a = -1;
    served = collect(N1, 0);
    for (int i = 0; i < N1 && a < 0; i++)
        if (replied[i])
            a = i;
    CHECK(a >= 0);
    char r[64], want[64];
    snprintf(want, sizeof want, "GET k%d\n", a);
    CHECK_EQ_INT(kv_do(fds[a], want, r, sizeof r), 0);
    snprintf(want, sizeof want, "VALUE v%d", a);
    CHECK(!strcmp(r, want));

    /* close served clients one by one: every waiting client gets its turn */
    t0 = io_now();
    while (served < N1) {
        int c = -1;
        for (int i = 0; i < N1 && c < 0; i++)
            if (replied[i] && !closed_[i])
                c = i;
        if (c >= 0) {
            close(fds[c]);
            closed_[c] = 1;
        }
        int before = served;
        served = collect(N1, 200);
        if (served > before)
            t0 = io_now();
        if (c < 0 && io_now() - t0 > 60)
            TEST_FAIL("%d of %d clients served, none in 60 s with descriptors free", served, N1);
    }
    fprintf(stderr, "all %d clients served\n", N1);

    /* saturated again, then SIGTERM */
    for (int i = N1; i < N1 + N2; i++) {
        fds[i] = kv_connect(s.port);
        put_req(i);
    }
    wait_saturated(s.pid, limit);
    t0 = io_now();
    kill(s.pid, SIGTERM);
    int st = kv_wait_exit(&s);
    fprintf(stderr, "SIGTERM while saturated: exited in %.2f s\n", io_now() - t0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    for (int i = 0; i < N1 + N2; i++)
        if (!closed_[i])
            close(fds[i]);
    return 0;
}
