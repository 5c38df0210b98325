/* A process out of descriptors: no io_uring ring and no I/O-thread epoll set can be made,
 * from the very first weft_io call on.  Every call still works (recv waiting for data a
 * peer sends later, send, poll, read from a pipe, fstat, a timed recv's ETIMEDOUT, a
 * sleep), none fails with EMFILE, and the process does not stay on the threads backend
 * for good: once descriptors are free again, the stream that had none and a stream made
 * afterwards each get their backend (a ring each on the uring backend, counted in
 * /proc/self/fd; the epoll set on the threads backend). */
#include "io_test.h"

#include <dirent.h>
#include <sys/syscall.h>

static int sv[2], pp[2];
static _Atomic int phase_ok;

/* Descriptors of this process whose link names `what` ("[io_uring]", "[eventpoll]"). */
static DIR *fd_dir; /* opened while descriptors were free; reread with rewinddir */

static int count_fds(const char *what)
{
    DIR *d = fd_dir;
    rewinddir(d);
    int n = 0;
    struct dirent *e;
    char p[300], l[128];
    while ((e = readdir(d))) {
        snprintf(p, sizeof p, "/proc/self/fd/%s", e->d_name);
        ssize_t k = readlink(p, l, sizeof l - 1);
        if (k > 0) {
            l[k] = 0;
            n += strstr(l, what) != NULL;
        }
    }
    return n;
}

static void sender(void *arg)
{
    CHECK_EQ_INT(CHECK_IO(weft_io_poll(-1, 0, 30)), 0); /* a sleep: the receiver waits */
    CHECK_EQ_INT(CHECK_IO(weft_io_send(sv[1], "late", 4, 0)), 4);
}

static void calls(void *arg)
{
    char b[16];
    ABT_thread s;
    ABT_pool pool;
    CHECK_ABT(ABT_self_get_last_pool(&pool));
    CHECK_ABT(ABT_thread_create(pool, sender, NULL, ABT_THREAD_ATTR_NULL, &s));
    CHECK_EQ_INT(CHECK_IO(weft_io_recv(sv[0], b, sizeof b, 0)), 4); /* waits for it */
    CHECK(!memcmp(b, "late", 4));
    CHECK_ABT(ABT_thread_join(s));
    CHECK_ABT(ABT_thread_free(&s));
    CHECK_EQ_INT(CHECK_IO(weft_io_send(sv[0], "back", 4, 0)), 4);
    CHECK_EQ_INT(CHECK_IO(weft_io_recv(sv[1], b, 4, MSG_WAITALL)), 4);
    CHECK(CHECK_IO(weft_io_poll(sv[1], POLLOUT, (int)(TEST_PATIENCE_S * 1000))) & POLLOUT);
    CHECK_EQ_INT(CHECK_IO(weft_io_poll(sv[1], POLLIN, 20)), 0);
    CHECK_EQ_INT(CHECK_IO(weft_io_write(pp[1], "p", 1)), 1);
    CHECK_EQ_INT(CHECK_IO(weft_io_read(pp[0], b, 1)), 1);
    struct stat st;
    CHECK_IO(weft_io_fstat(pp[0], &st));
    CHECK(S_ISFIFO(st.st_mode));
    int old = weft_io_set_timeout(30);
    CHECK_IO_ERR(weft_io_recv(sv[0], b, 1, 0), ETIMEDOUT);
    weft_io_set_timeout(old);
    phase_ok++;
}

int main(void)
{
    io_rt_init(1);
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    CHECK_EQ_INT(pipe2(pp, O_CLOEXEC), 0);
    fd_dir = opendir("/proc/self/fd");
    CHECK(fd_dir != NULL);
    struct rlimit old;
    CHECK_EQ_INT(getrlimit(RLIMIT_NOFILE, &old), 0);
    int lowest = dup(0); /* the next descriptor a call would get */
    CHECK(lowest >= 0);
    close(lowest);
    struct rlimit none = { (rlim_t)lowest, old.rlim_max };
    if (setrlimit(RLIMIT_NOFILE, &none) != 0 || dup(0) >= 0)
        TEST_SKIP("cannot take the descriptors away (setrlimit)");

    /* no descriptor at the first weft_io call, nor for the rest of this phase */
    ABT_thread t = io_spawn(calls, NULL);
    io_join(&t);
    CHECK_EQ_INT(phase_ok, 1);
    const char *want = getenv("WEFT_IO_BACKEND"), *have = weft_io_backend();
    CHECK(dup(0) < 0); /* still none free: the calls above ran without a backend fd */
    int rings0 = count_fds("[io_uring]"), ep0 = count_fds("[eventpoll]");

    /* descriptors again: the same stream (after the 100 ms retry delay) and a new one */
    CHECK_EQ_INT(setrlimit(RLIMIT_NOFILE, &old), 0);
    if (want && strcmp(want, have) != 0) {
        /* the backend asked for was given up: wrong if this kernel lets us make a ring */
        struct io_uring_params_min {
            unsigned v[30];
        } prm = { { 0 } };
        int fd = (int)syscall(__NR_io_uring_setup, 1, &prm);
        if (fd >= 0)
            TEST_FAIL("%s asked for, %s in use: given up for want of descriptors", want, have);
        TEST_SKIP("backend %s asked for, %s in use (io_uring unavailable here)", want, have);
    }
    CHECK_EQ_INT(CHECK_IO(weft_io_poll(-1, 0, 150)), 0);
    t = io_spawn(calls, NULL);
    io_join(&t);
    ABT_pool p2;
    ABT_xstream x2;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &p2));
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &p2, ABT_SCHED_CONFIG_NULL, &x2));
    CHECK_ABT(ABT_thread_create(p2, calls, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(phase_ok, 3);
    int rings1 = count_fds("[io_uring]"), ep1 = count_fds("[eventpoll]");
    fprintf(stderr, "%s backend: rings %d -> %d, epoll sets %d -> %d\n", weft_io_backend(), rings0,
            rings1, ep0, ep1);
    if (!strcmp(weft_io_backend(), "uring")) {
        CHECK_EQ_INT(rings0, 0);
        CHECK(rings1 >= 2); /* the primary stream's and the new stream's */
    } else {
        CHECK_EQ_INT(ep0, 0);
        CHECK(ep1 >= 1);
    }
    CHECK_ABT(ABT_xstream_join(x2));
    CHECK_ABT(ABT_xstream_free(&x2));
    closedir(fd_dir);
    io_rt_fini();
    return 0;
}
