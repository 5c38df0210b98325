/* mpi_thread_level: the layer keeps the program's thread level and takes no lock while
 * only the thread that initialised MPI calls it.  argv[1] is how the program initialises:
 * "init" (MPI_Init), "single", "funneled" or "serialized" (MPI_Init_thread); argv[2]
 * "second" adds a last phase in which ULTs of a second stream call MPI.  2 ranks.
 *   - `provided` and MPI_Query_thread answer the program's level (Open MPI gives what it
 *     is asked); MPI itself (PMPI_Query_thread) runs at that level, except FUNNELED,
 *     which the layer asks as SERIALIZED, and under WEFT_MPI_THREAD_LEVEL=serialized;
 *   - phase 1, no weft: the main thread's blocking and nonblocking calls (an osu_latency
 *     and osu_mbw_mr pattern): weft_mpi_mode() stays 1 (no lock);
 *   - phase 2, ULTs on the primary stream only, parked in receives (the deadlock pattern
 *     of mpi_deadlock_free) and in a collective: they park (stats), and still no lock;
 *   - phase 3 ("second"): ULTs of the primary and of a second stream exchange at once:
 *     the lock goes on (mode 2) and every result is right. */
#include <string.h>

#include "mpi_test.h"
#include "weft_mpi.h"

#define NULT   4
#define ROUNDS 40

static int rank, peer;
static MPI_Comm comms[NULT];

static void recv_first(void *arg)
{
    int v = -1;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_EQ(v, peer + 100);
    long s = rank + 1, t = 0;
    CHECK_MPI(MPI_Allreduce(&s, &t, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ(t, 3);
}

static void send_later(void *arg)
{
    int v = rank + 100;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, 5, MPI_COMM_WORLD));
}

static void exchanger(void *arg)
{
    int u = (int)(size_t)arg;
    MPI_Comm c = comms[u];
    for (int i = 0; i < ROUNDS; i++) {
        int v = rank * 1000 + u * 100 + i, w = -1;
        MPI_Request rq[2];
        CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, peer, i, c, &rq[0]));
        CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, peer, i, c, &rq[1]));
        CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        CHECK_EQ(w, peer * 1000 + u * 100 + i);
        if (rank == 0) {
            CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, peer, i, c, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, i, c));
        } else {
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, i, c));
            CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, peer, i, c, MPI_STATUS_IGNORE));
        }
        CHECK_EQ(w, peer * 1000 + u * 100 + i);
    }
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "init";
    int second = argc > 2 && strcmp(argv[2], "second") == 0;
    int want = strcmp(how, "single") == 0       ? MPI_THREAD_SINGLE
               : strcmp(how, "funneled") == 0   ? MPI_THREAD_FUNNELED
               : strcmp(how, "serialized") == 0 ? MPI_THREAD_SERIALIZED
                                                : -1;
    int provided = -1;
    if (want < 0) {
        CHECK_MPI(MPI_Init(&argc, &argv));
        want = MPI_THREAD_SINGLE;
    } else {
        CHECK_MPI(MPI_Init_thread(&argc, &argv, want, &provided));
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    test_rank = rank;
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_EQ(size, 2);
    peer = 1 - rank;
    if (strcmp(how, "init") != 0)
        CHECK_EQ(provided, want);
    int q = -1, real = -1;
    CHECK_MPI(MPI_Query_thread(&q));
    CHECK_EQ(q, want);
    CHECK_MPI(PMPI_Query_thread(&real));
    const char *floor = getenv("WEFT_MPI_THREAD_LEVEL");
    int raised = want == MPI_THREAD_FUNNELED || (floor && strcmp(floor, "serialized") == 0);
    CHECK_EQ(real, raised ? MPI_THREAD_SERIALIZED : want);
    CHECK_EQ(weft_mpi_mode(), 1);

    /* phase 1: the main thread, no weft */
    for (int i = 0; i < 200; i++) {
        long m = i, got = -1;
        if (rank == 0) {
            CHECK_MPI(MPI_Send(&m, 1, MPI_LONG, peer, 1, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(&got, 1, MPI_LONG, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Recv(&got, 1, MPI_LONG, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Send(&m, 1, MPI_LONG, peer, 1, MPI_COMM_WORLD));
        }
        CHECK_EQ(got, i);
        MPI_Request rq[2];
        int flag = 0;
        CHECK_MPI(MPI_Irecv(&got, 1, MPI_LONG, peer, 2, MPI_COMM_WORLD, &rq[0]));
        CHECK_MPI(MPI_Isend(&m, 1, MPI_LONG, peer, 2, MPI_COMM_WORLD, &rq[1]));
        CHECK_MPI(MPI_Test(&rq[1], &flag, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Waitall(flag ? 1 : 2, rq, MPI_STATUSES_IGNORE));
        CHECK_EQ(got, i);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_EQ(weft_mpi_mode(), 1);

    /* phase 2: ULTs of the primary stream */
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream self;
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pools[0]));
    for (int round = 0; round < 10; round++) {
        ABT_thread a, b;
        CHECK_ABT(ABT_thread_create(pools[0], recv_first, NULL, ABT_THREAD_ATTR_NULL, &a));
        CHECK_ABT(ABT_thread_create(pools[0], send_later, NULL, ABT_THREAD_ATTR_NULL, &b));
        CHECK_ABT(ABT_thread_free(&a));
        CHECK_ABT(ABT_thread_free(&b));
    }
    struct weft_mpi_stats st;
    CHECK_MPI(weft_mpi_get_stats(&st));
    CHECK(st.parked > 0); /* the layer ran: receives parked and polls woke them */
    CHECK_EQ(weft_mpi_mode(), 1);

    /* phase 3: ULTs of two streams at once */
    if (second) {
        for (int u = 0; u < NULT; u++)
            CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[u]));
        ABT_xstream xs2;
        CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
        CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pools[1]));
        ABT_thread t[NULT];
        for (int u = 0; u < NULT; u++)
            CHECK_ABT(ABT_thread_create(pools[u % 2], exchanger, (void *)(size_t)u,
                                        ABT_THREAD_ATTR_NULL, &t[u]));
        for (int u = 0; u < NULT; u++)
            CHECK_ABT(ABT_thread_free(&t[u]));
        CHECK_EQ(weft_mpi_mode(), 2);
        CHECK_ABT(ABT_xstream_join(xs2));
        CHECK_ABT(ABT_xstream_free(&xs2));
        for (int u = 0; u < NULT; u++)
            MPI_Comm_free(&comms[u]);
    }
    CHECK_ABT(ABT_finalize());
    CHECK_MPI(MPI_Query_thread(&q));
    CHECK_EQ(q, want);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
