/* examples/mpi/stencil.c - a 2-D Jacobi stencil over MPI ranks whose weft ULTs compute
 * the interior while the boundary rows are in flight.
 *
 *   mpirun -np 4 ./stencil [NX=4096] [ROWS=256] [ITERS=50] [ULTS=8] [STREAMS=1] [check]
 *
 * The grid (size*ROWS rows of NX cells) is split by rows; rank r holds ROWS rows plus a
 * halo row above and below.  Row -1 of the grid is held at 1.0, the last row's halo and
 * the left and right columns at 0.0.  Per iteration, on each rank:
 *   - one ULT exchanges the halos (MPI_Irecv and MPI_Isend both ways, then MPI_Waitall:
 *     a blocking call made from a ULT), then computes the two boundary rows, which need
 *     the new halos;
 *   - ULTS ULTs compute the interior rows 2..ROWS-1, which need no halo, meanwhile.
 * With libweft-mpi the exchanging ULT parks in MPI_Waitall and its stream runs the
 * interior ULTs, polling MPI between them (core/sched/poll_hook.h eager polling), so that the
 * halo transfers, which take several progress calls each, advance while the interior is
 * computed: communication overlaps computation.  Without it (WEFT_MPI_BYPASS=1, the same
 * binary) the Waitall holds the stream until the neighbours have answered.
 * "check": rank 0 gathers the grid (MPI_Gatherv) and compares it bit for bit with a
 * sequential run of the same stencil; the exit status says whether they agree.
 * Prints the time of the iterations (the slowest rank's). */
#include <abt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nx, rows, iters, nults, rank, size;
static double *a, *b; /* (rows + 2) x nx, row 0 and rows + 1 are the halos */

#define AT(g, i, j) (g)[(size_t)(i) * (size_t)nx + (size_t)(j)]

static double init_cell(long gi, int j)
{
    if (j == 0 || j == nx - 1)
        return 0.0;
    return (double)((gi * 31 + j * 17) % 101) / 101.0;
}

static void update_rows(const double *src, double *dst, int i0, int i1)
{
    for (int i = i0; i < i1; i++) {
        AT(dst, i, 0) = AT(src, i, 0);
        for (int j = 1; j < nx - 1; j++)
            AT(dst, i, j) = 0.25 * (AT(src, i - 1, j) + AT(src, i + 1, j) + AT(src, i, j - 1) +
                                    AT(src, i, j + 1));
        AT(dst, i, nx - 1) = AT(src, i, nx - 1);
    }
}

struct chunk {
    int i0, i1;
};

static void interior(void *arg)
{
    struct chunk *c = arg;
    update_rows(a, b, c->i0, c->i1);
}

static void exchange(void *arg)
{
    (void)arg;
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    /* Both halos at once, one wait: my first row goes up and my last row down, the halo
     * rows come from both neighbours.  (Two MPI_Sendrecv in a row would make the second
     * exchange wait for the first and for this ULT's turn to run again.) */
    MPI_Request q[4];
    MPI_Irecv(&AT(a, rows + 1, 0), nx, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &q[0]);
    MPI_Irecv(&AT(a, 0, 0), nx, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &q[1]);
    MPI_Isend(&AT(a, 1, 0), nx, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &q[2]);
    MPI_Isend(&AT(a, rows, 0), nx, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, &q[3]);
    MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
    update_rows(a, b, 1, 2);
    if (rows > 1)
        update_rows(a, b, rows, rows + 1);
}

