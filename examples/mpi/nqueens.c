/* examples/mpi/nqueens.c - N-Queens counted across MPI ranks, with weft ULTs inside
 * each rank and work stealing between ranks by messages.
 *
 *   mpirun -np 4 ./nqueens [N=12] [WORKERS=4] [STREAMS=1]
 *
 * The work: every legal placement of the first DEPTH queens is a task (its columns packed
 * in an int); a task counts the solutions below it.  All tasks start on rank 0 - as
 * unbalanced as it gets - and the other ranks get theirs by stealing.
 *
 * Each rank runs, as weft ULTs on STREAMS execution streams:
 *   - WORKERS workers: pop a task from the rank's queue (an ABT_mutex + ABT_cond), count;
 *   - a thief: while its queue is empty, asks another rank for work (MPI_Send of a
 *     request, MPI_Recv of the answer: 0..MAX_STEAL tasks), round robin over the ranks;
 *     it also reports how many tasks the rank finished to rank 0 (MPI_Send);
 *   - a server: MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG) of requests (answers with half of
 *     its queue), on rank 0 the finished-task reports (when all T tasks are done it sends
 *     TERM to every rank), TERM and BYE.
 * Every MPI call is a plain blocking call made from a ULT: with libweft-mpi, a thief or
 * server waiting for a message parks and the workers of its stream keep counting.
 * Termination: after TERM, each thief sends BYE to every other server; a server stops
 * when it has seen TERM and a BYE from every other rank, so no steal request is left
 * unanswered (messages between two ranks on one communicator arrive in order).
 * Rank 0 checks the sum (MPI_Reduce) against the known count and, for N <= 12, against a
 * sequential count; the exit status says whether they agree. */
#include <abt.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <weft.h>

#define DEPTH     3
#define MAX_STEAL 64
enum { TAG_REQ = 1, TAG_REP, TAG_DONE, TAG_TERM, TAG_BYE };

static const long long known[] = { 1,   1,   0,    0,     2,     10,     4,       40,      92,
                                   352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512 };

static int n, rank, size;
static MPI_Comm ctl, rep; /* requests/reports/TERM/BYE to servers; answers to thieves */
static ABT_mutex qlock;
static ABT_cond qcond;
static int *queue, qlen, qcap; /* under qlock */
static atomic_int terminate;   /* TERM seen by this rank's server */
static int stopping;           /* under qlock: workers may leave */
static atomic_llong solutions, done_tasks, steals, stolen_tasks;

static long long solve(unsigned cols, unsigned ld, unsigned rd, unsigned all)
{
    if (cols == all)
        return 1;
    long long c = 0;
    unsigned free_ = ~(cols | ld | rd) & all;
    while (free_) {
        unsigned bit = free_ & -free_;
        free_ -= bit;
        c += solve(cols | bit, ((ld | bit) << 1) & all, (rd | bit) >> 1, all);
    }
    return c;
}

/* Count below a task: replay its DEPTH columns, then solve. */
static long long count_task(int t)
{
    unsigned all = (1u << n) - 1, cols = 0, ld = 0, rd = 0;
    for (int r = 0; r < DEPTH; r++) {
        unsigned bit = 1u << ((t >> (5 * r)) & 31);
        cols |= bit;
        ld = ((ld | bit) << 1) & all;
        rd = (rd | bit) >> 1;
    }
    return solve(cols, ld, rd, all);
}

/* Every legal placement of DEPTH queens, packed 5 bits per row. */
static void make_tasks(int row, int packed, unsigned cols, unsigned ld, unsigned rd)
{
    unsigned all = (1u << n) - 1;
    if (row == DEPTH) {
        if (qlen == qcap) {
            qcap = qcap ? 2 * qcap : 256;
            queue = realloc(queue, sizeof(int) * (size_t)qcap);
            if (!queue)
                MPI_Abort(MPI_COMM_WORLD, 2);
        }
        queue[qlen++] = packed;
        return;
    }
    for (int c = 0; c < n; c++) {
        unsigned bit = 1u << c;
        if ((cols | ld | rd) & bit)
            continue;
        make_tasks(row + 1, packed | c << (5 * row), cols | bit, ((ld | bit) << 1) & all,
                   (rd | bit) >> 1);
    }
}

