/* ABT_thread_cancel of ULTs parked in weft_io calls (recv, accept, poll, read of a pipe,
 * and a recv with a time limit): each is woken and terminates without returning from the
 * call; the stream and the descriptors keep working (a later call on the same socket
 * gets the data); cancelling a ULT that is about to call does not let it park for good. */
#include "io_test.h"

#define N 8

static int sv[N][2];
static int pp[2];
static int lfd;
static _Atomic int parked, returned;

static void victim(void *arg)
{
    int i = (int)(intptr_t)arg;
    char b[4];
    parked++;
    switch (i % 5) {
    case 0: weft_io_recv(sv[i][0], b, 1, 0); break;
    case 1: weft_io_accept(lfd, NULL, NULL); break;
    case 2: weft_io_poll(sv[i][0], POLLIN, -1); break;
    case 3: weft_io_read(pp[0], b, 1); break;
    case 4:
        weft_io_set_timeout(60000);
        weft_io_recv(sv[i][0], b, 1, 0);
        break;
    }
    returned++; /* a cancelled ULT never gets here */
}

static void spin_until_self_cancelled(void *arg)
{
    /* cancel requested while running: the next weft_io call must not park for good */
    ABT_thread self;
    ABT_self_get_thread(&self);
    ABT_thread_cancel(self);
    char b[1];
    weft_io_recv(sv[0][1], b, 1, 0); /* nothing is ever sent on this end */
    returned++;
}

int main(void)
{
    for (int i = 0; i < N; i++)
        CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv[i]), 0);
    CHECK_EQ_INT(pipe(pp), 0);
    io_rt_init(2);
    io_test_check_backend();
    int port;
    lfd = io_listen_any(&port, 4);
    ABT_thread t[N];
    for (int i = 0; i < N; i++)
        t[i] = io_spawn(victim, (void *)(intptr_t)i);
    while (parked < N)
        ABT_thread_yield();
    /* let them reach the kernel: they are blocked once the pool is empty for a while */
    for (int k = 0; k < 20; k++) {
        ABT_thread_yield();
        usleep(1000);
    }
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_cancel(t[i]));
    for (int i = 0; i < N; i++)
        io_join(&t[i]);
    CHECK_EQ_INT(returned, 0);

    ABT_thread s = io_spawn(spin_until_self_cancelled, NULL);
    io_join(&s);
    CHECK_EQ_INT(returned, 0);

    /* the sockets still work, and no stale cancel hits a new call */
    char b[4];
    CHECK_IO(weft_io_send(sv[0][1], "k", 1, 0));
    CHECK_EQ_INT(CHECK_IO(weft_io_recv(sv[0][0], b, 1, 0)), 1);
    CHECK_IO(weft_io_write(pp[1], "p", 1));
    CHECK_EQ_INT(CHECK_IO(weft_io_read(pp[0], b, 1)), 1);
    close(lfd);
    io_rt_fini();
    return 0;
}
