/* fork() from the main thread of a program whose threads ran (weft's fork handlers run
 * inside it and take weft's own locks): the child creates and joins threads of its own
 * and synchronizes them with a mutex inherited from the parent; the parent goes on. */
#include "pth_test.h"
#include "../child_test.h"

#include <sys/wait.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static int iters;

static void *body(void *arg)
{
    for (int i = 0; i < iters; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
        if (i % 64 == 0)
            sched_yield();
    }
    return arg;
}

static long run(int expect_ult)
{
    pthread_t t[8];
    counter = 0;
    for (long i = 0; i < 8; i++)
        CHECK_RC(pthread_create(&t[i], NULL, body, (void *)i), 0);
    for (long i = 0; i < 8; i++) {
        void *ret;
        CHECK_RC(pthread_join(t[i], &ret), 0);
        CHECK(ret == (void *)i);
    }
    if (expect_ult)
        CHECK(pth_test_is_ult());
    return counter;
}

int main(void)
{
    int expect_ult = pth_test_start();
    iters = 2000 / pth_test_scale();
    CHECK_EQ_INT(run(expect_ult), 8L * iters);
    fflush(stdout);
    pid_t parent = getpid();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        child_dies_with_parent(parent); /* a killed test takes its child with it */
        if (run(expect_ult) != 8L * iters)
            _exit(3);
        _exit(0);
    }
    int status = 0;
    CHECK_EQ_INT(waitpid(pid, &status, 0), pid);
    CHECK(WIFEXITED(status));
    CHECK_EQ_INT(WEXITSTATUS(status), 0);
    CHECK_EQ_INT(run(expect_ult), 8L * iters);
    printf("threads ran before the fork, in the child and after it\n");
    return 0;
}