static void push_tasks(const int *t, int k)
{
    ABT_mutex_lock(qlock);
    if (qlen + k > qcap) {
        qcap = qlen + k + 256;
        queue = realloc(queue, sizeof(int) * (size_t)qcap);
        if (!queue)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0; i < k; i++)
        queue[qlen++] = t[i];
    ABT_cond_broadcast(qcond);
    ABT_mutex_unlock(qlock);
}

static void worker(void *arg)
{
    for (;;) {
        ABT_mutex_lock(qlock);
        while (qlen == 0 && !stopping)
            ABT_cond_wait(qcond, qlock);
        if (qlen == 0) {
            ABT_mutex_unlock(qlock);
            return;
        }
        int t = queue[--qlen]; /* newest first; thieves take the oldest */
        ABT_mutex_unlock(qlock);
        atomic_fetch_add(&solutions, count_task(t));
        atomic_fetch_add(&done_tasks, 1);
    }
}

static void thief(void *arg)
{
    long long reported = 0, me = rank;
    int victim = rank, got[MAX_STEAL];
    double nap = 50e-6;
    while (!atomic_load(&terminate)) {
        long long d = atomic_load(&done_tasks);
        if (d > reported) { /* finished tasks, for rank 0's termination count */
            long long inc = d - reported;
            MPI_Send(&inc, 1, MPI_LONG_LONG, 0, TAG_DONE, ctl);
            reported = d;
        }
        ABT_mutex_lock(qlock);
        int have = qlen;
        ABT_mutex_unlock(qlock);
        if (have > 0 || size == 1) {
            weft_thread_sleep(nap);
            continue;
        }
        victim = (victim + 1) % size;
        if (victim == rank)
            victim = (victim + 1) % size;
        MPI_Status st;
        int k = 0;
        MPI_Send(&me, 1, MPI_LONG_LONG, victim, TAG_REQ, ctl);
        MPI_Recv(got, MAX_STEAL, MPI_INT, victim, TAG_REP, rep, &st);
        MPI_Get_count(&st, MPI_INT, &k);
        if (k > 0) {
            push_tasks(got, k);
            atomic_fetch_add(&steals, 1);
            atomic_fetch_add(&stolen_tasks, k);
            nap = 50e-6;
        } else {
            weft_thread_sleep(nap); /* nothing there: back off a little */
            nap = nap < 1e-3 ? 2 * nap : nap;
        }
    }
    for (int r = 0; r < size; r++) /* no more requests from this rank */
        if (r != rank)
            MPI_Send(&me, 1, MPI_LONG_LONG, r, TAG_BYE, ctl);
    ABT_mutex_lock(qlock);
    stopping = 1;
    ABT_cond_broadcast(qcond);
    ABT_mutex_unlock(qlock);
}

