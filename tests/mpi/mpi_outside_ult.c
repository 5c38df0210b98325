/* mpi_outside_ult: calls made outside a ULT go straight to PMPI (the layer counts no
 * call for them): before ABT_init, from an external pthread and from a tasklet while
 * weft runs, and after ABT_finalize; a ULT's call in between is counted.  Results right
 * in every case.  2 ranks, MPI_THREAD_MULTIPLE. */
#include <pthread.h>

#include "mpi_test.h"
#include "weft_mpi.h"

static int rank, peer;

static void exchange(int tag)
{
    int v = rank * 10 + tag, w = -1;
    CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, peer, tag, &w, 1, MPI_INT, peer, tag, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK_EQ(w, peer * 10 + tag);
    if (rank == 0) {
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, tag + 100, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, peer, tag + 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_EQ(w, peer * 10 + tag);
    }
    long s = 1, t = 0;
    CHECK_MPI(MPI_Allreduce(&s, &t, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ(t, 2);
}

static unsigned long long calls(void)
{
    struct weft_mpi_stats s;
    CHECK_MPI(weft_mpi_get_stats(&s));
    return s.calls;
}

static void *ext_thread(void *arg)
{
    exchange(2);
    return NULL;
}

static void as_unit(void *arg) { exchange((int)(size_t)arg); }

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    test_rank = rank;
    peer = 1 - rank;
    exchange(1); /* before ABT_init */
    CHECK_EQ(calls(), 0);
    CHECK_ABT(ABT_init(0, NULL));
    pthread_t th; /* an external thread while weft runs */
    CHECK(pthread_create(&th, NULL, ext_thread, NULL) == 0);
    CHECK(pthread_join(th, NULL) == 0);
    CHECK_EQ(calls(), 0);
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_task task; /* a tasklet cannot park: straight to PMPI */
    CHECK_ABT(ABT_task_create(pool, as_unit, (void *)3, &task));
    CHECK_ABT(ABT_task_free(&task));
    CHECK_EQ(calls(), 0);
    ABT_thread ult; /* a ULT: through the layer */
    CHECK_ABT(ABT_thread_create(pool, as_unit, (void *)4, ABT_THREAD_ATTR_NULL, &ult));
    CHECK_ABT(ABT_thread_free(&ult));
    unsigned long long c = calls();
    CHECK(c >= 3);
    CHECK_ABT(ABT_finalize());
    exchange(5); /* after ABT_finalize */
    CHECK_EQ(calls(), c);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
