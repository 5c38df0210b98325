/* bench/mpi/pingpong.c - ULT-to-ULT ping-pong latency and message rate over MPI, with
 * libweft-mpi, beside plain MPI (the same source built with -DPLAIN: no weft, no layer,
 * one process per core).  Run on 2 ranks:
 *
 *   mpirun -np 2 mpi_pingpong       latency|rate ULTS [ITERS] [multiple|funneled]
 *   mpirun -np 2 mpi_pingpong_plain latency|rate 1    [ITERS] [single|funneled|serialized|multiple]
 *
 * plain MPI runs at MPI_THREAD_SINGLE unless a level is named: a one-process-per-core
 * program needs no more, and that is the baseline of the criterion.  A named level
 * is a reference only: Open MPI 4.1 takes its internal locks at every level above SINGLE
 * (a PMPI_Recv costs 1,190 instructions there against 874, docs/scaling.md), so
 * "multiple" measures what MPI's thread safety alone costs, without weft or the layer.
 *
 * latency: ULT u of rank 0 and ULT u of rank 1 bounce an 8-byte message ITERS times
 *          (tag u), all ULTS pairs at once on one stream per rank; prints the mean round
 *          trip a ULT sees and the aggregate rate of messages (both directions).
 * rate:    osu_mbw_mr with its pairs as ULTs: ULT u of rank 0 sends ITERS 8-byte
 *          messages to ULT u of rank 1 with blocking MPI_Send, the receiver answers every
 *          WINDOW (64) messages with an 8-byte ack; each pair has its own communicator, as
 *          each process pair of osu_mbw_mr has its own matching queues (64 pairs on one
 *          communicator would measure MPI's search of one long unexpected-message queue).
 *          Prints messages per second, acks included.  PINGPONG_WINDOW=w changes the
 *          window of each pair.
 * Also the CPU time (user + system, getrusage) of the busier rank over the timed part,
 * and messages per second of it.  For reference only: both sides spin while they wait
 * (plain MPI in its blocking calls, weft-mpi's streams in their idle polls), so a rank
 * whose peer is descheduled burns CPU too, and under load this rate falls nearly as
 * much as the wall-clock one (plain MPI: 2.3 M per CPU-second at load 5 against 14 M/s
 * quiet); it is not a quiet-machine proxy.
 * Each ULT uses blocking MPI_Send/MPI_Recv; the layer makes them nonblocking + park.  One
 * line of JSON per run on rank 0's stdout.  Thread level: MPI_THREAD_MULTIPLE, or
 * FUNNELED (the layer then asks MPI for SERIALIZED; all ULTs run on the main thread, so
 * its lock stays off).  The plain build under LD_PRELOAD=libweft-mpi.so measures what the
 * layer costs a program whose ULTs never call MPI (docs/design/mpi.md). */
#include <mpi.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#ifndef PLAIN
#include <abt.h>
#include <weft_mpi.h>
#endif

#define WINDOW 64

static int rank, peer, iters, rate_mode, win;
static MPI_Comm *comms; /* one per ULT pair: each pair's messages matched on their own */

static void latency_body(int u)
{
    long msg = 0;
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            MPI_Send(&msg, 1, MPI_LONG, peer, u, MPI_COMM_WORLD);
            MPI_Recv(&msg, 1, MPI_LONG, peer, u, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&msg, 1, MPI_LONG, peer, u, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            msg++;
            MPI_Send(&msg, 1, MPI_LONG, peer, u, MPI_COMM_WORLD);
        }
    }
    if (rank == 0 && msg != iters) {
        fprintf(stderr, "pingpong: ULT %d saw %ld round trips, not %d\n", u, msg, iters);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void rate_body(int u)
{
    long msg = 0, ack = 0;
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            msg = i;
            MPI_Send(&msg, 1, MPI_LONG, peer, u, comms[u]);
            if ((i + 1) % win == 0)
                MPI_Recv(&ack, 1, MPI_LONG, peer, u, comms[u], MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&msg, 1, MPI_LONG, peer, u, comms[u], MPI_STATUS_IGNORE);
            if (msg != i) {
                fprintf(stderr, "pingpong: ULT %d got message %ld, not %d\n", u, msg, i);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            if ((i + 1) % win == 0)
                MPI_Send(&ack, 1, MPI_LONG, peer, u, comms[u]);
        }
    }
}

