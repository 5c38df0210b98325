/* The blocking calls the layer wraps (src/pthread/blocking.c, sleep.c), called by a
 * thread (a ULT under the layer), fail as glibc's do: the same return value and errno
 * (EBADF, EINVAL, ESPIPE, ENOTSOCK, ENOTCONN, ECHILD, EAGAIN, ...; clock_nanosleep returns
 * its error and leaves errno alone); fcntl passes its int or pointer argument through
 * for the commands it does not bracket.  The _glibc run checks the same values. */
#include "pth_test.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>

static int ours;
static volatile int minus_one = -1; /* a bad count the compiler does not see */

/* errno of the OS thread that runs the caller now: a ULT may resume on another OS thread
 * after a call that parks it (a sleep), and errno is per OS thread, while the compiler may
 * keep errno's address across calls (__errno_location is "const"). */
static __attribute__((noinline)) void set_errno(int e) { errno = e; }
static __attribute__((noinline)) int get_errno(void) { return errno; }

/* A call that returns -1 with errno e. */
#define CHECK_ERR(call, e)                                                              \
    do {                                                                                \
        set_errno(0);                                                                   \
        long r_ = (long)(call);                                                         \
        int e_ = get_errno();                                                           \
        if (r_ != -1 || e_ != (e))                                                      \
            TEST_FAIL("%s: %ld, errno %d (%s), expected -1 and %d (%s)", #call, r_, e_, \
                      strerror(e_), (e), strerror(e));                                  \
    } while (0)

