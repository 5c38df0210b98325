/* fork(): a child of a process that has used weft_io (its ring, its I/O threads, a time
 * limit on an external thread) gets its own: it can init weft again and do I/O from ULTs
 * and from its main thread, with time limits, on either backend. */
#include "io_test.h"

#include <sys/prctl.h>

#include <sys/wait.h>

static int sv[2];

static void ult(void *arg)
{
    char b[2];
    CHECK_EQ_INT(weft_io_set_timeout(20), -1);
    CHECK_IO_ERR(weft_io_recv(sv[0], b, 1, 0), ETIMEDOUT);
    CHECK_IO(weft_io_send(sv[1], "x", 1, 0));
    CHECK_EQ_INT(CHECK_IO(weft_io_recv(sv[0], b, 1, 0)), 1);
}

static void round_trip(void)
{
    io_rt_init(2);
    ABT_thread t = io_spawn(ult, NULL);
    io_join(&t);
    io_rt_fini();
    /* an external caller with a time limit (threads backend) */
    CHECK_EQ_INT(weft_io_set_timeout(10), -1);
    CHECK_EQ_INT(weft_io_poll(sv[0], POLLIN, -1), 0);
    CHECK_EQ_INT(weft_io_set_timeout(-1), 10);
}

int main(void)
{
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    round_trip();
    io_test_check_backend();
    pid_t parent = getpid();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* the child dies with the test */
        if (getppid() != parent)
            _exit(1);
        round_trip();
        fflush(stderr);
        _exit(0);
    }
    int st;
    CHECK_EQ_INT(waitpid(pid, &st, 0), pid);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    round_trip(); /* the parent's own rings and threads still work */
    return 0;
}
