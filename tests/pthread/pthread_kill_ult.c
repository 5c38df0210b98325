/* pthread_kill and pthread_sigqueue of a thread (a ULT under the layer, docs/design/pthread.md):
 * signal 0 checks the id, a bad number is EINVAL; a thread blocked
 * in sigwait gets the signal (as pbzip2's signal thread does); a handler runs in the
 * target's context - pthread_self() there is the target - whether the target signals
 * itself or occupies a stream (sleeping in the kernel) (pthread_kill_parked.c: a parked target). */
#include "pth_test.h"

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int go, parked;
static volatile sig_atomic_t hits, spin_stop; /* written by the handlers */
static atomic_int started;
static volatile pthread_t hit_self;
static volatile int hit_value;

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
    hit_self = pthread_self();
    if (si->si_code == SI_QUEUE)
        hit_value = si->si_value.sival_int;
    hits++;
    spin_stop = 1;
}

static void *sigwaiter(void *arg)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    int sig = 0;
    atomic_store(&started, 1);
    if (sigwait(&set, &sig) != 0)
        return (void *)-1L;
    return (void *)(long)sig;
}

/* Occupies its stream: a loop of system calls that return at once (a ThreadSanitizer
 * build runs a handler only at an intercepted call, so not a pure loop; not a sleep,
 * which under the layer parks the thread). */
static void *spinner(void *arg)
{
    atomic_store(&started, 1);
    while (!spin_stop)
        poll(NULL, 0, 0);
    return NULL;
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

static void *self_kill(void *arg)
{
    hits = 0;
    if (pthread_kill(pthread_self(), SIGUSR2) != 0)
        return (void *)1L;
    /* delivered before pthread_kill returned, in this thread */
    return (void *)(long)(hits == 1 && pthread_equal(hit_self, pthread_self()) ? 0 : 2);
}

static void wait_until(atomic_int *flag)
{
    double end = pth_test_now() + TEST_PATIENCE_S;
    while (!atomic_load(flag)) {
        CHECK(pth_test_now() < end);
        sched_yield();
    }
}

static void *driver(void *arg)
{
    /* the id check and bad numbers */
    pthread_t t;
    void *ret;
    /* a thread in sigwait takes the signal sent to it: sent before it runs, and while it
     * waits */
    for (int round = 0; round < 2; round++) {
        atomic_store(&started, 0);
        CHECK_RC(pthread_create(&t, NULL, sigwaiter, NULL), 0);
        if (round == 1)
            wait_until(&started);
        CHECK_RC(pthread_kill(t, SIGUSR1), 0);
        CHECK_RC(pthread_join(t, &ret), 0);
        CHECK_EQ_INT((long)ret, SIGUSR1);
    }

    /* a thread computing: the handler interrupts it, in its context */
    hits = 0;
    atomic_store(&started, 0);
    spin_stop = 0;
    CHECK_RC(pthread_create(&t, NULL, spinner, NULL), 0);
    wait_until(&started);
    CHECK_RC(pthread_kill(t, SIGUSR2), 0);
    CHECK_RC(pthread_join(t, NULL), 0);
    CHECK_EQ_INT(hits, 1);
    CHECK(pthread_equal(hit_self, t));

    return NULL;
}

/* Two streams at least (the glibc run: always). */
static int two_streams(int ours)
{
    if (!ours)
        return 1;
    const char *e = getenv("WEFT_PTHREAD_STREAMS");
    if (e && *e)
        return atoi(e) >= 2;
    cpu_set_t cs;
    return sched_getaffinity(0, sizeof cs, &cs) == 0 && CPU_COUNT(&cs) >= 2;
}

int main(void)
{
    int ours = pth_test_start();
    /* SIGUSR1 is for sigwait: blocked in every thread (inherited) */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    CHECK_RC(pthread_sigmask(SIG_BLOCK, &set, NULL), 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_usr2;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGUSR2, &sa, NULL) == 0);

    /* the id check and bad numbers */
    pthread_t t;
    void *ret;
    CHECK_RC(pthread_create(&t, NULL, parker, NULL), 0);
    CHECK_RC(pthread_kill(t, 0), 0);
    CHECK_RC(pthread_kill(t, -1), EINVAL);
    CHECK_RC(pthread_kill(t, NSIG), EINVAL);
    CHECK_RC(pthread_kill(t, 100000), EINVAL);
    pthread_mutex_lock(&lock);
    go = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    CHECK_RC(pthread_join(t, &ret), 0);
    if (ours)
        CHECK_RC(pthread_kill(t, 0), ESRCH);

    /* threads that occupy a stream (sigwait, a loop): driven from a thread other than
     * main, which under the layer never leaves the primary stream */
    if (two_streams(ours)) {
        CHECK_RC(pthread_create(&t, NULL, driver, NULL), 0);
        CHECK_RC(pthread_join(t, &ret), 0);
    } else {
        fprintf(stderr, "one stream: the checks of a thread that occupies it are skipped\n");
    }

    /* a thread signalling itself */
    CHECK_RC(pthread_create(&t, NULL, self_kill, NULL), 0);
    CHECK_RC(pthread_join(t, &ret), 0);
    CHECK_EQ_INT((long)ret, 0);
    CHECK_EQ_INT(hits, 1);

    printf("signals reached their threads\n");
    return 0;
}
