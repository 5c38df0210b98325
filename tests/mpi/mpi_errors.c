/* mpi_errors: error codes pass through the layer.  With MPI_ERRORS_RETURN on the
 * communicator, each interposed call made from a ULT with a bad argument returns the
 * very code the PMPI call returns for the same arguments (an error at the nonblocking
 * start); and completion errors come back from a parked ULT: a receive too small for
 * its message gives MPI_ERR_TRUNCATE from MPI_Recv, and MPI_ERR_IN_STATUS with the
 * status's MPI_ERROR from MPI_Waitall (the poll's Testsome reports it).  2 ranks. */
#include "mpi_test.h"
#include "weft_mpi.h"

static int rank;

static void errclass_eq(int got, int want, const char *what)
{
    int cg = -1, cw = -2;
    MPI_Error_class(got, &cg);
    MPI_Error_class(want, &cw);
    if (got == MPI_SUCCESS || cg != cw) {
        fprintf(stderr, "rank %d: %s: layer %d (class %d), PMPI %d (class %d)\n", rank, what, got,
                cg, want, cw);
        PMPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void bad_args(void *arg)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int x = 0, y[4] = { 0 };
    MPI_Request r = MPI_REQUEST_NULL;
    errclass_eq(MPI_Send(&x, 1, MPI_INT, 99, 0, c), PMPI_Send(&x, 1, MPI_INT, 99, 0, c),
                "Send to rank 99");
    errclass_eq(MPI_Send(&x, -1, MPI_INT, 0, 0, c), PMPI_Send(&x, -1, MPI_INT, 0, 0, c),
                "Send count -1");
    errclass_eq(MPI_Recv(&x, 1, MPI_INT, 0, -5, c, MPI_STATUS_IGNORE),
                PMPI_Recv(&x, 1, MPI_INT, 0, -5, c, MPI_STATUS_IGNORE), "Recv tag -5");
    errclass_eq(MPI_Recv(&x, 1, MPI_DATATYPE_NULL, 0, 0, c, MPI_STATUS_IGNORE),
                PMPI_Recv(&x, 1, MPI_DATATYPE_NULL, 0, 0, c, MPI_STATUS_IGNORE), "Recv null type");
    errclass_eq(MPI_Sendrecv(&x, 1, MPI_INT, 99, 0, y, 1, MPI_INT, 0, 0, c, MPI_STATUS_IGNORE),
                PMPI_Sendrecv(&x, 1, MPI_INT, 99, 0, y, 1, MPI_INT, 0, 0, c, MPI_STATUS_IGNORE),
                "Sendrecv to rank 99");
    errclass_eq(MPI_Probe(99, 0, c, MPI_STATUS_IGNORE), PMPI_Probe(99, 0, c, MPI_STATUS_IGNORE),
                "Probe rank 99");
    errclass_eq(MPI_Waitall(-1, &r, MPI_STATUSES_IGNORE), PMPI_Waitall(-1, &r, MPI_STATUSES_IGNORE),
                "Waitall count -1");
    errclass_eq(MPI_Bcast(&x, 1, MPI_INT, 99, c), PMPI_Bcast(&x, 1, MPI_INT, 99, c),
                "Bcast root 99");
    errclass_eq(MPI_Reduce(&x, y, 1, MPI_INT, MPI_OP_NULL, 0, c),
                PMPI_Reduce(&x, y, 1, MPI_INT, MPI_OP_NULL, 0, c), "Reduce null op");
    errclass_eq(MPI_Allreduce(&x, y, -1, MPI_INT, MPI_SUM, c),
                PMPI_Allreduce(&x, y, -1, MPI_INT, MPI_SUM, c), "Allreduce count -1");
    errclass_eq(MPI_Gather(&x, 1, MPI_INT, y, 1, MPI_INT, 99, c),
                PMPI_Gather(&x, 1, MPI_INT, y, 1, MPI_INT, 99, c), "Gather root 99");
    errclass_eq(MPI_Scatter(&x, 1, MPI_INT, y, 1, MPI_INT, -3, c),
                PMPI_Scatter(&x, 1, MPI_INT, y, 1, MPI_INT, -3, c), "Scatter root -3");
    errclass_eq(MPI_Alltoall(&x, 1, MPI_DATATYPE_NULL, y, 1, MPI_INT, c),
                PMPI_Alltoall(&x, 1, MPI_DATATYPE_NULL, y, 1, MPI_INT, c), "Alltoall null type");
    errclass_eq(MPI_Allgather(&x, -1, MPI_INT, y, 1, MPI_INT, c),
                PMPI_Allgather(&x, -1, MPI_INT, y, 1, MPI_INT, c), "Allgather count -1");
    errclass_eq(MPI_Barrier(MPI_COMM_NULL), PMPI_Barrier(MPI_COMM_NULL), "Barrier null comm");
}

/* On rank 1, a second ULT of the stream: each time the stream's parked count reaches the
 * next target, tell rank 0 (tag 21, then 22) past the layer, so that rank 0 sends only to
 * a receiver already parked, however the ranks are scheduled. */
static unsigned long long park_target;

static void tell_when_parked(void *arg)
{
    for (int step = 0; step < 2; step++) {
        double t0 = test_now();
        for (;;) {
            struct weft_mpi_stats s;
            CHECK_MPI(weft_mpi_get_stats(&s));
            if (s.parked >= park_target + (unsigned long long)step)
                break;
            if (test_now() - t0 > TEST_PATIENCE_S) {
                fprintf(stderr, "rank 1: wait %d did not park within %.0f s\n", step + 1,
                        TEST_PATIENCE_S);
                CHECK(0);
            }
            ABT_thread_yield();
        }
        int go = step;
        CHECK_MPI(PMPI_Send(&go, 1, MPI_INT, 0, 21 + step, MPI_COMM_WORLD));
    }
}

/* rank 1 waits for 4 ints in a 1-int buffer; rank 0 sends them once that receive parked
 * (tell_when_parked): the poll's Testsome reports the truncation.  Then the same for a
 * Waitall. */
static void truncation(void *arg)
{
    int peer = 1 - rank, small = 0, big[4] = { 1, 2, 3, 4 };
    struct weft_mpi_stats s0, s1;
    CHECK_MPI(weft_mpi_get_stats(&s0));
    if (rank == 1) {
        ABT_thread teller;
        ABT_pool pool;
        park_target = s0.parked + 1;
        CHECK_ABT(ABT_self_get_last_pool(&pool));
        CHECK_ABT(ABT_thread_create(pool, tell_when_parked, NULL, ABT_THREAD_ATTR_NULL, &teller));
        int rc = MPI_Recv(&small, 1, MPI_INT, peer, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK_EQ(cls, MPI_ERR_TRUNCATE);
        MPI_Request rq[2];
        MPI_Status st[2];
        int other = 0;
        CHECK_MPI(MPI_Irecv(&other, 1, MPI_INT, peer, 12, MPI_COMM_WORLD, &rq[0]));
        CHECK_MPI(MPI_Irecv(&small, 1, MPI_INT, peer, 13, MPI_COMM_WORLD, &rq[1]));
        rc = MPI_Waitall(2, rq, st);
        CHECK_EQ(rc, MPI_ERR_IN_STATUS);
        CHECK_EQ(st[0].MPI_ERROR, MPI_SUCCESS);
        MPI_Error_class(st[1].MPI_ERROR, &cls);
        CHECK_EQ(cls, MPI_ERR_TRUNCATE);
        CHECK_EQ(other, 42);
        CHECK_ABT(ABT_thread_free(&teller));
        CHECK_MPI(weft_mpi_get_stats(&s1));
        CHECK(s1.parked >= s0.parked + 2); /* both waits parked: errors came from the poll */
    } else {
        int go = -1;
        CHECK_MPI(PMPI_Recv(&go, 1, MPI_INT, peer, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Send(big, 4, MPI_INT, peer, 11, MPI_COMM_WORLD));
        CHECK_MPI(PMPI_Recv(&go, 1, MPI_INT, peer, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int v = 42;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, 12, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(big, 4, MPI_INT, peer, 13, MPI_COMM_WORLD));
    }
}

static void run(void (*f)(void *))
{
    ABT_xstream xs;
    ABT_pool pool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, f, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    test_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_ABT(ABT_init(0, NULL));
    run(bad_args);
    run(truncation);
    struct weft_mpi_stats s;
    CHECK_MPI(weft_mpi_get_stats(&s));
    CHECK(s.calls > 0);
    CHECK_ABT(ABT_finalize());
    CHECK_MPI(MPI_Finalize());
    return 0;
}
