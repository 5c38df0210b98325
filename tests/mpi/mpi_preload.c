/* mpi_preload: libweft-mpi works as LD_PRELOAD=libweft-mpi.so under a program linked only
 * with weft and MPI (no -lweft-mpi, no weft_mpi.h).  The program is the deadlock pattern
 * of mpi_deadlock_free (one stream per rank, ULT A receives first, ULT B sends), which
 * hangs unless the preloaded layer parks A; and the layer must be the one answering
 * (weft_mpi_mode found with dlsym and saying 1).  2 ranks. */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "mpi_test.h"

static int rank, peer;

static void ult_a(void *arg)
{
    int v = -1;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_EQ(v, peer + 100);
}

static void ult_b(void *arg)
{
    int v = rank + 100;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, 3, MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    test_rank = rank;
    peer = 1 - rank;
    int (*mode)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "weft_mpi_mode");
    CHECK(mode != NULL); /* libweft-mpi.so is preloaded */
    CHECK_EQ(mode(), 1);
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    for (int round = 0; round < 10; round++) {
        ABT_thread a, b;
        CHECK_ABT(ABT_thread_create(pool, ult_a, NULL, ABT_THREAD_ATTR_NULL, &a));
        CHECK_ABT(ABT_thread_create(pool, ult_b, NULL, ABT_THREAD_ATTR_NULL, &b));
        CHECK_ABT(ABT_thread_free(&a));
        CHECK_ABT(ABT_thread_free(&b));
    }
    CHECK_ABT(ABT_finalize());
    CHECK_MPI(MPI_Finalize());
    return 0;
}
