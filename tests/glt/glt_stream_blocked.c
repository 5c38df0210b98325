/* glt_stream_blocked: GLT thread 1 runs a ULT that blocks in read() on an empty pipe,
 * announced with weft_blocking_begin/end; the ULTs and tasklets that the main thread then
 * sends to thread 1 (glt_ult_create_to / glt_tasklet_create_to) still run and finish, on a
 * spare OS thread that serves thread 1's pool meanwhile (they see thread number 1, the
 * spare carries its rank).  Only after they all finished does the main thread write to the
 * pipe, so none of them can have waited for the read to return.  Without a hand-off
 * (WEFT_BLOCKING_HANDOFF_US=0) the workers never run: the test fails after
 * TEST_PATIENCE_S with a message (an alarm backs the wait up).  ctest runs it with
 * GLT_NUM_THREADS=2 and, as glt_stream_blocked_glto, in the GLTO layout
 * (GLTO_NUM_THREADS=2), where create_to(1) pushes to thread 1's private pool. */
#include "glt_test.h"

#include <signal.h>
#include <unistd.h>
#include <weft.h>

enum { NULT = 8, NTASK = 4, NYIELD = 3 };

static int fds[2];
static int blocking; /* the reader is about to call read() on thread 1 */
static int reader_rank = -1;
static ssize_t nread = -2;
static char got[8];
static int done; /* workers that finished */
static int worker_rank[NULT + NTASK];
static int worker_saw_read; /* a worker saw the read returned: it ran after it */

static void die(const char *msg)
{
    ssize_t r = write(2, msg, strlen(msg));
    (void)r;
    _exit(1);
}

static void on_alarm(int sig)
{
    (void)sig;
    die("FAIL: glt_stream_blocked: the alarm rang: thread 1 was not served while it blocked\n");
}

static void reader(void *arg)
{
    (void)arg;
    reader_rank = glt_get_thread_num();
    __atomic_store_n(&blocking, 1, __ATOMIC_RELEASE);
    CHECK_ABT(weft_blocking_begin());
    ssize_t n = read(fds[0], got, sizeof(got));
    CHECK_ABT(weft_blocking_end());
    __atomic_store_n(&nread, n, __ATOMIC_RELEASE);
}

static void worker(void *arg)
{
    int i = (int)(intptr_t)arg;
    if (i < NULT) /* ULTs yield, so thread 1's pool is popped more than once per worker */
        for (int k = 0; k < NYIELD; k++)
            CHECK_ABT(glt_yield());
    worker_rank[i] = glt_get_thread_num();
    if (__atomic_load_n(&nread, __ATOMIC_ACQUIRE) != -2)
        __atomic_store_n(&worker_saw_read, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&done, 1, __ATOMIC_RELEASE);
}

int main(int argc, char **argv)
{
    signal(SIGALRM, on_alarm);
    alarm(2 * (unsigned)TEST_PATIENCE_S);
    CHECK(pipe(fds) == 0);
    CHECK_ABT(glt_init(argc, argv));
    CHECK_EQ_INT(glt_get_num_threads(), 2);
    glt_team_t *t = glt_get_team();
    printf("glt_stream_blocked (%s): %s layout\n", GLT_TEST_BUILD, t->glto ? "GLTO" : "GLT");

    GLT_ult r;
    CHECK_ABT(glt_ult_create_to(reader, NULL, &r, 1));
    glt_test_wait_flag(&blocking);

    GLT_ult u[NULT];
    GLT_tasklet k[NTASK];
    for (int i = 0; i < NULT; i++)
        CHECK_ABT(glt_ult_create_to(worker, (void *)(intptr_t)i, &u[i], 1));
    for (int i = 0; i < NTASK; i++)
        CHECK_ABT(glt_tasklet_create_to(worker, (void *)(intptr_t)(NULT + i), &k[i], 1));

    /* The workers finish while the reader still blocks: nothing is written yet. */
    double t0 = glt_get_wtime();
    while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < NULT + NTASK) {
        CHECK_ABT(glt_yield());
        usleep(200); /* thread 0 has nothing else to run: leave the CPUs to the spare */
        if (glt_get_wtime() - t0 > TEST_PATIENCE_S) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "FAIL: glt_stream_blocked (%s, %s): %d of %d workers sent to thread 1 "
                     "ran in %.0f s while it blocked in read(): no spare served its pool\n",
                     GLT_TEST_BUILD, t->glto ? "GLTO" : "GLT", __atomic_load_n(&done, 0),
                     NULT + NTASK, TEST_PATIENCE_S);
            die(msg);
        }
    }
    CHECK_EQ_INT(__atomic_load_n(&nread, __ATOMIC_ACQUIRE), -2);
    CHECK_EQ_INT(worker_saw_read, 0);

    /* Release the reader, join everything. */
    CHECK(write(fds[1], "glt!", 4) == 4);
    CHECK_ABT(glt_ult_join(&r));
    CHECK_ABT(glt_ult_free(&r));
    for (int i = 0; i < NULT; i++) {
        CHECK_ABT(glt_ult_join(&u[i]));
        CHECK_ABT(glt_ult_free(&u[i]));
    }
    for (int i = 0; i < NTASK; i++) {
        CHECK_ABT(glt_tasklet_join(&k[i]));
        CHECK_ABT(glt_tasklet_free(&k[i]));
    }
    CHECK_EQ_INT(reader_rank, 1);
    CHECK_EQ_INT(nread, 4);
    CHECK(memcmp(got, "glt!", 4) == 0);
    for (int i = 0; i < NULT + NTASK; i++)
        CHECK_EQ_INT(worker_rank[i], 1); /* the spare runs them with thread 1's rank */
    CHECK_ABT(glt_finalize());
    alarm(0);
    close(fds[0]);
    close(fds[1]);
    printf("glt_stream_blocked (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