static void server(void *arg)
{
    long long total = *(long long *)arg, finished = 0;
    int term = 0, byes = 0, give[MAX_STEAL];
    while (!term || byes < size - 1) {
        long long msg;
        MPI_Status st;
        MPI_Recv(&msg, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, ctl, &st);
        switch (st.MPI_TAG) {
        case TAG_REQ: {
            ABT_mutex_lock(qlock);
            int k = qlen / 2 > MAX_STEAL ? MAX_STEAL : qlen / 2;
            for (int i = 0; i < k; i++) /* the oldest tasks: the front of the queue */
                give[i] = queue[i];
            for (int i = k; i < qlen; i++)
                queue[i - k] = queue[i];
            qlen -= k;
            ABT_mutex_unlock(qlock);
            MPI_Send(give, k, MPI_INT, st.MPI_SOURCE, TAG_REP, rep);
            break;
        }
        case TAG_DONE: /* rank 0 only */
            finished += msg;
            if (finished == total)
                for (int r = 0; r < size; r++)
                    MPI_Send(&finished, 1, MPI_LONG_LONG, r, TAG_TERM, ctl);
            break;
        case TAG_TERM:
            term = 1;
            atomic_store(&terminate, 1);
            break;
        case TAG_BYE: byes++; break;
        }
    }
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    n = argc > 1 ? atoi(argv[1]) : 12;
    int workers = argc > 2 ? atoi(argv[2]) : 4;
    int streams = argc > 3 ? atoi(argv[3]) : 1;
    if (n < DEPTH + 1 || n > 16 || workers < 1 || streams < 1 || provided < MPI_THREAD_SERIALIZED) {
        if (rank == 0)
            fprintf(stderr, "usage: nqueens [N=12, 4..16] [WORKERS>=1] [STREAMS>=1] "
                            "(MPI_THREAD_SERIALIZED at least)\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &ctl);
    MPI_Comm_dup(MPI_COMM_WORLD, &rep);
    long long total = 0;
    if (rank == 0) { /* all the work starts here */
        make_tasks(0, 0, 0, 0, 0);
        total = qlen;
    }
    MPI_Bcast(&total, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);

    ABT_init(argc, argv);
    ABT_xstream *xs = malloc(sizeof(ABT_xstream) * (size_t)streams);
    ABT_pool *pools = malloc(sizeof(ABT_pool) * (size_t)streams);
    ABT_thread *ults = malloc(sizeof(ABT_thread) * (size_t)(workers + 2));
    ABT_xstream_self(&xs[0]);
    for (int s = 1; s < streams; s++)
        ABT_xstream_create(ABT_SCHED_NULL, &xs[s]);
    for (int s = 0; s < streams; s++)
        ABT_xstream_get_main_pools(xs[s], 1, &pools[s]);
    ABT_mutex_create(&qlock);
    ABT_cond_create(&qcond);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    ABT_thread_create(pools[0], server, &total, ABT_THREAD_ATTR_NULL, &ults[0]);
    ABT_thread_create(pools[0], thief, NULL, ABT_THREAD_ATTR_NULL, &ults[1]);
    for (int w = 0; w < workers; w++)
        ABT_thread_create(pools[w % streams], worker, NULL, ABT_THREAD_ATTR_NULL, &ults[2 + w]);
    for (int u = 0; u < workers + 2; u++)
        ABT_thread_free(&ults[u]);
    double t = MPI_Wtime() - t0;

    long long mine[3] = { atomic_load(&solutions), atomic_load(&done_tasks),
                          atomic_load(&stolen_tasks) },
              sum[3] = { 0, 0, 0 };
    MPI_Reduce(mine, sum, 3, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    long long per_rank[64] = { 0 };
    MPI_Gather(&mine[1], 1, MPI_LONG_LONG, per_rank, size <= 64 ? 1 : 0, MPI_LONG_LONG, 0,
               MPI_COMM_WORLD);
    int ok = 1;
    if (rank == 0) {
        long long seq = -1;
        if (n <= 12)
            seq = solve(0, 0, 0, (1u << n) - 1);
        ok = sum[0] == known[n] && (seq < 0 || seq == sum[0]) && sum[1] == total;
        printf("nqueens N=%d on %d ranks x %d workers (%d streams): %lld solutions "
               "(known %lld, sequential %lld): %s\n",
               n, size, workers, streams, sum[0], known[n], seq, ok ? "correct" : "WRONG");
        printf("  %lld tasks, %lld moved by stealing, %.3f s; tasks run per rank:", total, sum[2],
               t);
        for (int r = 0; r < size && r < 64; r++)
            printf(" %lld", per_rank[r]);
        printf("\n");
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    ABT_mutex_free(&qlock);
    ABT_cond_free(&qcond);
    for (int s = 1; s < streams; s++) {
        ABT_xstream_join(xs[s]);
        ABT_xstream_free(&xs[s]);
    }
    ABT_finalize();
    free(xs);
    free(pools);
    free(ults);
    free(queue);
    MPI_Comm_free(&ctl);
    MPI_Comm_free(&rep);
    MPI_Finalize();
    return ok ? 0 : 1;
}
