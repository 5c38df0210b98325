/* Short and partial transfers through the wrapped calls (a ULT under the layer:
 * src/pthread/blocking.c) are glibc's: a read of a pipe or socket with less data than
 * asked returns what is there (read, readv, recv, recvfrom, recvmsg), pread/preadv near
 * the end of a file return the rest and 0 at the end, a non-blocking write into a pipe
 * with less room than asked writes what fits (write, writev), a thread blocked in read
 * returns the 3 bytes another thread writes, a blocking write of 256 KiB that another
 * thread drains returns all of it, and read returns 0 at the end of a pipe.  One stream:
 * the other thread runs on a spare OS thread while the first blocks (weft.h's hand-off). */
#include "pth_test.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>

static int ours;
static int p[2];

enum { BIG = 256 << 10 };
static char big[BIG], sink[BIG];

static void *late_writer(void *arg)
{
    struct timespec d = { 0, 50000000 };
    nanosleep(&d, NULL); /* the reader is blocked in read by now, most likely */
    CHECK_EQ_INT(write(p[1], "abc", 3), 3);
    return NULL;
}

static void *drainer(void *arg)
{
    size_t got = 0;
    while (got < BIG) {
        ssize_t n = read(p[0], sink + got, 1000); /* in small pieces */
        CHECK(n > 0);
        got += (size_t)n;
    }
    return NULL;
}

static void *checks(void *arg)
{
    if (ours)
        CHECK(pth_test_is_ult());
    char buf[100], b2[100];
    CHECK(pipe(p) == 0);

    /* reads shorter than asked */
    CHECK_EQ_INT(write(p[1], "hello", 5), 5);
    CHECK_EQ_INT(read(p[0], buf, sizeof buf), 5);
    CHECK(memcmp(buf, "hello", 5) == 0);
    CHECK_EQ_INT(write(p[1], "hello", 5), 5);
    struct iovec iov[2] = { { buf, 2 }, { b2, sizeof b2 } };
    CHECK_EQ_INT(readv(p[0], iov, 2), 5);
    CHECK(memcmp(buf, "he", 2) == 0 && memcmp(b2, "llo", 3) == 0);
    struct pollfd pf = { .fd = p[0], .events = POLLIN };
    CHECK_EQ_INT(write(p[1], "x", 1), 1);
    CHECK_EQ_INT(poll(&pf, 1, -1), 1);
    CHECK(pf.revents & POLLIN);
    CHECK_EQ_INT(read(p[0], buf, sizeof buf), 1);

    /* a blocked read returns the bytes written meanwhile */
    pthread_t t;
    CHECK_RC(pthread_create(&t, NULL, late_writer, NULL), 0);
    CHECK_EQ_INT(read(p[0], buf, sizeof buf), 3);
    CHECK(memcmp(buf, "abc", 3) == 0);
    CHECK_RC(pthread_join(t, NULL), 0);

    /* a blocking write that another thread drains in pieces */
    for (int i = 0; i < BIG; i++)
        big[i] = (char)(i * 7);
    CHECK_RC(pthread_create(&t, NULL, drainer, NULL), 0);
    CHECK_EQ_INT(write(p[1], big, BIG), BIG);
    CHECK_RC(pthread_join(t, NULL), 0);
    CHECK(memcmp(big, sink, BIG) == 0);

    /* a non-blocking write into a pipe with less room writes what fits */
    int fl = fcntl(p[1], F_GETFL);
    CHECK(fcntl(p[1], F_SETFL, fl | O_NONBLOCK) == 0);
    size_t filled = 0;
    ssize_t n;
    while ((n = write(p[1], big, 4096)) > 0)
        filled += (size_t)n;
    CHECK(filled > 8192);
    CHECK_EQ_INT(read(p[0], sink, 8192), 8192); /* room for two pages */
    n = write(p[1], big, 20000);
    CHECK(n > 0 && n < 20000);
    CHECK_EQ_INT(read(p[0], sink, 8192), 8192);
    struct iovec wv[2] = { { big, 10000 }, { big, 10000 } };
    n = writev(p[1], wv, 2);
    CHECK(n > 0 && n < 20000);
    CHECK(fcntl(p[1], F_SETFL, fl) == 0);

    /* the end of a pipe */
    close(p[1]);
    while ((n = read(p[0], sink, sizeof sink)) > 0)
        ;
    CHECK_EQ_INT(n, 0);
    close(p[0]);

    /* files: the rest near the end, 0 at the end */
    char tmpl[] = "/tmp/weft_block_short_XXXXXX";
    int f = mkstemp(tmpl);
    CHECK(f >= 0);
    unlink(tmpl);
    CHECK_EQ_INT(pwrite(f, "0123456789", 10, 0), 10);
    struct iovec wv2[2] = { { "ab", 2 }, { "cd", 2 } };
    CHECK_EQ_INT(pwritev(f, wv2, 2, 10), 4);
    CHECK_EQ_INT(pread(f, buf, sizeof buf, 7), 7);
    CHECK(memcmp(buf, "789abcd", 7) == 0);
    struct iovec rv[2] = { { buf, 1 }, { b2, sizeof b2 } };
    CHECK_EQ_INT(preadv(f, rv, 2, 12), 2);
    CHECK(buf[0] == 'c' && b2[0] == 'd');
    CHECK_EQ_INT(pread(f, buf, sizeof buf, 14), 0);
    CHECK_EQ_INT(pread64(f, buf, 4, 2), 4);
    close(f);

    /* sockets */
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    CHECK_EQ_INT(send(sv[1], "abc", 3, 0), 3);
    CHECK_EQ_INT(recv(sv[0], buf, sizeof buf, 0), 3);
    CHECK_EQ_INT(sendto(sv[1], "defg", 4, 0, NULL, 0), 4);
    CHECK_EQ_INT(recvfrom(sv[0], buf, sizeof buf, 0, NULL, NULL), 4);
    CHECK(memcmp(buf, "defg", 4) == 0);
    struct iovec sio = { "hi", 2 };
    struct msghdr mh = { .msg_iov = &sio, .msg_iovlen = 1 };
    CHECK_EQ_INT(sendmsg(sv[1], &mh, 0), 2);
    struct iovec rio = { buf, sizeof buf };
    struct msghdr rmh = { .msg_iov = &rio, .msg_iovlen = 1 };
    CHECK_EQ_INT(recvmsg(sv[0], &rmh, 0), 2);
    CHECK(memcmp(buf, "hi", 2) == 0);
    close(sv[1]);
    CHECK_EQ_INT(recv(sv[0], buf, sizeof buf, 0), 0); /* the peer closed */
    close(sv[0]);
    return NULL;
}

int main(void)
{
    ours = pth_test_start();
    setenv("WEFT_PTHREAD_STREAMS", "1", 1); /* read when the layer's runtime starts */
    pthread_t t;
    CHECK_RC(pthread_create(&t, NULL, checks, NULL), 0);
    CHECK_RC(pthread_join(t, NULL), 0);
    printf("short transfers as glibc's\n");
    return 0;
}
