/* mpi_idle_sleep: a stream whose only ULT waits in MPI_Recv sleeps in short naps instead
 * of spinning.  Rank 1 (one stream) waits for a message that rank 0 sends 400 ms after
 * rank 1 said its clock runs (a "ready" sent past the layer: the wait lasts that long
 * however late either rank runs); its process CPU time over the wait must stay well
 * under the wall time (< 35%: the naps' wake-ups plus Open MPI's own threads), and the
 * layer must have given the stream naps.  The CPU check is skipped under WEFT_TEST_SLOW
 * (sanitizers, valgrind): exit 77 then, after the functional part passed.  2 ranks. */
#include <unistd.h>

#include "mpi_test.h"
#include "weft_mpi.h"

#define WAIT_S 0.4

static int rank;
static double cpu_frac = -1;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void waiter(void *arg)
{
    int v = 0;
    double w0 = test_now(), c0 = cpu_now();
    int ready = 1; /* PMPI: the handshake is no call of the layer's and parks nothing */
    CHECK_MPI(PMPI_Send(&ready, 1, MPI_INT, 0, 4, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    double w1 = test_now(), c1 = cpu_now();
    CHECK_EQ(v, 77);
    CHECK(w1 - w0 >= WAIT_S * 0.99); /* rank 0 slept WAIT_S after w0 was read */
    cpu_frac = (c1 - c0) / (w1 - w0);
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    test_rank = rank;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        int ready = 0;
        CHECK_MPI(PMPI_Recv(&ready, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        usleep((useconds_t)(WAIT_S * 1e6));
        int v = 77;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
    } else {
        CHECK_ABT(ABT_init(0, NULL));
        ABT_xstream xs;
        ABT_pool pool;
        ABT_thread t;
        CHECK_ABT(ABT_xstream_self(&xs));
        CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
        CHECK_ABT(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_ABT(ABT_thread_free(&t));
        struct weft_mpi_stats s;
        CHECK_MPI(weft_mpi_get_stats(&s));
        CHECK_EQ(s.parked, 1);
        CHECK(s.naps > 0); /* the idle stream asked the layer how long it may sleep */
        CHECK_ABT(ABT_finalize());
        fprintf(stderr, "mpi_idle_sleep: CPU %.1f%% of the wait, %llu polls, %llu naps\n",
                100 * cpu_frac, s.polls, s.naps);
    }
    int skip = 0;
    if (rank == 1) {
        if (test_slow())
            skip = 1;
        else
            CHECK(cpu_frac < 0.35);
    }
    CHECK_MPI(MPI_Bcast(&skip, 1, MPI_INT, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    if (skip) {
        fprintf(stderr, "SKIP: CPU check not made under WEFT_TEST_SLOW\n");
        return 77;
    }
    return 0;
}
