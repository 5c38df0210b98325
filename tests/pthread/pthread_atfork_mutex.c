/* pthread_atfork handlers run as the program's code: pthread_self() in them is the forking
 * thread, and a prepare handler that locks the program's mutex, with parent and child
 * handlers that unlock it, works; prepare handlers run in reverse order of registration,
 * parent and child handlers in order.  The fork comes from the main thread while other
 * threads live (one parked on a condition variable, others yielding in a loop): the
 * child goes on with the forking thread as its only thread - the others do not run
 * there - creates and joins threads of its own, and exits cleanly. */
#include "pth_test.h"

#include <stdatomic.h>
#include <sys/prctl.h>
#include <sys/wait.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int go;
static atomic_long spins; /* the yielding threads' progress */
static atomic_int stop;

static pthread_t forker;
static char order[16];
static int order_n;
static int bad_self;

static void note(char c)
{
    if (!pthread_equal(pthread_self(), forker))
        bad_self++;
    if (order_n < (int)sizeof order - 1)
        order[order_n++] = c;
}

static void prepare1(void)
{
    note('p');
    pthread_mutex_lock(&m);
}
static void parent1(void)
{
    note('a');
    pthread_mutex_unlock(&m);
}
static void child1(void)
{
    note('c');
    pthread_mutex_unlock(&m);
}
static void prepare2(void) { note('P'); }
static void parent2(void) { note('A'); }
static void child2(void) { note('C'); }

static void *parked(void *arg)
{
    pthread_mutex_lock(&lock);
    while (!go)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    return arg;
}

static void *yielder(void *arg)
{
    while (!atomic_load(&stop)) {
        atomic_fetch_add(&spins, 1);
        sched_yield();
    }
    return arg;
}

static long counter;
static void *adder(void *arg)
{
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&m);
        counter++;
        pthread_mutex_unlock(&m);
    }
    return arg;
}

/* The child: exit status 0 when all holds. */
static int child_main(void)
{
    if (bad_self)
        return 2;
    if (strcmp(order, "PpcC") != 0) /* prepare2, prepare1, then child1, child2 */
        return 3;
    /* nobody else runs here: yielding gives the parent's threads no turn */
    long before = atomic_load(&spins);
    for (int i = 0; i < 2000; i++)
        sched_yield();
    if (atomic_load(&spins) != before)
        return 4;
    if (pthread_mutex_trylock(&m) != 0) /* the child handler unlocked it */
        return 5;
    pthread_mutex_unlock(&m);
    pthread_t t[4];
    for (long i = 0; i < 4; i++)
        if (pthread_create(&t[i], NULL, adder, (void *)i) != 0)
            return 6;
    for (long i = 0; i < 4; i++) {
        void *ret;
        if (pthread_join(t[i], &ret) != 0 || ret != (void *)i)
            return 7;
    }
    if (counter != 4000)
        return 8;
    return 0;
}

int main(void)
{
    int expect_ult = pth_test_start();
    forker = pthread_self();
    CHECK_RC(pthread_atfork(prepare1, parent1, child1), 0);
    CHECK_RC(pthread_atfork(prepare2, parent2, child2), 0);
    pthread_t p, y[2];
    CHECK_RC(pthread_create(&p, NULL, parked, NULL), 0);
    for (int i = 0; i < 2; i++)
        CHECK_RC(pthread_create(&y[i], NULL, yielder, NULL), 0);
    double end = pth_test_now() + TEST_PATIENCE_S;
    while (atomic_load(&spins) < 100) { /* the yielders run */
        CHECK(pth_test_now() < end);
        sched_yield();
    }
    if (expect_ult)
        CHECK(pth_test_is_ult());
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        order[order_n] = 0;
        int rc = child_main();
        if (rc != 0)
            fprintf(stderr, "child: check %d failed (order \"%s\", bad self %d)\n", rc, order,
                    bad_self);
        exit(rc); /* exit, not _exit: the destructors run */
    }
    CHECK_EQ_INT(bad_self, 0);
    order[order_n] = 0;
    if (strcmp(order, "PpaA") != 0)
        TEST_FAIL("handler order \"%s\", expected \"PpaA\"", order);
    int status = 0;
    CHECK_EQ_INT(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        TEST_FAIL("child status %#x", status);
    CHECK_RC(pthread_mutex_trylock(&m), 0); /* the parent handler unlocked it */
    pthread_mutex_unlock(&m);
    atomic_store(&stop, 1);
    pthread_mutex_lock(&lock);
    go = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    CHECK_RC(pthread_join(p, NULL), 0);
    for (int i = 0; i < 2; i++)
        CHECK_RC(pthread_join(y[i], NULL), 0);
    printf("atfork handlers ran as the forking thread; the child had one thread\n");
    return 0;
}
