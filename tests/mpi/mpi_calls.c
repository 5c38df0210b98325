/* mpi_calls: every interposed call, from ULTs, gives MPI's results.  4 ranks, 2 streams
 * each, NULT ULTs per rank; ULT u of every rank works on its own duplicate of
 * MPI_COMM_WORLD, so the ULTs of a rank run their collectives concurrently (each
 * communicator sees its collectives in one order on every rank).  Each ULT checks:
 * MPI_Send/MPI_Recv (eager and 256 KiB), MPI_Ssend, MPI_Sendrecv, MPI_Wait, MPI_Waitall,
 * MPI_Waitany, MPI_Probe, MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce,
 * MPI_Alltoall, MPI_Gather(v), MPI_Scatter(v), MPI_Allgather(v), and weft_mpi_wait /
 * waitall / waitany / probe.  The counters show the calls went through the layer, that
 * ULTs parked, and that each poll made one PMPI_Testsome. */
#include <string.h>

#include "mpi_test.h"
#include "weft_mpi.h"

#define NULT 4
#define BIG  (1 << 16) /* ints: 256 KiB, past the eager limit */

static int rank, size;
static MPI_Comm comms[NULT];

static void p2p(MPI_Comm c, int u)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Status st;
    /* Send/Recv, even ranks send first: blocking calls that must not hold the stream */
    int v = rank * 100 + u, w = -1;
    if (rank % 2 == 0) {
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, right, 1, c));
        CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, left, 1, c, &st));
    } else {
        CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, left, 1, c, &st));
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, right, 1, c));
    }
    CHECK_EQ(w, left * 100 + u);
    CHECK_EQ(st.MPI_SOURCE, left);
    CHECK_EQ(st.MPI_TAG, 1);
    /* large: every rank sends right first (rendezvous: the send waits for the match) */
    int *big = malloc(sizeof(int) * BIG), *got = malloc(sizeof(int) * BIG);
    CHECK(big && got);
    for (int i = 0; i < BIG; i++)
        big[i] = rank ^ (i * 7) ^ u;
    MPI_Request rq;
    CHECK_MPI(MPI_Irecv(got, BIG, MPI_INT, left, 2, c, &rq));
    CHECK_MPI(MPI_Send(big, BIG, MPI_INT, right, 2, c));
    CHECK_MPI(MPI_Wait(&rq, &st));
    CHECK(rq == MPI_REQUEST_NULL);
    for (int i = 0; i < BIG; i += 101)
        CHECK_EQ(got[i], left ^ (i * 7) ^ u);
    /* Ssend: completes once matched */
    if (rank % 2 == 0) {
        CHECK_MPI(MPI_Ssend(&v, 1, MPI_INT, right, 3, c));
        CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, left, 3, c, MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, left, 3, c, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Ssend(&v, 1, MPI_INT, right, 3, c));
    }
    CHECK_EQ(w, left * 100 + u);
    /* Sendrecv around the ring, large */
    CHECK_MPI(MPI_Sendrecv(big, BIG, MPI_INT, right, 4, got, BIG, MPI_INT, left, 4, c, &st));
    CHECK_EQ(st.MPI_SOURCE, left);
    int cnt;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK_EQ(cnt, BIG);
    CHECK_EQ(got[BIG - 1], left ^ ((BIG - 1) * 7) ^ u);
    /* Waitall: receive from everyone, send to everyone */
    MPI_Request rs[2 * 16];
    MPI_Status sts[2 * 16];
    int in[16], out[16];
    for (int p = 0; p < size; p++) {
        out[p] = rank * 1000 + p * 10 + u;
        CHECK_MPI(MPI_Irecv(&in[p], 1, MPI_INT, p, 5, c, &rs[p]));
        CHECK_MPI(MPI_Isend(&out[p], 1, MPI_INT, p, 5, c, &rs[size + p]));
    }
    CHECK_MPI(MPI_Waitall(2 * size, rs, sts));
    for (int p = 0; p < size; p++) {
        CHECK_EQ(in[p], p * 1000 + rank * 10 + u);
        CHECK_EQ(sts[p].MPI_SOURCE, p);
        CHECK(rs[p] == MPI_REQUEST_NULL && rs[size + p] == MPI_REQUEST_NULL);
    }
    /* Waitany: each index once, then MPI_UNDEFINED */
    for (int p = 0; p < size; p++) {
        CHECK_MPI(MPI_Irecv(&in[p], 1, MPI_INT, p, 6, c, &rs[p]));
        out[p] = -(rank * 1000 + p * 10 + u);
    }
    for (int p = size - 1; p >= 0; p--) /* senders in reverse: completions out of order */
        CHECK_MPI(MPI_Send(&out[p], 1, MPI_INT, p, 6, c));
    int seen = 0;
    for (int k = 0; k < size; k++) {
        int idx = -1;
        CHECK_MPI(MPI_Waitany(size, rs, &idx, &st));
        CHECK(idx >= 0 && idx < size && !(seen & (1 << idx)));
        seen |= 1 << idx;
        CHECK_EQ(st.MPI_SOURCE, idx);
        CHECK_EQ(in[idx], -(idx * 1000 + rank * 10 + u));
    }
    int idx = 0;
    CHECK_MPI(MPI_Waitany(size, rs, &idx, MPI_STATUS_IGNORE));
    CHECK_EQ(idx, MPI_UNDEFINED);
    /* Probe, then a receive of the probed size */
    int n = 10 + rank + u;
    for (int i = 0; i < n; i++)
        big[i] = i + rank;
    CHECK_MPI(MPI_Isend(big, n, MPI_INT, right, 7, c, &rq));
    CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 7, c, &st));
    CHECK_EQ(st.MPI_SOURCE, left);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK_EQ(cnt, 10 + left + u);
    CHECK_MPI(MPI_Recv(got, cnt, MPI_INT, left, 7, c, MPI_STATUS_IGNORE));
    CHECK_EQ(got[cnt - 1], cnt - 1 + left);
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    /* the weft_mpi_* forms */
    CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, right, 8, c, &rs[0]));
    CHECK_MPI(weft_mpi_probe(left, 8, c, &st));
    CHECK_EQ(st.MPI_TAG, 8);
    CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, left, 8, c, &rs[1]));
    CHECK_MPI(weft_mpi_wait(&rs[1], &st));
    CHECK_EQ(w, left * 100 + u);
    CHECK_MPI(weft_mpi_waitall(1, &rs[0], MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, left, 9, c, &rs[0]));
    CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, right, 9, c, &rs[1]));
    int got2 = 0;
    for (int k = 0; k < 2; k++) {
        CHECK_MPI(weft_mpi_waitany(2, rs, &idx, MPI_STATUS_IGNORE));
        got2 |= 1 << idx;
    }
    CHECK_EQ(got2, 3);
    CHECK_EQ(w, left * 100 + u);
    free(big);
    free(got);
}

