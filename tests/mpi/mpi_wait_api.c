/* mpi_wait_api: weft_mpi_wait / waitall / waitany / probe park a ULT without interposition.
 * This program is linked with MPI's library *before* libweft-mpi, so its MPI_* calls bind
 * to MPI itself (checked: MPI_Init_thread does not start the layer), and the layer starts
 * at the first weft_mpi_* call, from what MPI reports.  The deadlock pattern again (one
 * stream per rank; ULT A waits first, ULT B sends), with nonblocking starts and the
 * weft_mpi_* waits: it completes only if those park.  2 ranks. */
#include "mpi_test.h"
#include "weft_mpi.h"

static int rank, peer;

static void ult_a(void *arg)
{
    int v[3] = { -1, -1, -1 }, idx = -1;
    MPI_Request rq[2];
    MPI_Status st;
    CHECK_MPI(weft_mpi_probe(peer, 1, MPI_COMM_WORLD, &st));
    CHECK_EQ(st.MPI_SOURCE, peer);
    CHECK_MPI(MPI_Irecv(&v[0], 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(weft_mpi_wait(&rq[0], &st));
    CHECK_EQ(v[0], peer * 10 + 1);
    CHECK_MPI(MPI_Irecv(&v[1], 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Irecv(&v[2], 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(weft_mpi_waitany(2, rq, &idx, MPI_STATUS_IGNORE));
    CHECK(idx == 0 || idx == 1);
    CHECK_MPI(weft_mpi_waitall(2, rq, MPI_STATUSES_IGNORE));
    CHECK_EQ(v[1], peer * 10 + 2);
    CHECK_EQ(v[2], peer * 10 + 3);
}

static void ult_b(void *arg)
{
    int v[3] = { rank * 10 + 1, rank * 10 + 2, rank * 10 + 3 };
    MPI_Request rq[3];
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Isend(&v[i], 1, MPI_INT, peer, i + 1, MPI_COMM_WORLD, &rq[i]));
    CHECK_MPI(weft_mpi_waitall(3, rq, MPI_STATUSES_IGNORE));
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    test_rank = rank;
    peer = 1 - rank;
    CHECK_EQ(weft_mpi_mode(), 0); /* MPI's own MPI_Init_thread ran: the layer sleeps */
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    for (int round = 0; round < 5; round++) {
        ABT_thread a, b;
        CHECK_ABT(ABT_thread_create(pool, ult_a, NULL, ABT_THREAD_ATTR_NULL, &a));
        CHECK_ABT(ABT_thread_create(pool, ult_b, NULL, ABT_THREAD_ATTR_NULL, &b));
        CHECK_ABT(ABT_thread_free(&a));
        CHECK_ABT(ABT_thread_free(&b));
    }
    CHECK_EQ(weft_mpi_mode(), 1); /* started by the first weft_mpi_* call */
    struct weft_mpi_stats s;
    CHECK_MPI(weft_mpi_get_stats(&s));
    unsigned long long parked = s.parked, total = 0;
    CHECK_MPI(PMPI_Allreduce(&parked, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK(total >= 5); /* in each round, the first A to wait found nothing yet */
    CHECK_ABT(ABT_finalize());
    CHECK_MPI(MPI_Finalize());
    return 0;
}
