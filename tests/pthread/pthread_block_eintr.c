/* A signal sent with pthread_kill to a thread blocked in a wrapped call (a ULT under the
 * layer: src/pthread/blocking.c, sleep.c) runs its handler and interrupts the call as
 * glibc's: the handler is installed without SA_RESTART, and read, readv, write, poll,
 * ppoll, select, pselect, epoll_wait, recv, recvfrom, recvmsg, send, accept, accept4,
 * sigwaitinfo, sigtimedwait, wait, waitpid, wait4, waitid, flock, fcntl(F_OFD_SETLKW),
 * pause, sigsuspend, nanosleep (with `rem`), clock_nanosleep (relative with `rem`, and
 * TIMER_ABSTIME), usleep return EINTR, sleep its unslept seconds; sigwait returns the
 * signal it waits for.  Another thread sends the signal again every 10 ms until the call
 * returns (a signal that comes just before the call starts only runs the handler).  One
 * stream: while the target blocks its OS thread, weft's hand-off (weft.h) runs the
 * sender and the main thread on a spare OS thread. */
#include "pth_test.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>

static int ours;
static volatile sig_atomic_t hits;
static atomic_int armed, done, finished, send_sig = SIGUSR1;
static pthread_t target;
static pid_t child;
static int p[2], full[2], sv[2], full_sv[2], lst, lockfd;
static char lock_path[] = "/tmp/weft_block_eintr_XXXXXX";

static void on_usr1(int sig) { hits++; }

static __attribute__((noinline)) void set_errno(int e) { errno = e; }
static __attribute__((noinline)) int get_errno(void) { return errno; }

static void *sender(void *arg)
{
    while (!atomic_load(&finished)) {
        if (atomic_load(&armed) != atomic_load(&done))
            CHECK_RC(pthread_kill(target, atomic_load(&send_sig)), 0);
        double until = pth_test_now() + 0.01;
        while (pth_test_now() < until)
            sched_yield();
    }
    return NULL;
}

static int step;

/* Arm the sender for the next call; returns the handler count before it. */
static int arm(void)
{
    set_errno(0);
    atomic_store(&armed, ++step);
    return hits;
}

static void disarm(void) { atomic_store(&done, step); }

