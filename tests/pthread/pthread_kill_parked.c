/* pthread_kill and pthread_sigqueue of a thread parked in a condition wait (under the
 * layer a ULT that does not run: the signal is held and raised when it resumes): the
 * handler runs once, in the target's context (pthread_self() there is the target), and
 * pthread_sigqueue's value arrives.  One stream (WEFT_PTHREAD_STREAMS=1, set before the
 * runtime starts; glibc ignores it): while main runs, the target cannot be running, so the
 * check does not depend on the instant it parks. */
#include "pth_test.h"

#include <signal.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define ON_VALGRIND() RUNNING_ON_VALGRIND
#endif
#endif
#ifndef ON_VALGRIND
#define ON_VALGRIND() 0
#endif

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int go, parked;
static volatile sig_atomic_t hits;
static volatile pthread_t hit_self;
static volatile int hit_value;

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
    hit_self = pthread_self();
    if (si->si_code == SI_QUEUE)
        hit_value = si->si_value.sival_int;
    hits++;
}

static void *parker(void *arg)
{
    pthread_mutex_lock(&lock);
    parked = 1;
    pthread_cond_broadcast(&cond);
    while (!go)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void run(int queued)
{
    pthread_t t;
    hits = 0;
    hit_value = 0;
    go = 0;
    parked = 0;
    CHECK_RC(pthread_create(&t, NULL, parker, NULL), 0);
    pthread_mutex_lock(&lock);
    while (!parked)
        pthread_cond_wait(&cond, &lock);
    /* it waits on cond: it released the lock in pthread_cond_wait */
    if (queued)
        CHECK_RC(pthread_sigqueue(t, SIGUSR2, (union sigval){ .sival_int = 4242 }), 0);
    else
        CHECK_RC(pthread_kill(t, SIGUSR2), 0);
    go = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    CHECK_RC(pthread_join(t, NULL), 0);
    CHECK_EQ_INT(hits, 1);
    CHECK(pthread_equal(hit_self, t));
    CHECK_EQ_INT(hit_value, queued ? 4242 : 0);
}

int main(void)
{
    pth_test_start();
    setenv("WEFT_PTHREAD_STREAMS", "1", 1);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_usr2;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGUSR2, &sa, NULL) == 0);
    /* valgrind delivers a signal that a thread queues to itself (rt_tgsigqueueinfo) at
     * its next system call, not on return from the call */
    int queued = !ON_VALGRIND();
    if (!queued)
        fprintf(stderr, "valgrind: the pthread_sigqueue checks are skipped\n");
    for (int i = 0; i < 20; i++) {
        run(0);
        if (queued)
            run(1);
    }
    printf("signals reached parked threads when they resumed\n");
    return 0;
}