/* The same stencil on the whole grid, one thread: the reference of "check". */
static double *sequential(void)
{
    long g = (long)size * rows;
    double *s = malloc(sizeof(double) * (size_t)(g + 2) * (size_t)nx);
    double *t = malloc(sizeof(double) * (size_t)(g + 2) * (size_t)nx);
    if (!s || !t)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (long i = 0; i < g + 2; i++)
        for (int j = 0; j < nx; j++)
            AT(s, i, j) = AT(t, i, j) = i == 0 ? 1.0 : i == g + 1 ? 0.0 : init_cell(i - 1, j);
    for (int it = 0; it < iters; it++) {
        update_rows(s, t, 1, (int)g + 1);
        double *x = s;
        s = t;
        t = x;
    }
    free(t);
    return s;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    nx = argc > 1 ? atoi(argv[1]) : 4096;
    rows = argc > 2 ? atoi(argv[2]) : 256;
    iters = argc > 3 ? atoi(argv[3]) : 50;
    nults = argc > 4 ? atoi(argv[4]) : 8;
    int streams = argc > 5 ? atoi(argv[5]) : 1;
    int check = argc > 6 && strcmp(argv[6], "check") == 0;
    if (nx < 3 || rows < 3 || iters < 0 || nults < 1 || streams < 1 ||
        provided < MPI_THREAD_SERIALIZED) {
        if (rank == 0)
            fprintf(stderr, "usage: stencil [NX>=3] [ROWS>=3] [ITERS] [ULTS>=1] [STREAMS>=1] "
                            "[check]\n");
        MPI_Finalize();
        return 2;
    }
    size_t cells = (size_t)(rows + 2) * (size_t)nx;
    a = malloc(sizeof(double) * cells);
    b = malloc(sizeof(double) * cells);
    if (!a || !b)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < rows + 2; i++) {
        long gi = (long)rank * rows + i - 1;
        for (int j = 0; j < nx; j++) {
            double v = init_cell(gi, j);
            if (i == 0)
                v = rank == 0 ? 1.0 : 0.0; /* the top boundary; other halos come by message */
            if (i == rows + 1 && rank == size - 1)
                v = 0.0;
            AT(a, i, j) = AT(b, i, j) = v;
        }
    }

    ABT_init(argc, argv);
    ABT_xstream *xs = malloc(sizeof(ABT_xstream) * (size_t)streams);
    ABT_pool *pools = malloc(sizeof(ABT_pool) * (size_t)streams);
    ABT_thread *ults = malloc(sizeof(ABT_thread) * (size_t)(nults + 1));
    struct chunk *ch = malloc(sizeof(struct chunk) * (size_t)nults);
    ABT_xstream_self(&xs[0]);
    for (int s = 1; s < streams; s++)
        ABT_xstream_create(ABT_SCHED_NULL, &xs[s]);
    for (int s = 0; s < streams; s++)
        ABT_xstream_get_main_pools(xs[s], 1, &pools[s]);
    int inner = rows - 2; /* rows 2 .. rows-1 */
    for (int u = 0; u < nults; u++) {
        ch[u].i0 = 2 + (int)((long)inner * u / nults);
        ch[u].i1 = 2 + (int)((long)inner * (u + 1) / nults);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        ABT_thread_create(pools[0], exchange, NULL, ABT_THREAD_ATTR_NULL, &ults[0]);
        for (int u = 0; u < nults; u++)
            ABT_thread_create(pools[u % streams], interior, &ch[u], ABT_THREAD_ATTR_NULL,
                              &ults[1 + u]);
        for (int u = 0; u <= nults; u++)
            ABT_thread_free(&ults[u]);
        double *x = a;
        a = b;
        b = x;
    }
    double t = MPI_Wtime() - t0, tmax = 0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    for (int s = 1; s < streams; s++) {
        ABT_xstream_join(xs[s]);
        ABT_xstream_free(&xs[s]);
    }
    ABT_finalize();

    int ok = 1;
    if (check) {
        double *all = NULL;
        int *counts = NULL, *displs = NULL;
        if (rank == 0) {
            all = malloc(sizeof(double) * (size_t)size * (size_t)rows * (size_t)nx);
            counts = malloc(sizeof(int) * (size_t)size);
            displs = malloc(sizeof(int) * (size_t)size);
            if (!all || !counts || !displs)
                MPI_Abort(MPI_COMM_WORLD, 2);
            for (int r = 0; r < size; r++) {
                counts[r] = rows * nx;
                displs[r] = r * rows * nx;
            }
        }
        MPI_Gatherv(&AT(a, 1, 0), rows * nx, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
                    MPI_COMM_WORLD);
        if (rank == 0) {
            double *s = sequential();
            ok = memcmp(all, &AT(s, 1, 0),
                        sizeof(double) * (size_t)size * (size_t)rows * (size_t)nx) == 0;
            free(s);
            free(all);
            free(counts);
            free(displs);
        }
        MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("stencil %d ranks x %d rows x %d cols, %d iterations, %d ULTs, %d streams: "
               "%.4f s%s\n",
               size, rows, nx, iters, nults, streams, tmax,
               check ? (ok ? ", matches the sequential run" : ", DIFFERS from the sequential run")
                     : "");
    free(a);
    free(b);
    free(xs);
    free(pools);
    free(ults);
    free(ch);
    MPI_Finalize();
    return ok ? 0 : 1;
}