static void *checks(void *arg)
{
    if (ours)
        CHECK(pth_test_is_ult());
    char buf[16] = { 0 };
    struct iovec iov = { buf, sizeof buf };
    int p[2];
    CHECK(pipe(p) == 0);

    /* read / write and their variants */
    CHECK_ERR(read(-1, buf, sizeof buf), EBADF);
    CHECK_ERR(write(-1, buf, 1), EBADF);
    CHECK_ERR(read(p[1], buf, sizeof buf), EBADF); /* the write end */
    CHECK_ERR(write(p[0], buf, 1), EBADF);
    CHECK_ERR(pread(-1, buf, 1, 0), EBADF);
    CHECK_ERR(pwrite(-1, buf, 1, 0), EBADF);
    CHECK_ERR(pread(p[0], buf, 1, 0), ESPIPE);
    CHECK_ERR(pwrite(p[1], buf, 1, 0), ESPIPE);
    CHECK_ERR(pread64(p[0], buf, 1, 0), ESPIPE);
    CHECK_ERR(pwrite64(p[1], buf, 1, 0), ESPIPE);
    CHECK_ERR(readv(-1, &iov, 1), EBADF);
    CHECK_ERR(writev(-1, &iov, 1), EBADF);
    CHECK_ERR(readv(p[0], &iov, minus_one), EINVAL);
    CHECK_ERR(writev(p[1], &iov, minus_one), EINVAL);
    CHECK_ERR(preadv(p[0], &iov, 1, 0), ESPIPE);
    CHECK_ERR(pwritev(p[1], &iov, 1, 0), ESPIPE);
    CHECK_ERR(preadv64(-1, &iov, 1, 0), EBADF);
    CHECK_ERR(pwritev64(-1, &iov, 1, 0), EBADF);
    char tmpl[] = "/tmp/weft_block_errors_XXXXXX";
    int f = mkstemp(tmpl);
    CHECK(f >= 0);
    unlink(tmpl);
    CHECK_ERR(pread(f, buf, 1, -1), EINVAL);
    CHECK_ERR(pwrite(f, buf, 1, -1), EINVAL);
    CHECK_ERR(preadv(f, &iov, 1, -1), EINVAL);

    /* sockets */
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    int lone = socket(AF_UNIX, SOCK_STREAM, 0);
    CHECK(lone >= 0);
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
    CHECK_ERR(recv(-1, buf, 1, 0), EBADF);
    CHECK_ERR(recv(p[0], buf, 1, 0), ENOTSOCK);
    CHECK_ERR(recv(sv[0], buf, 1, MSG_DONTWAIT), EAGAIN);
    CHECK_ERR(recvfrom(sv[0], buf, 1, MSG_DONTWAIT, NULL, NULL), EAGAIN);
    CHECK_ERR(recvmsg(sv[0], &mh, MSG_DONTWAIT), EAGAIN);
    CHECK_ERR(recvmsg(-1, &mh, 0), EBADF);
    CHECK_ERR(send(-1, buf, 1, 0), EBADF);
    CHECK_ERR(send(lone, buf, 1, 0), ENOTCONN);
    CHECK_ERR(sendto(p[1], buf, 1, 0, NULL, 0), ENOTSOCK);
    CHECK_ERR(sendmsg(lone, &mh, 0), ENOTCONN);
    CHECK_ERR(accept(-1, NULL, NULL), EBADF);
    CHECK_ERR(accept(p[0], NULL, NULL), ENOTSOCK);
    CHECK_ERR(accept(lone, NULL, NULL), EINVAL); /* not listening */
    CHECK_ERR(accept4(lone, NULL, NULL, -1), EINVAL);
    CHECK_ERR(connect(-1, (struct sockaddr *)&sa, sizeof sa), EBADF);
    CHECK_ERR(connect(p[0], (struct sockaddr *)&sa, sizeof sa), ENOTSOCK);
    snprintf(sa.sun_path, sizeof sa.sun_path, "/nonexistent/weft-%d", (int)getpid());
    CHECK_ERR(connect(lone, (struct sockaddr *)&sa, sizeof sa), ENOENT);

    /* poll, select, epoll */
    struct rlimit rl;
    CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
    struct pollfd pf = { .fd = p[0], .events = POLLIN };
    /* more entries than descriptors (all readable); not under valgrind, which shows the
     * program a lower limit than the kernel's */
    const char *pre = getenv("LD_PRELOAD");
    if (rl.rlim_cur < (1u << 22) && !(pre && strstr(pre, "vgpreload"))) {
        struct pollfd *many = calloc(rl.rlim_cur + 1, sizeof *many);
        CHECK(many != NULL);
        CHECK_ERR(poll(many, (nfds_t)rl.rlim_cur + 1, 10), EINVAL);
        free(many);
    }
    CHECK_EQ_INT(poll(&pf, 1, 0), 0); /* nothing to read */
    CHECK_EQ_INT(poll(&pf, 1, 1), 0); /* a time-out */
    struct timespec bad = { 0, 1000000000 }, zero = { 0, 0 }, ms = { 0, 1000000 };
    CHECK_ERR(ppoll(&pf, 1, &bad, NULL), EINVAL);
    CHECK_EQ_INT(ppoll(&pf, 1, &ms, NULL), 0);
    fd_set rs;
    FD_ZERO(&rs);
    struct timeval tv = { 0, 1000 }, tbad = { 0, -1 };
    CHECK_ERR(select(-1, &rs, NULL, NULL, &tv), EINVAL);
    CHECK_ERR(select(1, &rs, NULL, NULL, &tbad), EINVAL);
    FD_SET(p[0], &rs);
    CHECK_EQ_INT(select(p[0] + 1, &rs, NULL, NULL, &tv), 0);
    CHECK_ERR(pselect(-1, &rs, NULL, NULL, &zero, NULL), EINVAL);
    CHECK_ERR(pselect(1, NULL, NULL, NULL, &bad, NULL), EINVAL);
    struct epoll_event ev;
    int ep = epoll_create1(0);
    CHECK(ep >= 0);
    CHECK_ERR(epoll_wait(-1, &ev, 1, 10), EBADF);
    CHECK_ERR(epoll_wait(p[0], &ev, 1, 10), EINVAL); /* not an epoll descriptor */
    CHECK_ERR(epoll_wait(ep, &ev, 0, 10), EINVAL);
    CHECK_EQ_INT(epoll_wait(ep, &ev, 1, 1), 0);
    CHECK_ERR(epoll_pwait(ep, &ev, minus_one, 10, NULL), EINVAL);
    CHECK_EQ_INT(epoll_pwait(ep, &ev, 1, 1, NULL), 0);

    /* the sleep family */
    struct timespec neg = { -1, 0 }, rem = { 7, 7 };
    CHECK_ERR(nanosleep(&bad, &rem), EINVAL);
    CHECK_ERR(nanosleep(&neg, NULL), EINVAL);
    struct timespec negns = { 0, -1 };
    CHECK_ERR(nanosleep(&negns, NULL), EINVAL);
    CHECK_EQ_INT(rem.tv_sec, 7); /* untouched */
    set_errno(1234);
    CHECK_EQ_INT(clock_nanosleep(CLOCK_MONOTONIC, 0, &bad, NULL), EINVAL);
    CHECK_EQ_INT(clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &neg, NULL), EINVAL);
    CHECK_EQ_INT(clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &ms, NULL), EINVAL);
    CHECK_EQ_INT(clock_nanosleep((clockid_t)12345, 0, &ms, NULL), EINVAL);
    CHECK_EQ_INT(clock_nanosleep(CLOCK_MONOTONIC_RAW, 0, &ms, NULL), ENOTSUP);
    CHECK_EQ_INT(get_errno(), 1234); /* clock_nanosleep reports in its result only */
    CHECK_EQ_INT(nanosleep(&zero, NULL), 0);
    CHECK_EQ_INT(usleep(0), 0);
    CHECK_EQ_INT(sleep(0), 0);
    CHECK_EQ_INT(get_errno(), 1234); /* success leaves errno alone */

    /* signals: nothing pending */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR2);
    siginfo_t si;
    CHECK_ERR(sigtimedwait(&set, &si, &zero), EAGAIN);
    CHECK_ERR(sigtimedwait(&set, &si, &ms), EAGAIN);
    CHECK_ERR(sigtimedwait(&set, &si, &bad), EINVAL);

    /* waiting for children: there are none */
    int st;
    CHECK_ERR(wait(&st), ECHILD);
    CHECK_ERR(waitpid(-1, &st, 0), ECHILD);
    CHECK_ERR(waitpid(-1, &st, WNOHANG), ECHILD);
    CHECK_ERR(waitpid(-1, &st, 0x7000000), EINVAL);
    CHECK_ERR(wait4(-1, &st, 0, NULL), ECHILD);
    CHECK_ERR(wait3(&st, 0, NULL), ECHILD);
    CHECK_ERR(waitid(P_ALL, 0, &si, WEXITED), ECHILD);
    CHECK_ERR(waitid(P_ALL, 0, &si, 0), EINVAL);

    /* files and locks */
    CHECK_ERR(fsync(-1), EBADF);
    CHECK_ERR(fdatasync(-1), EBADF);
    CHECK_ERR(fsync(p[0]), EINVAL); /* a pipe */
    CHECK_ERR(fdatasync(p[0]), EINVAL);
    CHECK_EQ_INT(fsync(f), 0);
    CHECK_EQ_INT(fdatasync(f), 0);
    CHECK_ERR(flock(-1, LOCK_EX), EBADF);
    CHECK_ERR(flock(f, 0), EINVAL);
    CHECK_EQ_INT(flock(f, LOCK_EX), 0);
    CHECK_EQ_INT(flock(f, LOCK_UN), 0);
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    CHECK_ERR(fcntl(-1, F_SETLKW, &fl), EBADF);
    int ro = open("/dev/null", O_RDONLY);
    CHECK(ro >= 0);
    CHECK_ERR(fcntl(ro, F_SETLKW, &fl), EBADF); /* a write lock, read-only descriptor */
    fl.l_type = 12345;
    CHECK_ERR(fcntl(f, F_SETLKW, &fl), EINVAL);
    fl.l_type = F_WRLCK;
    fl.l_pid = 1;
    CHECK_ERR(fcntl(f, F_OFD_SETLKW, &fl), EINVAL); /* l_pid must be 0 */
    fl.l_pid = 0;
    CHECK_EQ_INT(fcntl(f, F_SETLKW, &fl), 0);
    fl.l_type = F_UNLCK;
    CHECK_EQ_INT(fcntl(f, F_SETLKW, &fl), 0);
    fl.l_type = F_WRLCK; /* (an OFD lock conflicts with the process's own POSIX lock) */
    CHECK_EQ_INT(fcntl(f, F_OFD_SETLKW, &fl), 0);
    fl.l_type = F_UNLCK;
    CHECK_EQ_INT(fcntl(f, F_OFD_SETLKW, &fl), 0);
    /* the commands that go straight through, with an int, a pointer, or nothing */
    CHECK_EQ_INT(fcntl(f, F_GETFL) & O_ACCMODE, O_RDWR);
    CHECK_EQ_INT(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
    CHECK(fcntl(p[0], F_GETFL) & O_NONBLOCK);
    int d = fcntl(p[0], F_DUPFD, 200);
    CHECK(d >= 200);
    CHECK_ERR(fcntl(p[0], F_DUPFD, -1), EINVAL);
    fl.l_type = F_RDLCK;
    CHECK_EQ_INT(fcntl(f, F_GETLK, &fl), 0);
    CHECK_EQ_INT(fl.l_type, F_UNLCK);
    CHECK_ERR(fcntl(-1, F_GETFD), EBADF);

    close(d);
    close(ro);
    close(ep);
    close(lone);
    close(sv[0]);
    close(sv[1]);
    close(f);
    close(p[0]);
    close(p[1]);
    return NULL;
}

int main(void)
{
    ours = pth_test_start();
    pthread_t t;
    CHECK_RC(pthread_create(&t, NULL, checks, NULL), 0);
    CHECK_RC(pthread_join(t, NULL), 0);
    checks(NULL); /* the main thread (the primary ULT under the layer) */
    printf("the wrapped calls fail as glibc's\n");
    return 0;
}
