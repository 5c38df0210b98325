/* examples/relic_with_weft.c - weft schedules coarse jobs on execution streams; inside each
 * job, Relic splits the work into extremely fine tasks for the stream's assistant thread
 * (the paper's "Relic used together with a general-purpose framework").
 *
 *   cc relic_with_weft.c $(pkg-config --cflags --libs relic)
 *
 * Pattern 1 (thread-bound API): each stream gets its own Relic (relic_init called from a
 * ULT running on it), and the ULT submits half of its chunks and computes the other half
 * itself, then waits.  The ULT does not yield between relic_submit and relic_wait: the
 * batch belongs to the stream's OS thread.
 * Pattern 2 (explicit handle): a ULT that may yield, and so resume on another stream,
 * between submit and wait creates a handle; the handle belongs to the ULT wherever it runs.
 * Exit status 0 when every result matches the serial one (run as a test by ctest). */
#include <abt.h>
#include <relic.h>
#include <stdio.h>
#include <stdlib.h>

#define N      (1 << 16) /* elements per job */
#define CHUNK  256       /* elements per Relic task: about 0.2 microseconds */
#define NCHUNK (N / CHUNK)
#define JOBS   4

struct chunk {
    const double *x;
    double sum;
};

struct job {
    double x[N];
    struct chunk c[NCHUNK];
    double result;
    int err;
};

static void sum_chunk(void *arg)
{
    struct chunk *c = arg;
    double s = 0;
    for (int i = 0; i < CHUNK; i++)
        s += c->x[i] * c->x[i];
    c->sum = s;
}

/* Pattern 1: the ULT is the main thread of its stream's Relic. */
static void job_bound(void *arg)
{
    struct job *j = arg;
    int err = relic_init(); /* first job on this stream: start its assistant */
    if (err != RELIC_SUCCESS && err != RELIC_ERR_ALREADY) {
        j->err = err;
        return;
    }
    relic_wake_up_hint();
    for (int k = 0; k < NCHUNK; k++) {
        j->c[k].x = j->x + k * CHUNK;
        if (k % 2 == 0)
            err = relic_submit(sum_chunk, &j->c[k]);
        else
            sum_chunk(&j->c[k]); /* the main thread works too */
        if (err != RELIC_SUCCESS)
            break;
    }
    if (err == RELIC_SUCCESS)
        err = relic_wait();
    relic_sleep_hint(); /* the stream may run other things now */
    j->result = 0;
    for (int k = 0; k < NCHUNK; k++)
        j->result += j->c[k].sum;
    j->err = err;
}

/* Pattern 2: a handle owned by the ULT, which yields inside the batch. */
static void job_handle(void *arg)
{
    struct job *j = arg;
    relic_t r;
    int err = relic_create(&r);
    for (int k = 0; err == RELIC_SUCCESS && k < NCHUNK; k++) {
        j->c[k].x = j->x + k * CHUNK;
        err = relic_submit_on(r, sum_chunk, &j->c[k]);
        if (k == NCHUNK / 2)
            ABT_thread_yield(); /* may resume on the other stream: the handle follows */
    }
    if (err == RELIC_SUCCESS)
        err = relic_wait_on(r);
    if (err == RELIC_SUCCESS)
        err = relic_destroy(r);
    j->result = 0;
    for (int k = 0; k < NCHUNK; k++)
        j->result += j->c[k].sum;
    j->err = err;
}

/* Run on each stream at the end: stop its Relic (relic_finalize is per OS thread). */
static void stream_cleanup(void *arg)
{
    int err = relic_finalize();
    if (err != RELIC_SUCCESS && err != RELIC_ERR_NOT_INIT)
        *(int *)arg = err;
}

int main(int argc, char **argv)
{
    ABT_init(argc, argv);
    ABT_xstream xs[2];
    ABT_pool pools[2], shared;
    ABT_xstream_self(&xs[0]);
    ABT_xstream_create(ABT_SCHED_NULL, &xs[1]);
    for (int i = 0; i < 2; i++)
        ABT_xstream_get_main_pools(xs[i], 1, &pools[i]);

    static struct job jobs[JOBS];
    double expect = 0;
    for (int i = 0; i < N; i++)
        expect += (double)(i % 97) * (double)(i % 97);
    for (int j = 0; j < JOBS; j++)
        for (int i = 0; i < N; i++)
            jobs[j].x[i] = (double)(i % 97);

    /* Pattern 1: two jobs per stream, each stream its own Relic. */
    ABT_thread t[JOBS];
    for (int j = 0; j < JOBS; j++)
        ABT_thread_create(pools[j % 2], job_bound, &jobs[j], ABT_THREAD_ATTR_NULL, &t[j]);
    for (int j = 0; j < JOBS; j++)
        ABT_thread_free(&t[j]);
    int cleanup_err[2] = { 0, 0 };
    for (int s = 0; s < 2; s++) {
        ABT_thread c;
        ABT_thread_create(pools[s], stream_cleanup, &cleanup_err[s], ABT_THREAD_ATTR_NULL, &c);
        ABT_thread_free(&c);
    }

    /* Pattern 2: a pool both streams pop from, so a yielding ULT may change streams. */
    ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared);
    ABT_xstream xs2;
    ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 1, &shared, ABT_SCHED_CONFIG_NULL, &xs2);
    for (int j = 0; j < JOBS; j++)
        ABT_thread_create(j % 2 ? shared : pools[0], job_handle, &jobs[j], ABT_THREAD_ATTR_NULL,
                          &t[j]);
    for (int j = 0; j < JOBS; j++)
        ABT_thread_free(&t[j]);
    ABT_xstream_join(xs2);
    ABT_xstream_free(&xs2);

    int bad = cleanup_err[0] || cleanup_err[1];
    for (int j = 0; j < JOBS; j++) {
        printf("job %d: %s, sum %.0f (serial %.0f)\n", j, relic_strerror(jobs[j].err),
               jobs[j].result, expect);
        bad |= jobs[j].err != RELIC_SUCCESS || jobs[j].result != expect;
    }
    ABT_xstream_join(xs[1]);
    ABT_xstream_free(&xs[1]);
    ABT_finalize();
    printf("%s\n", bad ? "FAILED" : "ok");
    return bad ? 1 : 0;
}
