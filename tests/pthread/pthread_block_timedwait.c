/* A thread that sleeps does not hold back the others (docs/design/pthread.md, "Blocking
 * calls"): a 200 ms pthread_cond_timedwait on one thread returns before another thread,
 * sleeping 3 s in sleep(), wakes, with WEFT_PTHREAD_STREAMS=1 and =2 (each in a child
 * process started before any thread: the layer reads the variable when its runtime
 * starts).  The bound is generous (2.5 s: before the sleeper wakes, which is what a
 * blocked stream would wait for) so that a loaded machine cannot fail it; the measured
 * time is printed. */
#include "pth_test.h"

#include <sys/wait.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ours;

static void *sleeper(void *arg)
{
    if (ours)
        CHECK(pth_test_is_ult());
    CHECK_EQ_INT(sleep(3), 0);
    return NULL;
}

static void *waiter(void *arg)
{
    if (ours)
        CHECK(pth_test_is_ult());
    double t0 = pth_test_now();
    struct timespec dl = pth_test_deadline(0.2);
    pthread_mutex_lock(&lock);
    int rc = pthread_cond_timedwait(&cond, &lock, &dl);
    pthread_mutex_unlock(&lock);
    double *took = arg;
    *took = pth_test_now() - t0;
    CHECK_RC(rc, ETIMEDOUT);
    return NULL;
}

static int run(const char *streams)
{
    setenv("WEFT_PTHREAD_STREAMS", streams, 1);
    pthread_t s, w;
    double took = -1;
    CHECK_RC(pthread_create(&s, NULL, sleeper, NULL), 0);
    usleep(50000); /* the sleeper is in sleep() (or about to be) */
    CHECK_RC(pthread_create(&w, NULL, waiter, &took), 0);
    CHECK_RC(pthread_join(w, NULL), 0);
    printf("streams=%s: the 200 ms timed wait took %.3f s while another thread slept 3 s\n",
           streams, took);
    fflush(stdout);
    CHECK(took >= 0.19);
    CHECK(took < 2.5);
    CHECK_RC(pthread_join(s, NULL), 0);
    return 0;
}

int main(void)
{
    ours = pth_test_start();
    const char *counts[] = { "1", "2" };
    for (int i = 0; i < 2; i++) {
        pid_t pid = fork();
        CHECK(pid >= 0);
        if (pid == 0)
            _exit(run(counts[i]));
        int st = 0;
        CHECK_EQ_INT(waitpid(pid, &st, 0), pid);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    return 0;
}