/* CPU seconds (user + system) of this process so far. */
static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static void body(void *arg)
{
    int u = (int)(size_t)arg;
    if (rate_mode)
        rate_body(u);
    else
        latency_body(u);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "latency";
    int ults = argc > 2 ? atoi(argv[2]) : 1;
    iters = argc > 3 ? atoi(argv[3]) : 20000;
    const char *level = argc > 4 ? argv[4] : "multiple";
    rate_mode = strcmp(mode, "rate") == 0;
    int want = strcmp(level, "funneled") == 0     ? MPI_THREAD_FUNNELED
               : strcmp(level, "serialized") == 0 ? MPI_THREAD_SERIALIZED
                                                  : MPI_THREAD_MULTIPLE;
#ifdef PLAIN
    if (argc <= 4 || strcmp(level, "single") == 0) {
        want = MPI_THREAD_SINGLE;
        level = "single";
    }
#endif
    int provided, size;
    MPI_Init_thread(&argc, &argv, want, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *w = getenv("PINGPONG_WINDOW"); /* per pair; default WINDOW */
    win = w ? atoi(w) : WINDOW;
    if (win < 1)
        win = 1;
    if (size != 2 || ults < 1 || iters < 1 || (rate_mode && iters % win)) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: mpirun -np 2 pingpong latency|rate ULTS [ITERS, a multiple "
                    "of the window, %d, for rate] [multiple|funneled]\n",
                    WINDOW);
        MPI_Finalize();
        return 2;
    }
    peer = 1 - rank;
    comms = malloc(sizeof(MPI_Comm) * (size_t)ults);
    for (int u = 0; u < ults; u++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[u]);
#ifdef PLAIN
    ults = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    body(0); /* warm-up */
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), c0 = cpu_now();
    body(0);
    double t = MPI_Wtime() - t0, cpu = cpu_now() - c0;
    const char *impl = "plain MPI";
#else
    ABT_init(0, NULL);
    ABT_xstream xs;
    ABT_pool pool;
    ABT_xstream_self(&xs);
    ABT_xstream_get_main_pools(xs, 1, &pool);
    ABT_thread *t_ = malloc(sizeof(ABT_thread) * (size_t)ults);
    double t = 0, cpu = 0;
    for (int round = 0; round < 2; round++) { /* round 0 warms up */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime(), c0 = cpu_now();
        for (int u = 0; u < ults; u++)
            ABT_thread_create(pool, body, (void *)(size_t)u, ABT_THREAD_ATTR_NULL, &t_[u]);
        for (int u = 0; u < ults; u++)
            ABT_thread_free(&t_[u]);
        t = MPI_Wtime() - t0;
        cpu = cpu_now() - c0;
    }
    free(t_);
    struct weft_mpi_stats st;
    weft_mpi_get_stats(&st);
    if (getenv("PINGPONG_STATS"))
        fprintf(stderr,
                "rank %d: calls %llu immediate %llu parked %llu polls %llu testsome %llu "
                "completed %llu naps %llu\n",
                rank, st.calls, st.immediate, st.parked, st.polls, st.testsome, st.completed,
                st.naps);
    ABT_finalize();
    const char *impl = "weft-mpi";
#endif
    double tmax = 0, cmax = 0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&cpu, &cmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double msgs = rate_mode ? (double)ults * iters * (1.0 + 1.0 / win) : 2.0 * ults * iters;
        printf("{\"impl\": \"%s\", \"mode\": \"%s\", \"ults\": %d, \"iters\": %d, "
               "\"level\": \"%s\", \"seconds\": %.6f, \"msg_per_s\": %.1f, "
               "\"cpu_s\": %.6f, \"msg_per_cpu_s\": %.1f",
               impl, mode, ults, iters, level, tmax, msgs / tmax, cmax,
               cmax > 0 ? msgs / cmax : 0.0);
        if (!rate_mode)
            printf(", \"rtt_us\": %.3f", 1e6 * tmax / iters);
        printf("}\n");
    }
    for (int u = 0; u < ults; u++)
        MPI_Comm_free(&comms[u]);
    free(comms);
    MPI_Finalize();
    return 0;
}