static void coll(MPI_Comm c, int u)
{
    int root = u % size;
    CHECK_MPI(MPI_Barrier(c));
    int b = rank == root ? 4242 + u : -1;
    CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, root, c));
    CHECK_EQ(b, 4242 + u);
    long x[3] = { rank, 2 * rank + u, 1 }, y[3] = { -1, -1, -1 };
    long sum_r = (long)size * (size - 1) / 2;
    CHECK_MPI(MPI_Reduce(x, y, 3, MPI_LONG, MPI_SUM, root, c));
    if (rank == root) {
        CHECK_EQ(y[0], sum_r);
        CHECK_EQ(y[1], 2 * sum_r + (long)size * u);
        CHECK_EQ(y[2], size);
    }
    CHECK_MPI(MPI_Allreduce(x, y, 3, MPI_LONG, MPI_MAX, c));
    CHECK_EQ(y[0], size - 1);
    CHECK_EQ(y[1], 2 * (size - 1) + u);
    long inplace = rank + 1;
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &inplace, 1, MPI_LONG, MPI_SUM, c));
    CHECK_EQ(inplace, sum_r + size);
    int sa[16], ra[16];
    for (int p = 0; p < size; p++)
        sa[p] = rank * 16 + p + u;
    CHECK_MPI(MPI_Alltoall(sa, 1, MPI_INT, ra, 1, MPI_INT, c));
    for (int p = 0; p < size; p++)
        CHECK_EQ(ra[p], p * 16 + rank + u);
    /* Gather / Gatherv (rank r gives r+1 ints) */
    int mine[16], all[256], counts[16], displs[16];
    for (int i = 0; i <= rank; i++)
        mine[i] = rank * 10 + i + u;
    CHECK_MPI(MPI_Gather(mine, 1, MPI_INT, all, 1, MPI_INT, root, c));
    if (rank == root)
        for (int p = 0; p < size; p++)
            CHECK_EQ(all[p], p * 10 + u);
    int tot = 0;
    for (int p = 0; p < size; p++) {
        counts[p] = p + 1;
        displs[p] = tot;
        tot += p + 1;
    }
    memset(all, -1, sizeof(all));
    CHECK_MPI(MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, root, c));
    if (rank == root)
        for (int p = 0; p < size; p++)
            for (int i = 0; i <= p; i++)
                CHECK_EQ(all[displs[p] + i], p * 10 + i + u);
    /* Scatter / Scatterv */
    for (int i = 0; i < tot; i++)
        all[i] = 7 * i + u;
    int one = -1, part[16];
    CHECK_MPI(MPI_Scatter(all, 1, MPI_INT, &one, 1, MPI_INT, root, c));
    CHECK_EQ(one, 7 * rank + u);
    CHECK_MPI(MPI_Scatterv(all, counts, displs, MPI_INT, part, rank + 1, MPI_INT, root, c));
    for (int i = 0; i <= rank; i++)
        CHECK_EQ(part[i], 7 * (displs[rank] + i) + u);
    /* Allgather / Allgatherv */
    CHECK_MPI(MPI_Allgather(&mine[0], 1, MPI_INT, ra, 1, MPI_INT, c));
    for (int p = 0; p < size; p++)
        CHECK_EQ(ra[p], p * 10 + u);
    memset(all, -1, sizeof(all));
    CHECK_MPI(MPI_Allgatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, c));
    for (int p = 0; p < size; p++)
        for (int i = 0; i <= p; i++)
            CHECK_EQ(all[displs[p] + i], p * 10 + i + u);
}

