/* mpi_poll_between: while a ULT is parked in MPI, its stream polls MPI between the units
 * it runs (eager polling, core/sched/poll_hook.h weft_poll_hook_eager), not only every
 * event_freq (50) units or when it runs dry: a transfer that needs several progress calls
 * advances while the other ULTs compute.  One rank, one stream: a ULT parks in MPI_Recv
 * on MPI_COMM_SELF, then UNITS computing ULTs run (fewer than event_freq, and the stream
 * never idles); the layer's poll count must grow by at least UNITS.  Then the message is
 * sent and the receiver gets it.  WEFT_MPI_POLL_GAP_US=0 (set here): a poll after every
 * unit, whatever the units' length.  Counts, not times. */
#include <stdatomic.h>
#include <stdlib.h>
#include <weft_mpi.h>

#include "mpi_test.h"

#define UNITS 20

static _Atomic int ran;
static int got = -1;

static void receiver(void *arg)
{
    (void)arg;
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 7, MPI_COMM_SELF, MPI_STATUS_IGNORE));
}

static void compute(void *arg)
{
    volatile double x = 1.0;
    for (int i = 0; i < 1000; i++)
        x = x * 1.000001 + (double)(size_t)arg;
    atomic_fetch_add(&ran, 1);
}

int main(int argc, char **argv)
{
    setenv("WEFT_MPI_POLL_GAP_US", "0", 1); /* read by the layer in MPI_Init_thread */
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &test_rank);
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    struct weft_mpi_stats s0, s1, s2;
    CHECK_MPI(weft_mpi_get_stats(&s0));
    ABT_thread r, c[UNITS];
    CHECK_ABT(ABT_thread_create(pool, receiver, NULL, ABT_THREAD_ATTR_NULL, &r));
    do { /* let the receiver run and park */
        CHECK_ABT(ABT_thread_yield());
        CHECK_MPI(weft_mpi_get_stats(&s1));
    } while (s1.parked == s0.parked);

    for (int i = 0; i < UNITS; i++)
        CHECK_ABT(ABT_thread_create(pool, compute, (void *)(size_t)i, ABT_THREAD_ATTR_NULL, &c[i]));
    while (atomic_load(&ran) < UNITS) /* they run through the scheduler, behind this ULT */
        CHECK_ABT(ABT_thread_yield());
    CHECK_MPI(weft_mpi_get_stats(&s2));
    printf("polls while %d units ran beside a parked receive: %llu\n", UNITS, s2.polls - s1.polls);
    CHECK(s2.polls - s1.polls >= UNITS);
    CHECK_EQ(got, -1); /* nothing sent yet */

    int v = 42;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_SELF));
    CHECK_ABT(ABT_thread_free(&r));
    CHECK_EQ(got, 42);
    for (int i = 0; i < UNITS; i++)
        CHECK_ABT(ABT_thread_free(&c[i]));
    CHECK_ABT(ABT_finalize());
    CHECK_MPI(MPI_Finalize());
    return 0;
}
