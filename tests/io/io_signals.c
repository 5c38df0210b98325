/* Signals: a signal (handler without SA_RESTART) delivered while ULTs wait in weft_io
 * calls does not interrupt them - their stream keeps running and the calls complete with
 * their data; an external thread blocked in weft_io_read gets EINTR, as read(2) would. */
#include "io_test.h"

static int sv[2], ep[2];
static _Atomic int handled;

static void on_usr1(int sig) { handled++; }

static void waiter(void *arg)
{
    char b[4];
    CHECK_EQ_INT(CHECK_IO(weft_io_recv(sv[0], b, 4, MSG_WAITALL)), 4);
    CHECK(!memcmp(b, "data", 4));
}

static void *ext(void *arg)
{
    char b[4];
    CHECK_IO_ERR(weft_io_read(ep[0], b, 1), EINTR);
    return NULL;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1; /* no SA_RESTART */
    sigaction(SIGUSR1, &sa, NULL);
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    CHECK_EQ_INT(pipe(ep), 0);
    io_rt_init(2);
    io_test_check_backend();
    ABT_thread t = io_spawn(waiter, NULL);
    pthread_t e;
    CHECK_EQ_INT(pthread_create(&e, NULL, ext, NULL), 0);
    usleep(50000);
    for (int i = 0; i < 5; i++) {
        kill(getpid(), SIGUSR1); /* to whichever thread, streams included */
        usleep(2000);
    }
    pthread_kill(e, SIGUSR1);
    pthread_join(e, NULL);
    CHECK_IO(weft_io_send(sv[1], "da", 2, 0));
    usleep(2000);
    kill(getpid(), SIGUSR1);
    CHECK_IO(weft_io_send(sv[1], "ta", 2, 0));
    io_join(&t);
    CHECK(handled >= 1); /* standard signals pending together are delivered once */
    io_rt_fini();
    return 0;
}
