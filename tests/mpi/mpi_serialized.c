/* mpi_serialized: a program initialised with MPI_THREAD_FUNNELED (or SERIALIZED, argv[1]
 * = "serialized") whose ULTs on 2 streams call MPI at the same time: the layer asks MPI
 * for SERIALIZED, reports the program's own level, and once the second stream calls MPI
 * serialises its own calls and the program's nonblocking ones with its lock
 * (weft_mpi_mode() 1 before, 2 after).  Results must be right, with ULTs parked in
 * receives on both streams while others test their own requests.  2 ranks. */
#include <string.h>

#include "mpi_test.h"
#include "weft_mpi.h"

#define NULT 8

static int rank, size;
static MPI_Comm comms[NULT];

static void worker(void *arg)
{
    int u = (int)(size_t)arg, peer = 1 - rank;
    MPI_Comm c = comms[u];
    for (int i = 0; i < 50; i++) {
        int v = rank * 1000 + u * 10 + i % 10, w = -1;
        MPI_Request rq;
        if (i % 2 && rank == 0) {
            CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, peer, i, c, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, i, c));
        } else if (i % 2) {
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, i, c));
            CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, peer, i, c, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, peer, i, c, &rq));
            int flag = 0;
            while (!flag) { /* the program's own test loop, under the layer's lock */
                CHECK_MPI(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
                if (!flag)
                    ABT_thread_yield();
            }
            CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, peer, i, c, MPI_STATUS_IGNORE));
        }
        CHECK_EQ(w, peer * 1000 + u * 10 + i % 10);
        long s = rank + u, t = 0;
        CHECK_MPI(MPI_Allreduce(&s, &t, 1, MPI_LONG, MPI_SUM, c));
        CHECK_EQ(t, 1 + 2 * u);
    }
}

int main(int argc, char **argv)
{
    int want = argc > 1 && strcmp(argv[1], "serialized") == 0 ? MPI_THREAD_SERIALIZED
                                                              : MPI_THREAD_FUNNELED;
    int provided = -1;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, want, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_rank = rank;
    CHECK_EQ(size, 2);
    CHECK_EQ(provided, want); /* the program's level (the layer asked SERIALIZED) */
    int real = -1;
    CHECK_MPI(PMPI_Query_thread(&real));
    CHECK_EQ(real, MPI_THREAD_SERIALIZED);
    CHECK_EQ(weft_mpi_mode(), 1); /* no lock until a second thread calls MPI */
    for (int u = 0; u < NULT; u++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[u]));
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs2, self;
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
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
    CHECK(s.parked > 0);
    CHECK_EQ(weft_mpi_mode(), 2);
    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    for (int u = 0; u < NULT; u++)
        MPI_Comm_free(&comms[u]);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