#define CHECK_EINTR(call)                                                                     \
    do {                                                                                      \
        int h_ = arm();                                                                       \
        long r_ = (long)(call);                                                               \
        int e_ = get_errno();                                                                 \
        disarm();                                                                             \
        if (r_ != -1 || e_ != EINTR)                                                          \
            TEST_FAIL("%s: %ld, errno %d (%s), expected EINTR", #call, r_, e_, strerror(e_)); \
        CHECK(hits > h_);                                                                     \
    } while (0)

/* Fill a pipe or socket so that the next write blocks. */
static void fill(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    CHECK(fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0);
    static char big[65536];
    while (write(fd, big, sizeof big) > 0)
        ;
    while (write(fd, big, 1) > 0)
        ;
    CHECK_EQ_INT(get_errno(), EAGAIN);
    CHECK(fcntl(fd, F_SETFL, fl) == 0);
}

static void *victim(void *arg)
{
    if (ours)
        CHECK(pth_test_is_ult());
    char buf[64];
    struct iovec iov = { buf, sizeof buf };
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
    struct pollfd pf = { .fd = p[0], .events = POLLIN };
    fd_set rs;

    CHECK_EINTR(read(p[0], buf, sizeof buf));
    CHECK_EINTR(readv(p[0], &iov, 1));
    CHECK_EINTR(write(full[1], "x", 1));
    CHECK_EINTR(poll(&pf, 1, -1));
    CHECK_EINTR(ppoll(&pf, 1, NULL, NULL));
    FD_ZERO(&rs);
    FD_SET(p[0], &rs);
    CHECK_EINTR(select(p[0] + 1, &rs, NULL, NULL, NULL));
    FD_ZERO(&rs);
    FD_SET(p[0], &rs);
    CHECK_EINTR(pselect(p[0] + 1, &rs, NULL, NULL, NULL, NULL));
    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN };
    CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev) == 0);
    CHECK_EINTR(epoll_wait(ep, &ev, 1, -1));
    CHECK_EINTR(epoll_pwait(ep, &ev, 1, -1, NULL));
    close(ep);
    CHECK_EINTR(recv(sv[0], buf, sizeof buf, 0));
    CHECK_EINTR(recvfrom(sv[0], buf, sizeof buf, 0, NULL, NULL));
    CHECK_EINTR(recvmsg(sv[0], &mh, 0));
    CHECK_EINTR(send(full_sv[0], "x", 1, 0));
    CHECK_EINTR(accept(lst, NULL, NULL));
    CHECK_EINTR(accept4(lst, NULL, NULL, SOCK_CLOEXEC));

    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    siginfo_t si;
    struct timespec long_wait = { 30, 0 };
    CHECK_EINTR(sigwaitinfo(&usr2, &si));
    CHECK_EINTR(sigtimedwait(&usr2, &si, &long_wait));
    sigset_t none;
    sigemptyset(&none);
    CHECK_EINTR(sigsuspend(&none));
    CHECK_EINTR(pause());

    int st;
    CHECK_EINTR(wait(&st));
    CHECK_EINTR(waitpid(child, &st, 0));
    CHECK_EINTR(wait4(child, &st, 0, NULL));
    CHECK_EINTR(waitid(P_PID, (id_t)child, &si, WEXITED));

    int other = open(lock_path, O_RDWR); /* another open file: its locks conflict */
    CHECK(other >= 0);
    CHECK_EINTR(flock(other, LOCK_EX));
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    CHECK_EINTR(fcntl(other, F_OFD_SETLKW, &fl));
    close(other);

    /* the sleep family */
    struct timespec ten = { 10, 0 }, rem = { -1, -1 };
    CHECK_EINTR(nanosleep(&ten, &rem));
    CHECK(rem.tv_sec >= 0 && rem.tv_sec <= 10 && rem.tv_nsec >= 0 && rem.tv_nsec < 1000000000);
    CHECK(rem.tv_sec >= 5); /* interrupted well before the end */
    rem.tv_sec = -1;
    int h = arm();
    int rc = clock_nanosleep(CLOCK_MONOTONIC, 0, &ten, &rem);
    disarm();
    CHECK_EQ_INT(rc, EINTR);
    CHECK(hits > h);
    CHECK(rem.tv_sec >= 5 && rem.tv_sec <= 10);
    struct timespec abs;
    clock_gettime(CLOCK_REALTIME, &abs);
    abs.tv_sec += 10;
    h = arm();
    rc = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &abs, NULL);
    disarm();
    CHECK_EQ_INT(rc, EINTR);
    CHECK(hits > h);
    CHECK_EINTR(usleep(10000000));
    h = arm();
    unsigned left = sleep(10);
    int e = get_errno();
    disarm();
    CHECK(left >= 5 && left <= 10);
    CHECK_EQ_INT(e, EINTR);
    CHECK(hits > h);

    /* sigwait: the signal sent is the one it returns */
    atomic_store(&send_sig, SIGUSR2);
    int sig = 0;
    arm();
    rc = sigwait(&usr2, &sig);
    disarm();
    CHECK_RC(rc, 0);
    CHECK_EQ_INT(sig, SIGUSR2);
    atomic_store(&finished, 1);
    return NULL;
}

int main(void)
{
    ours = pth_test_start();
    setenv("WEFT_PTHREAD_STREAMS", "1", 1); /* read when the layer's runtime starts */
    child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        execl("/bin/sleep", "sleep", "60", (char *)NULL);
        _exit(127);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1; /* no SA_RESTART */
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    CHECK_RC(pthread_sigmask(SIG_BLOCK, &usr2, NULL), 0); /* for sigwait, in every thread */

    CHECK(pipe(p) == 0);
    CHECK(pipe(full) == 0);
    fill(full[1]);
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, full_sv) == 0);
    fill(full_sv[0]);
    lst = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    snprintf(addr.sun_path + 1, sizeof addr.sun_path - 1, "weft-eintr-%d", (int)getpid());
    CHECK(bind(lst, (struct sockaddr *)&addr, sizeof addr) == 0);
    CHECK(listen(lst, 4) == 0);
    lockfd = mkstemp(lock_path);
    CHECK(lockfd >= 0);
    CHECK(flock(lockfd, LOCK_EX) == 0);
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    CHECK(fcntl(lockfd, F_OFD_SETLK, &fl) == 0);

    pthread_t s;
    CHECK_RC(pthread_create(&target, NULL, victim, NULL), 0);
    CHECK_RC(pthread_create(&s, NULL, sender, NULL), 0);
    /* the victim sets `finished` as its last step; the sender, which may signal it until
     * then, is joined before it: an id is not used after its thread's join */
    CHECK_RC(pthread_join(s, NULL), 0);
    CHECK_RC(pthread_join(target, NULL), 0);

    CHECK(kill(child, SIGKILL) == 0);
    int st = 0;
    CHECK_EQ_INT(waitpid(child, &st, 0), child);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    unlink(lock_path);
    printf("%d calls interrupted, %d handler runs\n", step, (int)hits);
    return 0;
}
