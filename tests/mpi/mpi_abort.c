/* mpi_abort MODE: on 3 ranks, ULTs of ranks 0 and 2 wait in MPI_Recv for a message that
 * never comes (parked, their streams napping), while rank 1, from a ULT, after 200 ms:
 *   abort - calls MPI_Abort(MPI_COMM_WORLD, 3);
 *   exit  - exits with status 5 without MPI_Finalize (a crashed rank).
 * The job must end with a non-zero status: mpirun notices and kills the waiting ranks
 * (expect_fail.sh checks it ends, and is not ended by a time-out). */
#include <string.h>
#include <unistd.h>

#include "mpi_test.h"

static int rank;
static const char *mode;

static void waiter(void *arg)
{
    int x;
    MPI_Recv(&x, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fprintf(stderr, "rank %d: received a message nobody sent\n", rank);
    exit(1);
}

static void failer(void *arg)
{
    usleep(200000);
    if (strcmp(mode, "abort") == 0)
        MPI_Abort(MPI_COMM_WORLD, 3);
    else
        _exit(5);
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    test_rank = rank;
    mode = argc > 1 ? argv[1] : "abort";
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread t[2];
    CHECK_ABT(
        ABT_thread_create(pool, rank == 1 ? failer : waiter, NULL, ABT_THREAD_ATTR_NULL, &t[0]));
    CHECK_ABT(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &t[1]));
    CHECK_ABT(ABT_thread_free(&t[0]));
    CHECK_ABT(ABT_thread_free(&t[1]));
    ABT_finalize();
    MPI_Finalize();
    return 0;
}