static void worker(void *arg)
{
    int u = (int)(size_t)arg;
    for (int round = 0; round < 3; round++) {
        p2p(comms[u], u);
        coll(comms[u], u);
    }
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_EQ(provided, MPI_THREAD_MULTIPLE);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_rank = rank;
    CHECK(size <= 16);
    CHECK_EQ(weft_mpi_mode(), 1);
    for (int u = 0; u < NULT; u++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[u]));
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs2;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    ABT_pool pools[2];
    ABT_xstream self;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pools[0]));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pools[1]));
    ABT_thread t[NULT];
    for (int u = 0; u < NULT; u++)
        CHECK_ABT(ABT_thread_create(pools[u % 2], worker, (void *)(size_t)u, ABT_THREAD_ATTR_NULL,
                                    &t[u]));
    for (int u = 0; u < NULT; u++)
        CHECK_ABT(ABT_thread_free(&t[u]));
    struct weft_mpi_stats s;
    CHECK_MPI(weft_mpi_get_stats(&s));
    CHECK(s.calls >= 3 * NULT * 20); /* at least this many blocking calls per ULT and round */
    CHECK(s.parked > 0);
    CHECK(s.completed > 0 && s.testsome <= s.polls); /* one Testsome per poll at most */
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    for (int u = 0; u < NULT; u++)
        MPI_Comm_free(&comms[u]);
    CHECK_MPI(MPI_Finalize());
    if (rank == 0)
        printf("mpi_calls: %llu blocking calls from ULTs, %llu parked, %llu polls\n", s.calls,
               s.parked, s.polls);
    return 0;
}
