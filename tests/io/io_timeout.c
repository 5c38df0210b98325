/* Time-outs (weft_io_set_timeout): a call still waiting after the limit fails with
 * ETIMEDOUT (weft_io_poll returns 0), on ULTs and on an external thread; a call whose
 * data comes in time succeeds; the limit is per ULT (another ULT keeps none) and -1
 * removes it; the stream runs other ULTs meanwhile; invalid limits are refused. */
#include "io_test.h"

static int sv[2];
static _Atomic int others_ran;

static void timed(void *arg)
{
    int fd = (int)(intptr_t)arg;
    CHECK_EQ_INT(weft_io_get_timeout(), -1);
    CHECK_EQ_INT(weft_io_set_timeout(30), -1);
    CHECK_EQ_INT(weft_io_get_timeout(), 30);
    char b[4];
    double t0 = io_now();
    CHECK_IO_ERR(weft_io_recv(fd, b, sizeof b, 0), ETIMEDOUT);
    CHECK(io_now() - t0 >= 0.025); /* not before the limit */
    CHECK_IO_ERR(weft_io_read(fd, b, sizeof b), ETIMEDOUT);
    int port;
    int l = io_listen_any(&port, 1);
    CHECK_IO_ERR(weft_io_accept(l, NULL, NULL), ETIMEDOUT);
    close(l);
    CHECK_EQ_INT(weft_io_poll(fd, POLLIN, -1), 0); /* the limit ends an unbounded poll */
    CHECK_EQ_INT(weft_io_poll(fd, POLLIN, 5), 0);  /* its own, shorter, bound */
    CHECK_EQ_INT(weft_io_set_timeout(-1), 30);
    CHECK_IO_ERR(weft_io_set_timeout(-2), EINVAL);
    CHECK_EQ_INT(weft_io_get_timeout(), -1);
}

/* a limit the feeder's send always beats, however late a loaded machine runs it */
#define IN_TIME_MS ((int)(TEST_PATIENCE_S * 1000))

static void in_time(void *arg)
{
    CHECK_EQ_INT(weft_io_set_timeout(IN_TIME_MS), -1);
    char b[4];
    CHECK_EQ_INT(CHECK_IO(weft_io_recv(sv[0], b, 1, 0)), 1); /* the feeder sends it */
    CHECK_EQ_INT(weft_io_set_timeout(-1), IN_TIME_MS);
}

static void feeder(void *arg)
{
    CHECK_EQ_INT(weft_io_get_timeout(), -1); /* per ULT: none here */
    others_ran = 1;
    CHECK_EQ_INT(weft_io_poll(sv[1], POLLOUT, -1) & POLLOUT, POLLOUT);
    CHECK_IO(weft_io_send(sv[1], "z", 1, 0));
}

static void *ext(void *arg)
{
    int fd = (int)(intptr_t)arg;
    CHECK_EQ_INT(weft_io_set_timeout(20), -1);
    char b[4];
    CHECK_IO_ERR(weft_io_recv(fd, b, sizeof b, 0), ETIMEDOUT);
    CHECK_EQ_INT(weft_io_poll(fd, POLLIN, -1), 0);
    weft_io_set_timeout(-1);
    return NULL;
}

int main(void)
{
    int a[2], b[2];
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, a), 0);
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, b), 0);
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    io_rt_init(1);
    io_test_check_backend();
    ABT_thread t1 = io_spawn(timed, (void *)(intptr_t)a[0]);
    ABT_thread t2 = io_spawn(in_time, NULL);
    ABT_thread t3 = io_spawn(feeder, NULL);
    pthread_t e;
    CHECK_EQ_INT(pthread_create(&e, NULL, ext, (void *)(intptr_t)b[0]), 0);
    io_join(&t1);
    io_join(&t2);
    io_join(&t3);
    pthread_join(e, NULL);
    CHECK(others_ran);
    io_rt_fini();
    return 0;
}
