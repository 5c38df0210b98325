/* A ULT's send on a socket whose buffer is full (the peer not reading): on an O_NONBLOCK
 * socket, and with MSG_DONTWAIT, EAGAIN at once; with a time limit, ETIMEDOUT; on a
 * blocking socket, the ULT waits for room without holding its stream - the reader runs on
 * the same (only) stream - and every byte arrives once, in order.  (On the uring backend
 * a send goes to the ring with MSG_DONTWAIT and comes back to be sent again when the
 * socket has no room: op.c, weft_io_run.) */
#include "io_test.h"

#define CHUNK (64 * 1024)
#define MORE  (4 * 1024 * 1024) /* sent once the reader runs */

static int c, s;
static volatile int reading;
static long sent_total, recv_total;

static unsigned char pattern(long i) { return (unsigned char)(i * 7 + (i >> 13)); }

static void fill(unsigned char *b, long from, size_t n)
{
    for (size_t k = 0; k < n; k++)
        b[k] = pattern(from + (long)k);
}

static void sender(void *arg)
{
    unsigned char *b = malloc(CHUNK);
    CHECK(b != NULL);
    /* fill the socket: an O_NONBLOCK socket says EAGAIN instead of waiting */
    CHECK_EQ_INT(fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK), 0);
    for (int i = 0;; i++) {
        CHECK(i < 100000);
        fill(b, sent_total, CHUNK);
        io_errno_clear();
        ssize_t w = weft_io_send(c, b, CHUNK, MSG_NOSIGNAL);
        if (w < 0) {
            CHECK_EQ_INT(io_errno(), EAGAIN);
            break;
        }
        sent_total += w;
    }
    CHECK_EQ_INT(fcntl(c, F_SETFL, fcntl(c, F_GETFL) & ~O_NONBLOCK), 0);
    /* still full: MSG_DONTWAIT on the blocking socket, then a time limit */
    fill(b, sent_total, CHUNK);
    CHECK_IO_ERR(weft_io_send(c, b, CHUNK, MSG_DONTWAIT | MSG_NOSIGNAL), EAGAIN);
    CHECK_EQ_INT(weft_io_set_timeout(50), -1);
    double t0 = io_now();
    CHECK_IO_ERR(weft_io_send(c, b, CHUNK, MSG_NOSIGNAL), ETIMEDOUT);
    CHECK(io_now() - t0 >= 0.04);
    CHECK_EQ_INT(weft_io_set_timeout(-1), 50);
    /* a blocking send waits for room; the reader starts on this stream */
    reading = 1;
    for (long more = 0; more < MORE;) {
        fill(b, sent_total, CHUNK);
        ssize_t w = CHECK_IO(weft_io_send(c, b, CHUNK, MSG_NOSIGNAL));
        CHECK(w > 0);
        sent_total += w;
        more += w;
    }
    CHECK_IO(weft_io_shutdown(c, SHUT_WR));
    free(b);
}

static void reader(void *arg)
{
    while (!reading)
        ABT_thread_yield();
    unsigned char *b = malloc(CHUNK);
    CHECK(b != NULL);
    for (;;) {
        ssize_t r = CHECK_IO(weft_io_recv(s, b, CHUNK, 0));
        if (r == 0)
            break;
        for (ssize_t k = 0; k < r; k++)
            if (b[k] != pattern(recv_total + k))
                TEST_FAIL("byte %ld: %u, expected %u", recv_total + k, b[k],
                          pattern(recv_total + k));
        recv_total += r;
    }
    free(b);
}

int main(void)
{
    io_rt_init(1); /* one stream: a send that held it would starve the reader */
    io_test_check_backend();
    int port;
    int l = io_listen_any(&port, 4);
    struct sockaddr_in a = io_loopback(port);
    c = (int)CHECK_IO(weft_io_socket(AF_INET, SOCK_STREAM, 0));
    int small = 16 * 1024;
    setsockopt(c, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    CHECK_IO(weft_io_connect(c, (struct sockaddr *)&a, sizeof a));
    s = (int)CHECK_IO(weft_io_accept(l, NULL, NULL));
    setsockopt(s, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    ABT_thread ts = io_spawn(sender, NULL), tr = io_spawn(reader, NULL);
    io_join(&ts);
    io_join(&tr);
    CHECK(sent_total > MORE);
    CHECK_EQ_INT(recv_total, sent_total);
    close(c);
    close(s);
    close(l);
    io_rt_fini();
    return 0;
}
