/* A ULT blocked in weft_io never blocks its stream: on ONE stream, 64 ULTs wait in
 * recv/read/accept/poll on their own sockets and pipes while the writer, another ULT of
 * the same stream, runs and feeds them; if any wait held the stream, the writer would never
 * run and the test would hang (ctest time-out).  Also: the waiting ULTs are counted as
 * blocked, not running. */
#include "io_test.h"

#define N 64

static int sv[N][2];
static int pp[N][2];
static int lfd, lport;
static _Atomic int got;

static void reader(void *arg)
{
    int i = (int)(intptr_t)arg;
    char b[8];
    switch (i % 4) {
    case 0: CHECK_EQ_INT(CHECK_IO(weft_io_recv(sv[i][0], b, sizeof b, 0)), 1); break;
    case 1: CHECK_EQ_INT(CHECK_IO(weft_io_read(pp[i][0], b, sizeof b)), 1); break;
    case 2: CHECK(CHECK_IO(weft_io_poll(sv[i][0], POLLIN, -1)) & POLLIN); break;
    case 3: {
        int c = (int)CHECK_IO(weft_io_accept(lfd, NULL, NULL));
        CHECK_IO(weft_io_close(c));
        break;
    }
    }
    got++;
}

static void writer(void *arg)
{
    /* every reader has run and parked: they are all before us in the FIFO pool */
    for (int i = 0; i < N; i++) {
        switch (i % 4) {
        case 0:
        case 2: CHECK_IO(weft_io_send(sv[i][1], "x", 1, 0)); break;
        case 1: CHECK_IO(weft_io_write(pp[i][1], "x", 1)); break;
        case 3: {
            int c = (int)CHECK_IO(weft_io_socket(AF_INET, SOCK_STREAM, 0));
            struct sockaddr_in a = io_loopback(lport);
            CHECK_IO(weft_io_connect(c, (struct sockaddr *)&a, sizeof a));
            CHECK_IO(weft_io_close(c));
            break;
        }
        }
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv[i]), 0);
        CHECK_EQ_INT(pipe(pp[i]), 0);
    }
    io_rt_init(1);
    io_test_check_backend();
    lfd = io_listen_any(&lport, N);
    ABT_thread t[N + 1];
    for (int i = 0; i < N; i++)
        t[i] = io_spawn(reader, (void *)(intptr_t)i);
    t[N] = io_spawn(writer, NULL);
    for (int i = 0; i <= N; i++)
        io_join(&t[i]);
    CHECK_EQ_INT(got, N);
    close(lfd);
    io_rt_fini();
    for (int i = 0; i < N; i++) {
        close(sv[i][0]), close(sv[i][1]);
        close(pp[i][0]), close(pp[i][1]);
    }
    return 0;
}
