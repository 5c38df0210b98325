/* mpi_deadlock_free: on ranks with ONE execution stream, ULT A receives first and ULT B
 * sends afterwards, on both ranks.  With plain MPI the first blocking MPI_Recv holds the
 * only stream, B never runs, and both ranks wait for each other forever; with the layer
 * A parks, B runs and sends, the stream's poll completes A.  Done with a small (eager)
 * message and a 1 MiB (rendezvous: the send completes only once the peer's receive is
 * matched) message, so both ends of the exchange must park.  Run on 2 ranks.
 * mpi_deadlock_bypass runs this program with WEFT_MPI_BYPASS=1 and WEFT_BLOCKING_HANDOFF_US=0
 * (no spare serves a stream blocked in MPI) and expects it to hang (mpirun's --timeout):
 * the proof that this test can fail. */
#include <string.h>

#include "mpi_test.h"
#include "weft_mpi.h"

#define BIG (1 << 18) /* ints: 1 MiB */

static int rank, peer;
static int *inbox, *outbox;

static void ult_a(void *arg)
{
    int n = (int)(size_t)arg;
    MPI_Status st;
    CHECK_MPI(MPI_Recv(inbox, n, MPI_INT, peer, 7, MPI_COMM_WORLD, &st));
    CHECK_EQ(st.MPI_SOURCE, peer);
    CHECK_EQ(st.MPI_TAG, 7);
    int cnt = -1;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK_EQ(cnt, n);
    for (int i = 0; i < n; i += 997)
        CHECK_EQ(inbox[i], peer * 1000003 + i);
}

static void ult_b(void *arg)
{
    int n = (int)(size_t)arg;
    for (int i = 0; i < n; i++)
        outbox[i] = rank * 1000003 + i;
    CHECK_MPI(MPI_Send(outbox, n, MPI_INT, peer, 7, MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    int provided, size;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_rank = rank;
    CHECK_EQ(size, 2);
    peer = 1 - rank;
    inbox = malloc(sizeof(int) * BIG);
    outbox = malloc(sizeof(int) * BIG);
    CHECK(inbox && outbox);
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    int sizes[2] = { 4, BIG };
    for (int round = 0; round < 2; round++) {
        ABT_thread a, b;
        CHECK_ABT(
            ABT_thread_create(pool, ult_a, (void *)(size_t)sizes[round], ABT_THREAD_ATTR_NULL, &a));
        CHECK_ABT(
            ABT_thread_create(pool, ult_b, (void *)(size_t)sizes[round], ABT_THREAD_ATTR_NULL, &b));
        CHECK_ABT(ABT_thread_free(&a)); /* joins A first: A runs and parks before B */
        CHECK_ABT(ABT_thread_free(&b));
    }
    if (weft_mpi_mode() != 0) { /* not under WEFT_MPI_BYPASS */
        /* In each round the first A to post its receive cannot find the message (the
         * peer's B runs after the peer's A): it parked, and its stream ran B. */
        struct weft_mpi_stats s;
        CHECK_MPI(weft_mpi_get_stats(&s));
        CHECK_EQ(s.testsome, s.polls);
        unsigned long long parked = s.parked, total = 0;
        CHECK_MPI(
            MPI_Allreduce(&parked, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
        CHECK(total >= 2);
    }
    CHECK_ABT(ABT_finalize());
    free(inbox);
    free(outbox);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
